// Reads what eval.sh printed (the marker contract in evalScript.ts) back into per-spec verdicts — the
// counterpart of a SWE-bench harness's per-repository log parser. Verdicts follow the runner's rules
// (verdictOf): a recognised summary with zero tests is an error, never a pass; and `dependsOn` means what it
// means in `weave check` (runSpecs): a spec whose dependency did not pass is blocked, whatever its own test did.
// Only markers carrying the run's nonce count: a forged one printed by code under test is plain output.
import { verdictOf, type Verdict } from '../../check';
import { redactUrlCredentials } from '../../sandbox/setupEnvironment';
import { escapeRegExp, markerPattern } from './specRunsScript';
import type { TaskSpec } from '../taskFormat';

export type PatchMethod = 'git-apply' | 'git-apply-3way' | 'patch-fuzz' | 'none';

export interface ParsedSpecRun {
  verdict: Verdict;
  exitCode: number | null;
  reason?: string;
  /** The tail of the spec's output, for reports. */
  outputTail: string;
}

export interface ParsedEvalLog {
  /** How the patch applied; null when it did not (patchFailed) or the script never got that far. */
  patchMethod: PatchMethod | null;
  patchFailed: boolean;
  testPatchFailed: boolean;
  setupFailed: boolean;
  /** The set-up command that failed or was cut short (time-out, cancel), with its last lines; else undefined. */
  setupFailure?: SetupFailure;
  /** eval.sh reached its end marker. */
  finished: boolean;
  specs: Record<string, ParsedSpecRun>;
}

export interface SetupFailure {
  command: string;
  /** false: it did not finish (the run timed out or was cancelled while it ran). */
  finished: boolean;
  /** null when unknown (it did not finish, or an eval.sh from before exit codes were in the marker). */
  exitCode: number | null;
  /** Its output's last SETUP_TAIL_LINES lines. */
  lastLines: string[];
}

/** Each set-up command eval.sh finished, with how long it took (its SETUP and SETUP-DONE markers). */
export function setupTimings(log: string, nonce: string): Array<{ command: string; seconds: number }> {
  const timings: Array<{ command: string; seconds: number }> = [];
  let running: string | undefined;
  for (const [, rest = ''] of log.matchAll(markerPattern(nonce, '(.*)'))) {
    const done = /^SETUP-DONE seconds=(\d+)$/.exec(rest);
    if (done && running !== undefined) {
      timings.push({ command: running, seconds: Number(done[1]) });
      running = undefined;
    } else if (rest.startsWith('SETUP ') && !rest.startsWith('SETUP FAILED')) {
      running = rest.slice('SETUP '.length);
    }
  }
  return timings;
}

const OUTPUT_TAIL_CHARS = 2000;
export const SETUP_TAIL_LINES = 40;

/**
 * `nonce` is the run's marker nonce ('' when eval.sh ran without one). `interrupted` says why a spec without an
 * end marker did not finish (e.g. "task timed out after 30 s").
 */
export function parseEvalLog(
  log: string,
  specs: readonly TaskSpec[],
  nonce: string,
  interrupted?: string,
): ParsedEvalLog {
  const has = (rest: string): boolean => markerPattern(nonce, rest).test(log);
  const method = markerPattern(nonce, 'PATCH method=(git-apply-3way|git-apply|patch-fuzz|none)').exec(
    log,
  )?.[1];
  const parsed: ParsedEvalLog = {
    patchMethod: (method as PatchMethod | undefined) ?? null,
    patchFailed: has('PATCH FAILED'),
    testPatchFailed: has('TEST PATCH FAILED'),
    // Tasks exported before the exit code was in the marker print a bare `SETUP FAILED`.
    setupFailed: has('SETUP FAILED(?: exit=\\d+)?'),
    finished: has('EVAL END exit=\\d+'),
    specs: {},
  };
  const setupFailure = setupFailureOf(log, nonce);
  if (setupFailure !== undefined) parsed.setupFailure = setupFailure;
  const notRun = parsed.patchFailed
    ? 'not run: the patch did not apply'
    : parsed.testPatchFailed
      ? 'not run: test.patch did not apply'
      : parsed.setupFailed
        ? 'not run: environment set-up failed'
        : (interrupted ?? 'not run: eval.sh stopped before it');
  for (const spec of specs) parsed.specs[spec.id] = runOf(log, spec, nonce, notRun, interrupted);
  applyBlocking(parsed.specs, specs);
  return parsed;
}

/**
 * The last set-up command eval.sh started, when it failed (its SETUP FAILED marker follows) or never finished
 * (no marker follows: the run was stopped while it ran); undefined when the set-up succeeded or never ran.
 */
