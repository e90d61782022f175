// `weave blame SPEC`: which edit broke a spec, by delta debugging over the diff hunks in a scratch worktree.
import { trapInterrupts } from '../interrupt';
import path from 'node:path';
import { BlameError, blameSpec, DEFAULT_BLAME_MAX_RUNS, type BlameResult } from '../../core/blame/blame';
import { indexWorkspace } from '../../core/anchors/anchoredWorkspace';
import { reportInputError } from '../output/inputErrors';
import { parseVerbArgs, UsageError, wholeNumber, WORKSPACE_FLAG } from '../flags';
import type { Verb } from '../verb';

const HELP = `Usage: weave blame SPEC [--workspace DIR] [--baseline-ref REF] [--max-runs N] [--json]

Finds which edit broke SPEC. Takes the diff between the baseline and the working tree (uncommitted and untracked
files included), then applies subsets of its hunks to the baseline in a throw-away git worktree and runs SPEC's
test each time (delta debugging), until the smallest set of hunks that still breaks it is left. Reports those
hunks, the symbols around them (tree-sitter) and the specs anchored there, e.g.
  the edit to \`LruCache.get\` (src/cache.js:42-43), made for \`cache-hit\`, breaks \`no-stale-read\`
Your files, index and branches are never touched. SPEC's own test files and .weave/specs.json are kept at their
current version in every run.

Options:
  --workspace DIR     the workspace folder (default: the current directory)
  --baseline-ref REF  the last good state (default: the commit of the latest run recorded on a clean tree)
  --max-runs N        most test runs in all (default ${DEFAULT_BLAME_MAX_RUNS}); when reached, the smallest
                      breaking set found so far is reported as not minimal
  --json              print the result as JSON
  -h, --help          show this help

Exit codes: 0 blamed, 1 nothing to blame (SPEC passes, fails on the baseline too, or nothing changed),
2 bad input (unknown spec, missing baseline, spec file, flags). Ctrl-C stops the runs and cleans up.`;

export const blameVerb: Verb = {
  name: 'blame',
  summary: 'Find the edit that broke a spec (delta debugging over the diff, in a scratch worktree)',
  help: HELP,
  async run(args) {
    const { flags, positionals } = parseVerbArgs('blame', args, {
      ...WORKSPACE_FLAG,
      'baseline-ref': { type: 'string' },
      'max-runs': { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (positionals.length !== 1)
      throw new UsageError(`name exactly one spec id (got ${positionals.length})\nRun 'weave blame --help'.`);
    const maxRuns = wholeNumber('blame', 'max-runs', flags['max-runs'], { min: 2 }) ?? DEFAULT_BLAME_MAX_RUNS;
    const interrupt = trapInterrupts('blame', 'stopping (killing test runs, removing checkouts)…');
    const controller = { signal: interrupt.signal };
    const workspaceDir = path.resolve(flags.workspace);
    try {
      const result = await blameSpec({
        workspaceDir,
        specId: positionals[0]!,
        maxRuns,
        signal: controller.signal,
        loadIndex: (dir, signal) => indexWorkspace(dir, signal ? { signal } : {}),
        ...(flags['baseline-ref'] !== undefined ? { baselineRef: flags['baseline-ref'] } : {}),
        onProgress: (p) => {
          if (!flags.json)
            process.stderr.write(
              `  run ${p.run}/${p.maxRuns}: ${p.applied} of ${p.total} hunks → ${p.verdict}\n`,
            );
        },
      });
      process.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : blameText(result));
      return 0;
    } catch (error) {
      if (error instanceof BlameError) {
        process.stderr.write(`weave blame: ${error.message}\n`);
        const noAnswer =
          error.code === 'not-broken' || error.code === 'fails-on-baseline' || error.code === 'empty-diff';
        return error.code === 'cancelled' ? 1 : noAnswer ? 1 : 2;
      }
      return reportInputError('blame', error);
    } finally {
      interrupt.dispose();
    }
  },
};

/** What `weave blame` prints: the verdict since the baseline, then each breaking hunk with why and its diff. */
function blameText(result: BlameResult): string {
  const base = result.baseline.ref ?? `recorded run ${result.baseline.runId ?? ''}`;
  let text =
    `${result.specId} is broken (${result.brokenVerdict}) since ${base} (${result.baseline.commit.slice(0, 12)}): ` +
    `${result.hunks.length} of ${result.totalHunks} hunk${result.totalHunks === 1 ? '' : 's'} ` +
    `${result.minimal ? 'break it' : 'still break it (run budget reached: not minimal, raise --max-runs)'}, ` +
    `found in ${result.runs} runs\n\n`;
  for (const [i, hunk] of result.hunks.entries()) {
    text += `${result.explanation[i] ?? ''}\n`;
    text += `${indent(hunk.diff)}\n\n`;
  }
  return text;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}
