// `weave draft`: the synthesis agent. Progress to stderr; the kept drafts (with their verification), the rejected
// ones (with the reason) and the review to stdout, or { kept, rejected, review } with --json. Your files change
// only with --accept.
import { trapInterrupts } from '../interrupt';
import path from 'node:path';
import { acceptDrafts, AcceptError } from '../../core/draft/accept';
import { DEFAULT_MAX_DRAFTS, runDraft } from '../../core/draft/runDraft';
import { loadSpecFile, SpecLoadError } from '../../core/spec';
import { parseVerbFlags, wholeNumberFlags, WORKSPACE_FLAG } from '../flags';
import { BUDGET_FLAGS, budgetsFromFlags, MODEL_FLAGS, modelClientFromFlags } from '../modelFlags';
import { draftJson, formatDraft, printDraftProgress } from '../output/draftReport';
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
    const numbers = wholeNumberFlags('draft', flags, ['max-specs', 'max-mutants']);
    const budgets = budgetsFromFlags('draft', flags);
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
        budgets,
        signal: abort.signal,
        onProgress: printDraftProgress,
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
      if (flags.json) process.stdout.write(`${JSON.stringify(draftJson(result, accepted), null, 2)}\n`);
      else process.stdout.write(formatDraft(result, accepted));
      if (result.error) process.stderr.write(`weave draft: ${result.error}\n`);
      return result.kept.length > 0 && result.stopReason !== 'model-error' ? 0 : 1;
    } finally {
      interrupt.dispose();
    }
  },
};
