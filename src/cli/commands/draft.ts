// `weave draft`: the synthesis agent. Progress to stderr; the kept drafts (with their verification), the rejected
// ones (with the reason) and the review to stdout, or { kept, rejected, review } with --json. Your files change
// only with --accept.
import { trapInterrupts } from '../interrupt';
import path from 'node:path';
import { acceptDrafts, AcceptError } from '../../core/draft/accept';
import {
  DEFAULT_MAX_DRAFTS,
  runDraft,
  type DraftProgress,
  type DraftResult,
} from '../../core/draft/runDraft';
import { loadSpecFile } from '../../core/spec/load';
import { SpecLoadError } from '../../core/spec/problems';
import { parseVerbFlags, wholeNumberFlags, WORKSPACE_FLAG } from '../flags';
import { BUDGET_FLAGS, budgetsOf, MODEL_FLAGS, modelClientFromFlags } from '../modelFlags';
import type { Verb } from '../verb';

const HELP = `Usage: weave draft [--goal TEXT] [--max-specs N] [--json] [--accept] [options]

The synthesis agent: a model reads your code (in a scratch checkout) and proposes specs, each with its test
file(s). Every proposal is verified before it counts: valid against the spec schema and your existing specs,
its test runs at least one test with a recognised runner, gives the same verdict twice, passes (a constraint)
or fails by an assertion (a goal not met yet, marked goal), kills at least one mutant of the code it anchors
(not vacuous), and is not a duplicate. Rejections go back to the model with the reason, so it can revise.
A review of the kept set follows: goal parts no spec covers, undeclared interactions, contradictions.

Nothing is written to your files unless you pass --accept, which appends the kept specs to .weave/specs.json
(comments kept) and writes their test files.

Options:
  --goal TEXT           what to draft specs for (default: the spec file's goal)
  --max-specs N         keep at most N drafts (default ${DEFAULT_MAX_DRAFTS})
  --max-mutants N       mutants tried per proposal before it is called vacuous (default 20)
  --accept              write the kept drafts into your workspace
  --workspace DIR       the workspace folder (default: the current directory)
  --json                print { kept: [...], rejected: [{ id, reason }], review }
  --no-review           skip the model's review of the set (the deterministic one still runs)
  -h, --help            show this help

Model and budgets: as \`weave agent\` (--base-url, --model, --no-stream, --max-steps, --max-tokens,
--timeout-seconds; the key from $WEAVE_API_KEY or $OPENAI_API_KEY; a server on localhost needs none).

Exit codes: 0 at least one draft kept, 1 none kept (or the model failed), 2 bad input.`;

export const draftVerb: Verb = {
  name: 'draft',
  summary: 'Let a model draft specs for the goal; keep only the verified ones',
  help: HELP,
  async run(args) {
    const flags = parseVerbFlags('draft', args, {
      goal: { type: 'string' },
      'max-specs': { type: 'string' },
      'max-mutants': { type: 'string' },
      accept: { type: 'boolean', default: false },
      ...WORKSPACE_FLAG,
      json: { type: 'boolean', default: false },
      'no-review': { type: 'boolean', default: false },
      ...MODEL_FLAGS,
      ...BUDGET_FLAGS,
    });
    const numbers = wholeNumberFlags(flags, [
      'max-specs',
      'max-mutants',
      'max-steps',
      'max-tokens',
      'timeout-seconds',
    ]);
    const workspaceDir = path.resolve(flags.workspace);
    const loaded = await loadSpecFile(workspaceDir);
    if (!loaded.ok) throw new SpecLoadError(loaded.file, loaded.problems);
    const { client, apiKey } = modelClientFromFlags(flags);
    const interrupt = trapInterrupts('draft', 'cancelling (removing the scratch checkout)…');
    const abort = { signal: interrupt.signal };
    try {
      const result = await runDraft({
        workspaceDir,
        client,
        ...(flags.goal !== undefined ? { goal: flags.goal } : {}),
        ...(numbers['max-specs'] !== undefined ? { maxSpecs: numbers['max-specs'] } : {}),
        ...(numbers['max-mutants'] !== undefined ? { maxMutantsPerProposal: numbers['max-mutants'] } : {}),
        budgets: budgetsOf(numbers),
        signal: abort.signal,
        onProgress: printProgress,
        secrets: [apiKey],
        modelReview: !flags['no-review'],
      });
      let accepted: string[] | undefined;
      if (flags.accept && result.kept.length > 0 && !abort.signal.aborted) {
        try {
          accepted = (await acceptDrafts(workspaceDir, result.kept)).specIds;
        } catch (error) {
          if (!(error instanceof AcceptError)) throw error;
          process.stderr.write(`weave draft: ${error.message}\n`);
          return 1;
        }
      }
      if (flags.json) process.stdout.write(`${JSON.stringify(jsonOf(result, accepted), null, 2)}\n`);
      else process.stdout.write(formatDraft(result, accepted));
      if (result.error) process.stderr.write(`weave draft: ${result.error}\n`);
      return result.kept.length > 0 && result.stopReason !== 'model-error' ? 0 : 1;
    } finally {
      interrupt.dispose();
    }
  },
};

