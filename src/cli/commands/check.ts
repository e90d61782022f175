// `weave check`: runs every spec's test, prints a table with each verdict and its change against the baseline,
// records the run, and exits 0 (all pass, nothing broken), 1 (something failed / broke / errored) or 2 (bad
// spec file or flags). Machine outputs: --json (one document), --junit FILE, --github (Actions annotations).
import { trapInterrupts } from '../interrupt';
import { constants as fsConstants, promises as fs } from 'node:fs';
import path from 'node:path';
import { isFailing } from '../../core/check';
import { checkWorkspace, type CheckProgress, type CheckResult } from '../../core/fullCheck';
import { toJUnitXml } from '../output/junit';
import { gitRoot, resolveCommit } from '../../core/git/git';
import { selectAffected, type SelectedAffected } from '../../core/selection/selectAffected';
import { checkAnchors } from '../../core/anchors/anchorCheck';
import { loadSpecFile, SpecLoadError, type SpecProblem } from '../../core/spec';
import { commaList, parseVerbFlags, UsageError, wholeNumberFlags, WORKSPACE_FLAG } from '../flags';
import { checkJson, renderCheckReport } from '../output/checkReport';
import { githubAnnotations } from '../output/githubAnnotations';
import { reportInputError } from '../output/inputErrors';
import { annotationPath } from '../output/paths';
import { printProblems } from '../output/problems';
import { ProgressLine } from '../output/progressLine';
import { printSelection } from '../output/selection';
import type { Verb } from '../verb';
import { sessionTampering } from '../guard/sessionBackstop';

const HELP = `Usage: weave check [options]

Runs the test of every spec in .weave/specs.json (in parallel, dependencies first), prints each spec's verdict
(pass, fail, error, blocked, skipped, flaky) and its change against the baseline (broken = pass → fail,
fixed = fail → pass), and records the run in .weave/runs/.

Every recorded run also records per-spec coverage: V8 function coverage for every Node process a spec's command
starts (a --require hook in NODE_OPTIONS), a function-level profiler for every Python process (a
sitecustomize.py on a prepended PYTHONPATH). In a git repository, a spec whose recorded coverage no change
since can reach (the same rule as --affected) runs uninstrumented and keeps it.

A spec passes only if its command exits 0, no test failed and at least one test ran. What the tests did is
learnt from the test runner itself where Weave can hook it (node:test, mocha, pytest: this sees through
'| tail', '|| true' and 'a; b'), else from every summary the output shows (node:test, mocha, vitest, jest,
pytest, unittest, go test, cargo test, JUnit XML, JSON reporters, TAP). A listing or dry run (pytest --co,
mocha --dry-run, cargo test --no-run) is "ran no test". A command whose output shows no test result at all
passes on its exit code alone and says so: "pass  unverified: no test result seen". --json gives each result's
"evidence": runner, summary or exit-code.

The baseline is the latest run recorded on a clean tree (no uncommitted change in the workspace folder), or,
with --baseline-ref, a run of the current specs and spec test files on a throw-away git worktree of REF.

Options:
  --workspace DIR      the workspace folder (default: the current directory)
  --only ID,...        run only these specs (and the specs they depend on); repeatable
  --affected           run only the specs a change can affect (see 'weave affected'), and what they depend on;
                       prints why each spec runs and why each other one is safe to skip
  --since REF          with --affected: changes since git REF (default: HEAD, i.e. the uncommitted changes)
  --baseline-ref REF   compare against a run on git REF (branch, tag, commit) instead of the last clean run
  --concurrency N      spec tests run at once (default: the number of CPU cores)
  --repeat N           run each spec N times; specs whose verdicts differ are reported "flaky"
  --retries N          run a new failure (a spec that passed in the baseline) again up to N times before it
                       counts as broken; one pass makes it "flaky" (the editor's weave.check.retries)
  --json               print one JSON document {run, report, baselineRun, anchorProblems, coverage?,
                       selection?} instead of the table (coverage: what was recorded, kept and why)
  --junit FILE         also write a JUnit XML report to FILE
  --github             also print GitHub Actions annotations (::error file=…,line=…::) for failures
  --no-record          do not record this run in .weave/runs/ (nor its coverage)
  --no-coverage        do not record which functions each spec's test executes (per-spec coverage, kept in
                       .weave/cache/coverage/ and used by --affected, 'weave affected', 'weave graph', blame)
  --fresh-coverage     record every spec's coverage again (by default a spec that no change since its coverage
                       was recorded can reach runs uninstrumented and keeps it)
  -h, --help           show this help

During an agent session recorded by 'weave guard', a spec whose test files, runner configuration or
.weave/ changed since the session started is 'tampered' (failing, never fixed), whatever its test says.

Exit codes: 0 every spec passed and none broke, 1 a spec failed, errored, was blocked, flaky, broken or
tampered (also with --affected when nothing is affected but protected files changed during a session),
2 the spec file or the command line is wrong. Ctrl-C stops the run and kills every test process.

Examples:
  weave check --workspace examples
  weave check --only no-secret-caching,cache-hit --repeat 5
  weave check --baseline-ref main --junit weave.xml --github`;

