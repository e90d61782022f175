// `weave check`: runs every spec's test, prints a table with each verdict and its change against the baseline,
// records the run, and exits 0 (all pass, nothing broken), 1 (something failed / broke / errored) or 2 (bad
// spec file or flags). Machine outputs: --json (one document), --junit FILE, --github (Actions annotations).
import { trapInterrupts } from '../interrupt';
import { constants as fsConstants, promises as fs } from 'node:fs';
import path from 'node:path';
import { checkWorkspace, type CheckProgress, type CheckResult } from '../../core/check/checkWorkspace';
import { toJUnitXml } from '../../core/check/junit';
import { CheckInputError } from '../../core/check/runSpecs';
import type { Change, SpecResult, Verdict } from '../../core/check/types';
import { formatSeconds } from '../../core/check/verdict';
import { GitError, gitRoot, resolveCommit } from '../../core/git/git';
import { selectAffected, type SelectedAffected } from '../../core/selection/affected';
import { printSelection } from '../intelOutput';
import { checkAnchors } from '../../core/anchors/anchorCheck';
import { ChangeInputError } from '../../core/selection/changes';
import { loadSpecFile } from '../../core/spec/load';
import { SpecLoadError, formatProblem, type SpecProblem } from '../../core/spec/problems';
import { parseVerbFlags } from '../flags';
import type { Verb } from '../verb';

