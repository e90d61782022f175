// `weave mine review DIR --model M…`: several models over a mined dataset, N candidates each, R repeats
// (core/tasks/bench/datasetReview.ts). Progress on stderr, the per-model table on stdout (or review.json's content
// with --json).
import path from 'node:path';
import { trapInterrupts } from '../interrupt';
import { DEFAULT_BASE_URL, ModelError } from '../../core/model';
import { reviewDataset, type DatasetReview } from '../../core/tasks/bench/datasetReview';
import { parseVerbArgs, takeList, UsageError, wholeNumber, withHelpHint } from '../flags';
import { apiKeyFromEnvironment, baseUrlFrom, BUDGET_FLAGS, budgetsFromFlags } from '../modelFlags';

export const REVIEW_USAGE = '       weave mine review DIR --model M… [--candidates N] [--repeats R] [--json]';

export const REVIEW_HELP = `Review (weave mine review): every model runs N candidates (seeds 1..N) on every task of the dataset in DIR, as
weave bench does, and each candidate is scored as weave eval scores a prediction. Per model: Pass@1 (the first
candidate resolves), Best@N (the candidate Weave's verified ranking puts first resolves), Pass@N (any candidate
resolves) and choice accuracy (Best@N ÷ Pass@N); per task the flags hard (no model solves it), easy (every model
does) and flaky (a model's outcome differs across repeats). Written to DIR/review.json and DIR/review.md, the
runs under DIR/review/ (a rerun keeps finished cells); the dataset's own files are not touched.
  --model M…            the models (required; put DIR before --model)
  --candidates N        candidates per model and task (default 2)
  --repeats R           times the review runs, to tell flaky tasks (default 1)
  --base-url URL        OpenAI-compatible endpoint (as weave bench); --workers N cells at once (default 2)
  --max-steps N, --max-tokens N, --timeout-seconds N   agent budgets per candidate`;

export async function mineReview(args: string[]): Promise<number> {
  const models = takeList(args, '--model');
  const { flags, positionals } = parseVerbArgs('mine', models.rest, {
    candidates: { type: 'string', default: '2' },
    repeats: { type: 'string', default: '1' },
    'base-url': { type: 'string' },
    workers: { type: 'string', default: '2' },
    ...BUDGET_FLAGS,
    json: { type: 'boolean', default: false },
  });
  const [dir, ...extra] = positionals;
  if (dir === undefined) throw withHelpHint('mine', 'review needs the dataset folder: weave mine review DIR');
  if (extra.length > 0) throw withHelpHint('mine', `review takes one dataset folder, got also '${extra[0]}'`);
  if (models.list.length === 0) throw withHelpHint('mine', 'review needs --model M… (at least one model)');
  if (new Set(models.list).size !== models.list.length)
    throw withHelpHint('mine', 'a --model is given twice');
  const apiKey = apiKeyFromEnvironment();
  const interrupt = trapInterrupts('mine review', 'stopping (finished cells are kept; rerun to resume)…');
  try {
    const review = await reviewDataset({
      datasetDir: path.resolve(dir),
      models: models.list,
      baseUrl: baseUrlFrom(flags['base-url'], DEFAULT_BASE_URL),
      ...(apiKey === undefined ? {} : { apiKey }),
      workers: wholeNumber('mine', 'workers', flags.workers) ?? 2,
      candidates: wholeNumber('mine', 'candidates', flags.candidates) ?? 2,
      repeats: wholeNumber('mine', 'repeats', flags.repeats) ?? 1,
      budgets: budgetsFromFlags('mine', flags),
      signal: interrupt.signal,
      onProgress: (message) => process.stderr.write(`weave mine review: ${message}\n`),
    });
    process.stdout.write(flags.json ? `${JSON.stringify(review, null, 2)}\n` : table(review));
    return 0;
  } catch (error) {
    // A model client that cannot be made (bad URL, no key for a remote endpoint) is the user's configuration.
    if (error instanceof ModelError) throw new UsageError(error.message);
    throw error;
  } finally {
    interrupt.dispose();
  }
}

function table(review: DatasetReview): string {
  const pct = (x: number | null): string => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
  const rows = review.models.map(
    (m) =>
      `${m.model.padEnd(24)} ${pct(m.pass_at_1).padStart(7)} ${pct(m.best_at_n).padStart(7)} ${pct(m.pass_at_n).padStart(7)} ${pct(m.choice_accuracy).padStart(9)}`,
  );
  const count = (pick: (t: DatasetReview['tasks'][number]) => boolean): number =>
    review.tasks.filter(pick).length;
  return `${[
    `${'model'.padEnd(24)}  Pass@1  Best@N  Pass@N  accuracy`,
    ...rows,
    `${review.tasks.length} tasks: ${count((t) => t.hard)} hard, ${count((t) => t.easy)} easy, ${count((t) => t.flaky.length > 0)} flaky (review.md)`,
  ].join('\n')}\n`;
}