export const checkVerb: Verb = {
  name: 'check',
  summary: 'Run every spec test; show pass/fail/error/blocked and what broke against the baseline',
  help: HELP,
  async run(args) {
    const { flags, only, numbers } = parseCheckFlags(args);
    const workspaceDir = path.resolve(flags.workspace);
    // An agent session's record (weave guard): protected files changed since it started make their specs
    // `tampered`, however the change was made and whatever the tests say now.
    const session = await sessionTampering(workspaceDir);
    if (session) process.stderr.write(`${changedDuringSessionNote(session.state.changes)}\n`);
    const picked = await chooseSpecs(workspaceDir, flags, only, session !== undefined);
    if (picked === 'none-affected' && !session) return 0;
    const chosen = session ? withTamperedSpecs(picked, session.concerned) : (picked as ChosenSpecs);
    const baselineRef = flags['baseline-ref'];
    await refuseBeforeRunning(workspaceDir, flags);

    const interrupt = trapInterrupts('check', 'stopping (killing running tests)…');
    const progress = ProgressLine.create();
    let result: CheckResult;
    try {
      result = await checkWorkspace({
        workspaceDir,
        ...(chosen.selected ? { only: chosen.selected } : {}),
        ...(baselineRef !== undefined ? { baselineRef } : {}),
        ...numbers,
        signal: interrupt.signal,
        record: !flags['no-record'],
        coverage: !flags['no-record'] && !flags['no-coverage'],
        ...(flags['fresh-coverage'] ? { freshCoverage: true } : {}),
        ...(session ? { sessionTampering: session.concerned } : {}),
        ...(progress ? { onProgress: (e: CheckProgress) => progress.update(e) } : {}),
      });
    } catch (error) {
      return reportInputError('check', error, "nothing was run (see 'weave validate')");
    } finally {
      progress?.clear();
      interrupt.dispose();
    }

    await printCheckResult(result, chosen, flags);
    if (interrupt.signal.aborted) return interrupt.exitCode() ?? 130;
    return checkFailed(result) ? 1 : 0;
  },
};

/** Phase 1: the flags, their numbers and --only, and the refusal of flags that do not go together. */
function parseCheckFlags(args: string[]) {
  const flags = parseVerbFlags('check', args, {
    ...WORKSPACE_FLAG,
    only: { type: 'string', multiple: true },
    'baseline-ref': { type: 'string' },
    concurrency: { type: 'string' },
    repeat: { type: 'string' },
    retries: { type: 'string' },
    json: { type: 'boolean', default: false },
    junit: { type: 'string' },
    github: { type: 'boolean', default: false },
    'no-record': { type: 'boolean', default: false },
    'no-coverage': { type: 'boolean', default: false },
    'fresh-coverage': { type: 'boolean', default: false },
    affected: { type: 'boolean', default: false },
    since: { type: 'string' },
  });
  const numbers = wholeNumberFlags('check', flags, ['concurrency', 'repeat', 'retries']);
  const only = commaList(flags.only);
  if (flags.only !== undefined && only?.length === 0)
    throw new UsageError('--only needs at least one spec id');
  if (flags.since !== undefined && !flags.affected) throw new UsageError('--since goes with --affected');
  if (flags.affected && only !== undefined) throw new UsageError('give --only or --affected, not both');
  return { flags, only, numbers };
}

/** The specs to run (undefined: all), the affected-spec selection behind them, and the anchors that do not resolve. */
interface ChosenSpecs {
  selected: string[] | undefined;
  selection: SelectedAffected | undefined;
  anchorProblems: SpecProblem[];
}

/**
 * Phase 2: --only as given, or with --affected the specs the changes since --since (HEAD) affect, printed;
 * 'none-affected' when that is none (said on stderr: nothing runs).
 */