function printProgress(event: DraftProgress): void {
  if (event.type === 'phase') process.stderr.write(`draft: ${event.message}\n`);
  else if (event.type === 'step')
    process.stderr.write(
      `draft: step ${event.step}/${event.maxSteps} · ${event.tokens.toLocaleString('en')} tokens\n`,
    );
  else process.stderr.write(`  ${event.kept ? '✓' : '✗'} ${event.message.split('\n')[0]}\n`);
}

function jsonOf(result: DraftResult, accepted: string[] | undefined): unknown {
  return {
    kept: result.kept.map((k) => ({
      ...k.specInput,
      goal: k.verification.goal,
      verification: k.verification,
      testFiles: k.testFiles,
    })),
    rejected: result.rejected,
    review: result.review,
    stopReason: result.stopReason,
    ...(result.error ? { error: result.error } : {}),
    ...(accepted ? { accepted } : {}),
    trajectoryFile: result.trajectoryFile,
  };
}

function formatDraft(result: DraftResult, accepted: string[] | undefined): string {
  const lines: string[] = [];
  lines.push(`Kept ${result.kept.length} draft(s):`);
  for (const k of result.kept) {
    const v = k.verification;
    lines.push(
      `  ✓ ${k.spec.id} (${k.spec.kind}${v.goal ? ', goal: fails now by an assertion' : ''}): ${k.spec.statement}`,
    );
    lines.push(
      `      test: ${k.spec.test.command} — ${v.tests} test(s), ${v.runner}, ${v.repeats.join('/')}` +
        (v.killedExample ? `; kills ${v.killedExample}` : ''),
    );
  }
  if (result.rejected.length > 0) {
    lines.push('', `Rejected ${result.rejected.length}:`);
    for (const r of result.rejected) lines.push(`  ✗ ${r.id} (${r.stage}): ${r.reason.split('\n')[0]}`);
  }
  const review = result.review;
  lines.push('', 'Review of the set:');
  if (
    review.uncoveredGoalParts.length === 0 &&
    review.missingEdges.length === 0 &&
    review.contradictions.length === 0
  )
    lines.push('  nothing to report');
  for (const g of review.uncoveredGoalParts) lines.push(`  goal not covered (${g.source}): ${g.text}`);
  for (const e of review.missingEdges)
    lines.push(`  undeclared interaction ${e.a} ↔ ${e.b} (${e.source}): ${e.why}`);
  for (const c of review.contradictions)
    lines.push(`  contradiction ${c.a} ↔ ${c.b} (${c.source}): ${c.why}`);
  if (!review.model.ok && 'error' in review.model)
    lines.push(`  model review unavailable: ${review.model.error}`);
  lines.push(
    '',
    `Stopped: ${result.stopReason}${result.error ? ` (${result.error})` : ''} after ${result.steps} step(s)`,
  );
  if (accepted) lines.push(`Accepted into .weave/specs.json: ${accepted.join(', ')}`);
  else if (result.kept.length > 0)
    lines.push('Nothing written: pass --accept to add the kept drafts to your workspace.');
  return lines.join('\n') + '\n';
}