function setupFailureOf(log: string, nonce: string): SetupFailure | undefined {
  const markers = [...log.matchAll(markerPattern(nonce, '(.*)'))];
  const isFailure = (m: RegExpExecArray | undefined): RegExpExecArray | null =>
    /^SETUP FAILED(?: exit=(\d+))?$/.exec(m?.[1] ?? '');
  const at = markers.findLastIndex((m) => (m[1] ?? '').startsWith('SETUP ') && !isFailure(m));
  const started = markers[at];
  if (started?.index === undefined) return undefined;
  const next = markers[at + 1];
  const failed = isFailure(next);
  if (next !== undefined && !failed) return undefined; // a later step began: this one succeeded
  const body = log.slice(started.index + started[0].length + 1, next?.index ?? log.length);
  return {
    command: (started[1] ?? '').slice('SETUP '.length),
    finished: failed !== null,
    exitCode: failed?.[1] === undefined ? null : Number(failed[1]),
    lastLines: body.trimEnd().split('\n').slice(-SETUP_TAIL_LINES),
  };
}

function runOf(
  log: string,
  spec: TaskSpec,
  nonce: string,
  notRun: string,
  interrupted: string | undefined,
): ParsedSpecRun {
  const id = escapeRegExp(spec.id);
  const start = [...log.matchAll(markerPattern(nonce, `SPEC START ${id}`))].at(-1);
  if (start?.index === undefined) return { verdict: 'error', exitCode: null, reason: notRun, outputTail: '' };
  const bodyStart = start.index + start[0].length + 1;
  const end = markerPattern(nonce, `SPEC END ${id} exit=(\\d+) timed_out=([01]) seconds=(\\d+)`, false).exec(
    log.slice(bodyStart),
  );
  if (!end || end.index === undefined) {
    const output = log.slice(bodyStart);
    return {
      verdict: 'error',
      exitCode: null,
      reason: interrupted ?? 'did not finish (eval.sh was stopped)',
      outputTail: tail(output),
    };
  }
  const output = log.slice(bodyStart, bodyStart + end.index);
  const exitCode = Number(end[1]);
  const seconds = Number(end[3]);
  // `timeout -k` escalates to SIGKILL (exit 137) when the test ignores SIGTERM.
  const timedOut = end[2] === '1' || (exitCode === 137 && seconds >= spec.test.timeoutSeconds);
  const outcome = verdictOf(
    {
      exitCode: timedOut ? null : exitCode,
      signal: null,
      timedOut,
      cancelled: false,
      output,
      truncatedBytes: 0,
      durationMs: seconds * 1000,
    },
    spec.test.timeoutSeconds * 1000,
  );
  return {
    verdict: outcome.verdict,
    exitCode: timedOut ? null : exitCode,
    ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
    outputTail: tail(output),
  };
}

/**
 * runSpecs' rule: a spec whose direct dependency did not pass is blocked (so blocking is transitive: a blocked
 * dependency did not pass either). eval.sh runs every spec anyway; its own result is kept in the reason.
 */
function applyBlocking(runs: Record<string, ParsedSpecRun>, specs: readonly TaskSpec[]): void {
  const byId = new Map(specs.map((s) => [s.id, s]));
  const settled = new Set<string>();
  const settle = (id: string, path: Set<string>): void => {
    const run = runs[id];
    if (settled.has(id) || run === undefined || path.has(id)) return;
    path.add(id);
    const deps = (byId.get(id)?.dependsOn ?? []).filter((d) => d !== id);
    for (const dep of deps) settle(dep, path);
    settled.add(id);
    const notPassing = deps.filter((d) => runs[d]?.verdict !== 'pass');
    if (notPassing.length === 0) return;
    const why = notPassing.map((d) => `${d}: ${runs[d]?.verdict ?? 'unknown spec'}`).join(', ');
    runs[id] = {
      ...run,
      verdict: 'blocked',
      reason: `blocked by ${notPassing.join(', ')} (${why}; its own test: ${run.reason ?? run.verdict})`,
    };
  };
  for (const spec of specs) settle(spec.id, new Set());
}

function tail(text: string): string {
  return text.length <= OUTPUT_TAIL_CHARS ? text : `…${text.slice(-OUTPUT_TAIL_CHARS)}`;
}

/**
 * One paragraph for every report that shows a failed set-up (export's reasons, eval's and bench's infra failure,
 * the editor): the command, how it ended, and its last lines, indented. `interrupted` says why a command that
 * did not finish stopped. Credentials in URLs (a proxy's `user:pass@`) are masked.
 */
/** How every set-up failure's description starts (weave mine tells the environment stage by it). */
export const SETUP_FAILED = 'environment set-up failed';

export function describeSetupFailure(failure: SetupFailure, interrupted?: string): string {
  const ended = !failure.finished
    ? `did not finish (${interrupted ?? 'eval.sh was stopped'})`
    : failure.exitCode === null
      ? 'failed'
      : `exited ${failure.exitCode}`;
  const lines = failure.lastLines.join('').trim() === '' ? [] : failure.lastLines;
  const tail =
    lines.length === 0
      ? '; it printed nothing'
      : `; its last ${lines.length === 1 ? 'line' : `${lines.length} lines`}:\n${lines.map((l) => `    ${l}`).join('\n')}`;
  return redactUrlCredentials(`${SETUP_FAILED}: \`${failure.command}\` ${ended}${tail}`);
}
