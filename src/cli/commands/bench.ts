// `weave bench`: several models (or an external agent command) over many exported tasks, scored and ranked
// (core/tasks/bench/benchRun.ts). Progress on stderr (one updating line on a TTY), the leaderboard table on
// stdout.
import { trapInterrupts } from '../interrupt';
import path from 'node:path';
import { DEFAULT_BASE_URL, ModelError } from '../../core/model';
import { runBench, type BenchOptions, type BenchProgress } from '../../core/tasks/bench/benchRun';
import type { EvalReport } from '../../core/tasks/eval/evalReport';
import { scoringEnvironment, SCORING_ENVIRONMENTS } from '../../core/tasks/eval/dockerScoring';
import { parsePrice, type Leaderboard, type Price } from '../../core/tasks/bench/leaderboard';
import { parseVerbFlags, takeList, UsageError, wholeNumber, withHelpHint } from '../flags';
import { apiKeyFromEnvironment, baseUrlFrom, BUDGET_FLAGS, budgetsFromFlags } from '../modelFlags';
import type { Verb } from '../verb';

const HELP = `Usage: weave bench --tasks DIR... --model M... --out DIR [options]

Runs every model on every task (tasks written by \`weave export\`), scores the patches exactly as \`weave eval\`
does, and ranks the models. Each (model, task) cell works in its own scratch checkout of the task (base commit +
test.patch, so the agent sees the constraints it must satisfy); the user's files are never touched.

DIR gets, per model, <model>/predictions.jsonl (SWE-bench predictions), <model>/trajectories/, <model>/runs/
(one record per finished cell: a rerun skips those, so an interrupted bench resumes), <model>/report.json (the
eval report) and <model>/eval-logs/; and leaderboard.json + leaderboard.html (self-contained) with, per model:
resolved rate, strict compliance (every spec passes) and partial compliance (share of specs), broken constraints
(PASS_TO_FAIL), patches that did not apply, infra failures, review flags (tampering, hard-coding), tokens, cost,
agent time, the pass rate per spec kind, and (with --review / --self-pick) the models' judgement: review
precision / recall and self-pick regret.

Options:
  --tasks DIR...          task folders, or folders of task folders
  --model M...            models for Weave's agent (or labels for --agent-command runs)
  --base-url URL          OpenAI-compatible endpoint (default $WEAVE_BASE_URL, $OPENAI_BASE_URL or ${DEFAULT_BASE_URL});
                          the key comes from $WEAVE_API_KEY or $OPENAI_API_KEY
  --agent-command CMD     run CMD (sh -c, in the task checkout) instead of Weave's agent: the instruction is on its
                          stdin and in $WEAVE_INSTRUCTION; $WEAVE_TASK_ID, $WEAVE_MODEL and $WEAVE_BASE_URL are set;
                          what it changes in the checkout is its patch
  --workers N             cells at once (default 2)
  --matrix                also run the interaction matrix per cell (each spec alone and all together): counts
                          "solved alone but not together"
  --review                run the model review blind in every cell and score its per-spec "satisfied" against the
                          cell's sandboxed verdicts: review precision / recall per model
  --self-pick N           run N candidates per cell (seeds 1..N, one at a time) and ask the model to choose among
                          their diffs: self-pick regret (specs lost against the verified best) and how the pick
                          compares with the first candidate, which stays the scored prediction
  --price MODEL=IN/OUT    USD per million prompt / completion tokens, for the cost column (repeatable)
  --max-steps N, --max-tokens N, --timeout-seconds N   agent budgets per cell
  --env sandbox|docker    where the patches are scored (as weave eval --env; default sandbox)
  --out DIR               where everything goes
  --json                  print leaderboard.json instead of the table
  -h, --help              show this help

Exit codes: 0 the bench ran, 2 bad input.

Examples:
  weave bench --tasks tasks/ --model gpt-4.1 gpt-4.1-mini --price gpt-4.1=2/8 --workers 4 --out bench-out
  weave bench --tasks tasks/ --model claude --agent-command 'my-agent --stdin' --out bench-out`;

export const benchVerb: Verb = {
  name: 'bench',
  summary: 'Run several models over many exported tasks; leaderboard.json + leaderboard.html',
  help: HELP,
  async run(args) {
    const { options, json } = benchOptionsFromArgs(args);
    const interrupt = trapInterrupts(
      'bench',
      'stopping (killing agent and eval runs, removing scratch folders)…',
    );
    const tty = process.stderr.isTTY === true;
    try {
      const result = await runBench({
        ...options,
        signal: interrupt.signal,
        ...(json
          ? {}
          : {
              onProgress: (p: BenchProgress) => process.stderr.write(progressLine(p, tty)),
              onSetupProgress: (message: string) =>
                process.stderr.write(`${tty ? '\r\u001b[2K' : ''}${message}\n`),
            }),
      });
      if (tty && !json) process.stderr.write('\n');
      if (!json) process.stderr.write(infraFailureLines(result.reports));
      process.stdout.write(
        json
          ? `${JSON.stringify(result.leaderboard, null, 2)}\n`
          : formatLeaderboard(result.leaderboard, result.leaderboardHtml, result.resumed),
      );
      return 0;
    } catch (error) {
      // A model client that cannot be made (bad URL, no key for a remote endpoint) is the user's configuration.
      if (error instanceof ModelError) throw new UsageError(error.message);
      throw error;
    } finally {
      interrupt.dispose();
    }
  },
};