async function chooseSpecs(
  workspaceDir: string,
  flags: { affected: boolean; since?: string | undefined },
  only: string[] | undefined,
  sessionChanged: boolean,
): Promise<ChosenSpecs | 'none-affected'> {
  if (!flags.affected)
    return { selected: only, selection: undefined, anchorProblems: await anchorProblemsOf(workspaceDir) };
  try {
    const since = flags.since ?? 'HEAD';
    const selection = await selectAffected({ workspaceDir, since });
    const selected = selection.affected.map((s) => s.id);
    const { anchorProblems } = selection;
    printSelection(selection);
    if (selected.length === 0) {
      printProblems(anchorProblems);
      if (!sessionChanged)
        process.stderr.write(
          `weave check: no spec is affected by the changes since ${since}; nothing to run\n`,
        );
      return 'none-affected';
    }
    return { selected, selection, anchorProblems };
  } catch (error) {
    // An invalid spec file is reported by checkWorkspace below, like any other run.
    if (!(error instanceof SpecLoadError)) throw error;
    return { selected: only, selection: undefined, anchorProblems: [] };
  }
}

/** The chosen specs and those a session's protected-file changes concern: those always run, and are tampered. */
function withTamperedSpecs(
  chosen: ChosenSpecs | 'none-affected',
  concerned: ReadonlyMap<string, unknown>,
): ChosenSpecs {
  if (chosen === 'none-affected')
    return { selected: [...concerned.keys()], selection: undefined, anchorProblems: [] };
  // Only a selection Weave made grows: --only names what the person asked for.
  if (chosen.selected === undefined || chosen.selection === undefined) return chosen;
  return { ...chosen, selected: [...new Set([...chosen.selected, ...concerned.keys()])] };
}

/** Phase 3: a --baseline-ref that resolves and a --junit file that can be written, before any test runs. */
async function refuseBeforeRunning(
  workspaceDir: string,
  flags: { workspace: string; 'baseline-ref'?: string | undefined; junit?: string | undefined },
): Promise<void> {
  const baselineRef = flags['baseline-ref'];
  if (baselineRef !== undefined) {
    const root = await gitRoot(workspaceDir);
    if (root === null)
      throw new UsageError(`--baseline-ref needs a git repository, and ${flags.workspace} is not in one`);
    await resolveCommit(root, baselineRef);
  }
  if (flags.junit !== undefined) {
    const problem = await unwritableReason(path.resolve(flags.junit));
    if (problem !== undefined) throw new UsageError(`--junit ${flags.junit}: ${problem}; nothing was run`);
  }
}

/** Phase 5: the problems on stderr, the JUnit file, the report (or --json) and --github annotations on stdout. */
async function printCheckResult(
  result: CheckResult,
  chosen: ChosenSpecs,
  flags: { junit?: string | undefined; json: boolean; github: boolean },
): Promise<void> {
  printProblems(result.warnings);
  for (const warning of result.runStoreWarnings) process.stderr.write(`weave check: warning: ${warning}\n`);
  printProblems(chosen.anchorProblems);
  if (flags.junit !== undefined) {
    await fs.writeFile(
      path.resolve(flags.junit),
      toJUnitXml(result.run, result.report, annotationPath(result.specFilePath)),
    );
  }
  process.stdout.write(
    flags.json
      ? checkJson(result, chosen.anchorProblems, chosen.selection)
      : renderCheckReport(result, process.stdout.isTTY === true),
  );
  if (flags.github) process.stdout.write(githubAnnotations(result));
}

/** Why the report could not be written to `file`, checked before any test runs (and without creating it). */
async function unwritableReason(file: string): Promise<string | undefined> {
  const stat = await fs.stat(file).catch(() => undefined);
  if (stat?.isDirectory()) return 'is a folder';
  try {
    await fs.access(stat ? file : path.dirname(file), fsConstants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `folder ${path.dirname(file)} does not exist`;
    return code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
      ? 'not writable'
      : (error as Error).message;
  }
}

/** Anchors that do not resolve (missing file or symbol, ambiguous symbol): printed, carried in --json. */
async function anchorProblemsOf(workspaceDir: string): Promise<SpecProblem[]> {
  const loaded = await loadSpecFile(workspaceDir);
  if (!loaded.ok) return [];
  try {
    const { problems } = await checkAnchors(workspaceDir, loaded.specFile, {
      locations: loaded.locations,
      specFilePath: loaded.file,
    });
    return problems;
  } catch (error) {
    // Without the grammars anchors cannot be resolved; the run itself does not need them.
    process.stderr.write(`weave check: anchors not checked: ${(error as Error).message}\n`);
    return [];
  }
}

function changedDuringSessionNote(changes: readonly { path: string; change: string }[]): string {
  return (
    'weave check: protected files changed since the agent session recorded by weave guard started:\n' +
    `${changes.map((c) => `  ${c.path} (${c.change})`).join('\n')}\n` +
    "the specs they concern are 'tampered'; put them back with 'weave guard --restore', or accept them " +
    "yourself with 'weave guard --accept-tests'"
  );
}

function checkFailed(result: CheckResult): boolean {
  return (
    result.run.results.some((r) => isFailing(r.verdict)) ||
    Object.values(result.report.changes).some((c) => c === 'broken')
  );
}