const HELP = `Usage: weave check [options]

Runs the test of every spec in .weave/specs.json (in parallel, dependencies first), prints each spec's verdict
(pass, fail, error, blocked, skipped, flaky) and its change against the baseline (broken = pass → fail,
fixed = fail → pass), and records the run in .weave/runs/.

Every recorded run also records per-spec coverage: V8 function coverage for every Node process a spec's command
starts (a --require hook in NODE_OPTIONS), a function-level profiler for every Python process (a
sitecustomize.py on a prepended PYTHONPATH).

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
  --json               print one JSON document {run, report, baselineRun, anchorProblems, selection?} instead
                       of the table
  --junit FILE         also write a JUnit XML report to FILE
  --github             also print GitHub Actions annotations (::error file=…,line=…::) for failures
  --no-record          do not record this run in .weave/runs/ (nor its coverage)
  --no-coverage        do not record which functions each spec's test executes (per-spec coverage, kept in
                       .weave/cache/coverage/ and used by --affected, 'weave affected', 'weave graph', blame)
  -h, --help           show this help

Exit codes: 0 every spec passed and none broke, 1 a spec failed, errored, was blocked, flaky or broken,
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
    const flags = parseVerbFlags('check', args, {
      workspace: { type: 'string', default: '.' },
      only: { type: 'string', multiple: true },
      'baseline-ref': { type: 'string' },
      concurrency: { type: 'string' },
      repeat: { type: 'string' },
      json: { type: 'boolean', default: false },
      junit: { type: 'string' },
      github: { type: 'boolean', default: false },
      'no-record': { type: 'boolean', default: false },
      'no-coverage': { type: 'boolean', default: false },
      affected: { type: 'boolean', default: false },
      since: { type: 'string' },
    });
    if (flags === undefined) return 2;
    const bad = (message: string): number => {
      process.stderr.write(`weave check: ${message}\n`);
      return 2;
    };
    const concurrency = flags.concurrency === undefined ? undefined : wholeNumber(flags.concurrency);
    if (concurrency === null)
      return bad(`--concurrency must be a whole number ≥ 1, got '${flags.concurrency}'`);
    const repeat = flags.repeat === undefined ? undefined : wholeNumber(flags.repeat);
    if (repeat === null) return bad(`--repeat must be a whole number ≥ 1, got '${flags.repeat}'`);
    const only = flags.only
      ?.flatMap((o) => o.split(','))
      .map((s) => s.trim())
      .filter(Boolean);
    if (flags.only !== undefined && only?.length === 0) return bad('--only needs at least one spec id');
    const workspaceDir = path.resolve(flags.workspace);
    if (flags.since !== undefined && !flags.affected) return bad('--since goes with --affected');
    if (flags.affected && only !== undefined) return bad('give --only or --affected, not both');
    let selected = only;
    let selection: SelectedAffected | undefined;
    let anchorProblems: SpecProblem[] = [];
    if (flags.affected) {
      try {
        const since = flags.since ?? 'HEAD';
        selection = await selectAffected({ workspaceDir, since });
        selected = selection.affected.map((s) => s.id);
        anchorProblems = selection.anchorProblems;
        printSelection(selection);
        if (selected.length === 0) {
          printProblems(anchorProblems);
          process.stderr.write(
            `weave check: no spec is affected by the changes since ${since}; nothing to run\n`,
          );
          return 0;
        }
      } catch (error) {
        if (error instanceof ChangeInputError) return bad(error.message);
        // An invalid spec file is reported by checkWorkspace below, like any other run.
        if (!(error instanceof SpecLoadError)) throw error;
      }
    } else {
      anchorProblems = await anchorProblemsOf(workspaceDir);
    }
    const baselineRef = flags['baseline-ref'];
    if (baselineRef !== undefined) {
      const root = await gitRoot(workspaceDir);
      if (root === null)
        return bad(`--baseline-ref needs a git repository, and ${flags.workspace} is not in one`);
      try {
        await resolveCommit(root, baselineRef);
      } catch (error) {
        return bad((error as Error).message);
      }
    }

    if (flags.junit !== undefined) {
      const problem = await unwritableReason(path.resolve(flags.junit));
      if (problem !== undefined) return bad(`--junit ${flags.junit}: ${problem}; nothing was run`);
    }

    const interrupt = trapInterrupts('check', 'stopping (killing running tests)…');
    const controller = { signal: interrupt.signal };
    const progress = ProgressLine.create();
    let result: CheckResult;
    try {
      result = await checkWorkspace({
        workspaceDir,
        ...(selected ? { only: selected } : {}),
        ...(baselineRef !== undefined ? { baselineRef } : {}),
        ...(concurrency !== undefined ? { concurrency } : {}),
        ...(repeat !== undefined ? { repeat } : {}),
        signal: controller.signal,
        record: !flags['no-record'],
        coverage: !flags['no-record'] && !flags['no-coverage'],
        ...(progress ? { onProgress: (e: CheckProgress) => progress.update(e) } : {}),
      });
    } catch (error) {
      if (error instanceof SpecLoadError) {
        for (const problem of error.problems)
          process.stderr.write(`${formatProblem({ ...problem, file: shortPath(problem.file) })}\n`);
        process.stderr.write(
          `weave check: ${shortPath(error.file)} has errors; nothing was run (see 'weave validate').\n`,
        );
        return 2;
      }
      if (error instanceof CheckInputError || error instanceof GitError) return bad(error.message);
      throw error;
    } finally {
      progress?.clear();
      interrupt.dispose();
    }

    for (const warning of result.warnings)
      process.stderr.write(`${formatProblem({ ...warning, file: shortPath(warning.file) })}\n`);
    for (const warning of result.runStoreWarnings) process.stderr.write(`weave check: warning: ${warning}\n`);
    printProblems(anchorProblems);
    if (flags.junit !== undefined) {
      await fs.writeFile(
        path.resolve(flags.junit),
        toJUnitXml(result.run, result.report, annotationPath(result.specFilePath)),
      );
    }
    if (flags.json) {
      const { run, report, baselineRun } = result;
      const selectionJson = selection && {
        source: selection.source,
        all: selection.all,
        allReasons: selection.allReasons,
        selected: selection.affected,
        notSelected: selection.notSelected,
      };
      process.stdout.write(
        `${JSON.stringify({ run, report, baselineRun, anchorProblems, ...(selectionJson ? { selection: selectionJson } : {}) }, null, 2)}\n`,
      );
    } else {
      process.stdout.write(renderReport(result, colours(process.stdout.isTTY === true)));
    }
    if (flags.github) process.stdout.write(githubAnnotations(result));
    if (controller.signal.aborted) return interrupt.exitCode() ?? 130;
    return checkFailed(result) ? 1 : 0;
  },
};

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

function printProblems(problems: SpecProblem[]): void {
  for (const p of problems) process.stderr.write(`${formatProblem({ ...p, file: shortPath(p.file) })}\n`);
}

function wholeNumber(text: string): number | null {
  return /^\d+$/.test(text) && Number(text) >= 1 ? Number(text) : null;
}

const FAILING: ReadonlySet<Verdict> = new Set(['fail', 'error', 'blocked', 'flaky', 'tampered']);

function checkFailed(result: CheckResult): boolean {
  return (
    result.run.results.some((r) => FAILING.has(r.verdict)) ||
    Object.values(result.report.changes).some((c) => c === 'broken')
  );
}

/** Relative to the current directory when inside it: short, and clickable in terminals. */
function shortPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** GitHub resolves annotation paths against the checkout (GITHUB_WORKSPACE), else the current directory. */
function annotationPath(file: string): string {
  const base = process.env.GITHUB_WORKSPACE ?? process.cwd();
  const relative = path.relative(base, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}

interface Colours {
  verdict(v: Verdict, text: string): string;
  change(c: Change | undefined, text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

function colours(enabled: boolean): Colours {
  const on = enabled && process.env.NO_COLOR === undefined;
  const paint = (code: number, text: string): string => (on ? `\u001b[${code}m${text}\u001b[0m` : text);
  const verdictCode: Record<Verdict, number> = {
    pass: 32,
    fail: 31,
    error: 31,
    blocked: 33,
    skipped: 90,
    flaky: 35,
    tampered: 41,
  };
  return {
    verdict: (v, text) => paint(verdictCode[v], text),
    change: (c, text) =>
      c === 'broken' ? paint(31, text) : c === 'fixed' ? paint(32, text) : paint(90, text),
    dim: (text) => paint(90, text),
    bold: (text) => paint(1, text),
  };
}

/** How many lines of a failing spec's output the table is followed by. */
const OUTPUT_TAIL_LINES = 15;

function renderReport(result: CheckResult, c: Colours): string {
  const { run, report } = result;
  const rows = run.results.map((r) => ({
    r,
    cells: [
      r.id + (r.ranAsDependency ? ' (dep)' : ''),
      r.kind,
      r.verdict,
      report.changes[r.id] ?? '',
      formatSeconds(r.durationMs),
      oneLine(r.reason ?? ''),
    ],
  }));
  const header = ['SPEC', 'KIND', 'VERDICT', 'VS BASELINE', 'TIME', 'REASON'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row.cells[i] ?? '').length)));
  const pad = (text: string, i: number): string => text.padEnd(widths[i] ?? 0);
  const lines = [c.bold(header.map(pad).join('  ').trimEnd())];
  for (const { r, cells } of rows) {
    const [id = '', kind = '', verdict = '', change = '', time = '', reason = ''] = cells;
    lines.push(
      [
        pad(id, 0),
        pad(kind, 1),
        c.verdict(r.verdict, pad(verdict, 2)),
        c.change(report.changes[r.id], pad(change, 3)),
        pad(time, 4).padStart(widths[4] ?? 0),
        reason,
      ]
        .join('  ')
        .trimEnd(),
    );
  }
  const details = run.results
    .filter(
      (r) =>
        (r.verdict === 'fail' ||
          r.verdict === 'error' ||
          r.verdict === 'flaky' ||
          r.verdict === 'tampered') &&
        r.output.trim() !== '',
    )
    .map(
      (r) =>
        `\n${c.bold(`── ${r.id} (${r.verdict}) — last lines of output`)}\n${tail(r.output, OUTPUT_TAIL_LINES)}`,
    );
  return `${lines.join('\n')}\n${details.join('\n')}${details.length > 0 ? '\n' : ''}\n${summaryLine(result)}\n`;
}

function summaryLine(result: CheckResult): string {
  const { run, report } = result;
  const counts = new Map<Verdict, number>();
  for (const r of run.results) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
  const order: Verdict[] = ['pass', 'fail', 'error', 'tampered', 'blocked', 'flaky', 'skipped'];
  const unverified = run.results.filter((r) => r.verdict === 'pass' && r.evidence === 'exit-code').length;
  const tally = order.filter((v) => counts.has(v)).map((v) => `${counts.get(v)} ${v}`);
  const seconds = formatSeconds(Date.parse(run.finishedAt) - Date.parse(run.startedAt));
  const unverifiedNote = unverified > 0 ? ` (${unverified} pass unverified: no test result seen)` : '';
  const head = `${run.results.length} spec${run.results.length === 1 ? '' : 's'}: ${tally.join(', ') || 'none run'} in ${seconds}${unverifiedNote}`;
  const changes = Object.values(report.changes);
  const broken = changes.filter((c) => c === 'broken').length;
  const fixed = changes.filter((c) => c === 'fixed').length;
  const base = report.baseline;
  const against =
    base === null
      ? 'no baseline yet (the first run on a clean tree becomes it)'
      : base.ref !== undefined
        ? `vs ${base.ref} (${(base.commit ?? '').slice(0, 10)}): ${broken} broken, ${fixed} fixed`
        : `vs clean run ${base.runId}${base.commit ? ` (${base.commit.slice(0, 10)})` : ''}: ${broken} broken, ${fixed} fixed`;
  const saved = result.savedTo
    ? `\nrun recorded: ${shortPath(result.savedTo)}${run.clean ? ' (clean tree)' : ''}`
    : '';
  const coverage = result.coverage
    ? `\ncoverage recorded: ${result.coverage.specs} spec${result.coverage.specs === 1 ? '' : 's'}, ${result.coverage.files} file${result.coverage.files === 1 ? '' : 's'} (${shortPath(result.coverage.savedTo)})` +
      (result.coverage.withoutData.length > 0
        ? `; no coverage from ${result.coverage.withoutData.join(', ')} (no instrumented Node or Python process)`
        : '')
    : '';
  return `${head}; ${against}${saved}${coverage}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
}

function tail(output: string, lines: number): string {
  const all = output.trimEnd().split('\n');
  return all
    .slice(-lines)
    .map((l) => `  ${l}`)
    .join('\n');
}

/** GitHub Actions workflow commands: data escaping per the runner's rules. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function githubAnnotations(result: CheckResult): string {
  const file = annotationPath(result.specFilePath);
  const out: string[] = [];
  for (const r of result.run.results) {
    const change = result.report.changes[r.id];
    const level = annotationLevel(r, change);
    if (level === undefined) continue;
    const where = result.locations.locateSpec(r.id, ['id']) ?? result.locations.locateSpec(r.id);
    const properties = [
      `file=${escapeProperty(file)}`,
      ...(where ? [`line=${where.line}`, `col=${where.column}`] : []),
      `title=${escapeProperty(`weave: ${r.id} ${change === 'broken' ? 'broken' : r.verdict}`)}`,
    ].join(',');
    const message = `${r.verdict}${change === 'broken' ? ' (broken: passed in the baseline)' : ''}${r.reason ? `: ${r.reason}` : ''}`;
    const detail = r.output.trim() === '' ? '' : `\n${tail(r.output, OUTPUT_TAIL_LINES)}`;
    out.push(`::${level} ${properties}::${escapeData(message + detail)}`);
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

function annotationLevel(r: SpecResult, change: Change | undefined): 'error' | 'warning' | undefined {
  if (r.verdict === 'fail' || r.verdict === 'error' || r.verdict === 'tampered' || change === 'broken')
    return 'error';
  if (r.verdict === 'blocked' || r.verdict === 'flaky') return 'warning';
  return undefined;
}

/** "[3/8] running cache-hit, hit-rate" on stderr, only on an interactive terminal outside CI. */
class ProgressLine {
  private readonly running = new Map<string, string>();

  static create(): ProgressLine | undefined {
    return process.stderr.isTTY && !process.env.CI ? new ProgressLine() : undefined;
  }

  update(event: CheckProgress): void {
    const key = `${event.phase}:${event.type === 'started' ? event.id : event.result.id}`;
    if (event.type === 'started') this.running.set(key, event.id);
    else this.running.delete(key);
    const phase = event.phase === 'baseline' ? 'baseline ' : '';
    const names = [...this.running.values()].join(', ');
    const line = `${phase}[${event.done}/${event.total}] ${names ? `running ${names}` : ''}`;
    const width = (process.stderr.columns || 80) - 1;
    process.stderr.write(`\r\u001b[K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
  }

  clear(): void {
    process.stderr.write('\r\u001b[K');
  }
}