/** The command line as the bench to run (all but its signal and progress), refused when it is wrong. */
function benchOptionsFromArgs(args: string[]): {
  options: Omit<BenchOptions, 'signal' | 'onProgress' | 'onSetupProgress'>;
  json: boolean;
} {
  const tasks = takeList(args, '--tasks');
  const models = takeList(tasks.rest, '--model');
  const flags = parseVerbFlags('bench', models.rest, {
    'base-url': { type: 'string' },
    'agent-command': { type: 'string' },
    workers: { type: 'string', default: '2' },
    matrix: { type: 'boolean', default: false },
    review: { type: 'boolean', default: false },
    'self-pick': { type: 'string' },
    env: { type: 'string', default: 'sandbox' },
    price: { type: 'string', multiple: true, default: [] },
    ...BUDGET_FLAGS,
    out: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  if (tasks.list.length === 0) throw withHelpHint('bench', '--tasks DIR... is required');
  if (models.list.length === 0) throw withHelpHint('bench', '--model M... is required');
  if (new Set(models.list).size !== models.list.length)
    throw withHelpHint('bench', 'a --model is given twice');
  if (flags.out === undefined) throw withHelpHint('bench', '--out DIR is required');
  const env = scoringEnvironment(flags.env);
  if (env === undefined)
    throw withHelpHint(
      'bench',
      `--env must be one of ${SCORING_ENVIRONMENTS.join(', ')}, got '${flags.env}'`,
    );
  const workers = wholeNumber('bench', 'workers', flags.workers);
  const budgets = budgetsFromFlags('bench', flags);
  const selfPick = wholeNumber('bench', 'self-pick', flags['self-pick']);
  const prices = pricesFromFlags(flags.price);
  const agentCommand = flags['agent-command'];
  if (agentCommand !== undefined && (flags.review || selfPick !== undefined))
    throw withHelpHint(
      'bench',
      "--review and --self-pick judge Weave's agent's model, not an --agent-command",
    );
  const baseUrl = baseUrlFrom(flags['base-url'], agentCommand === undefined ? DEFAULT_BASE_URL : '');
  const apiKey = apiKeyFromEnvironment();
  const options = {
    taskDirs: tasks.list,
    models: models.list,
    baseUrl,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(agentCommand === undefined ? {} : { agentCommand }),
    workers: workers ?? 2,
    outDir: path.resolve(flags.out),
    matrix: flags.matrix,
    ...(flags.review ? { review: true } : {}),
    ...(selfPick === undefined ? {} : { selfPickCandidates: selfPick }),
    prices,
    budgets,
    env,
  };
  return { options, json: flags.json };
}

/** `--price MODEL=IN/OUT` (repeatable): USD per million input/output tokens, by model. */
function pricesFromFlags(texts: readonly string[]): Record<string, Price> {
  const prices: Record<string, Price> = {};
  for (const text of texts) {
    const parsed = parsePrice(text);
    if (parsed === undefined)
      throw withHelpHint('bench', `--price must look like MODEL=IN/OUT (USD per 1M tokens), got '${text}'`);
    prices[parsed.model] = parsed.price;
  }
  return prices;
}

/** Each instance whose environment failed, with why (a failed set-up: its command and last lines). */
function infraFailureLines(reports: Record<string, EvalReport>): string {
  return Object.entries(reports)
    .flatMap(([model, report]) =>
      Object.values(report.instances)
        .filter((r) => r.infra_failure !== undefined)
        .map((r) => `infra failure, ${model} ${r.instance_id}: ${r.infra_failure ?? ''}\n`),
    )
    .join('');
}

function progressLine(p: BenchProgress, tty: boolean): string {
  const what = p.resumed
    ? 'done before (kept)'
    : `${p.run.stop_reason}${p.run.error ? `: ${p.run.error}` : ''}`;
  const line = `[${p.done}/${p.total}] ${p.model} ${p.instanceId}: ${what}`;
  // On a terminal one line is rewritten in place; in a log every cell gets its own line.
  return tty ? `\r\u001b[2K${line.slice(0, (process.stderr.columns || 100) - 1)}` : `${line}\n`;
}

function formatLeaderboard(board: Leaderboard, htmlFile: string, resumed: number): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const header = [
    'model',
    'resolved',
    'strict',
    'partial',
    'broken',
    'no-apply',
    'tamper',
    'tokens',
    'cost',
    'time',
  ];
  const rows = board.rows.map((r) => [
    r.model,
    `${pct(r.resolved_rate)} (${r.resolved}/${r.instances})`,
    pct(r.strict_compliance_rate),
    pct(r.partial_compliance),
    `${pct(r.broken_rate)} (${r.broken_constraints})`,
    String(r.patch_failed),
    String(r.review_flags.tampering),
    String(r.tokens.total),
    r.cost_usd === null ? '—' : `$${r.cost_usd.toFixed(4)}`,
    `${(r.agent_time_ms / 1000).toFixed(1)} s`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const format = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[
    `${board.tasks} tasks × ${board.rows.length} models, ${board.workers} workers, ${(board.wall_time_ms / 1000).toFixed(1)} s${resumed > 0 ? ` (${resumed} cells kept from a previous run)` : ''}`,
    '',
    format(header),
    ...rows.map(format),
    '',
    `Leaderboard: ${htmlFile}`,
  ].join('\n')}\n`;
}
