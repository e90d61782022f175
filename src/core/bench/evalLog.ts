// Reads what eval.sh printed (the marker contract in evalScript.ts) back into per-spec verdicts — the
// counterpart of a SWE-bench harness's per-repository log parser. Verdicts follow the runner's rules
// (verdictOf): a recognised summary with zero tests is an error, never a pass; a dependency that did not pass
// blocks a spec that failed.
import { verdictOf } from '../check/verdict';
import type { Verdict } from '../check/types';
import type { TaskSpec } from './taskFormat';

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
  /** eval.sh reached its end marker. */
  finished: boolean;
  specs: Record<string, ParsedSpecRun>;
}

const OUTPUT_TAIL_CHARS = 2000;

/** `interrupted` says why a spec without an end marker did not finish (e.g. "task timed out after 30 s"). */
export function parseEvalLog(log: string, specs: readonly TaskSpec[], interrupted?: string): ParsedEvalLog {
  const method = /^>>>>> WEAVE PATCH method=(git-apply-3way|git-apply|patch-fuzz|none)$/m.exec(log)?.[1];
  const parsed: ParsedEvalLog = {
    patchMethod: (method as PatchMethod | undefined) ?? null,
    patchFailed: /^>>>>> WEAVE PATCH FAILED$/m.test(log),
    testPatchFailed: /^>>>>> WEAVE TEST PATCH FAILED$/m.test(log),
    setupFailed: /^>>>>> WEAVE SETUP FAILED$/m.test(log),
    finished: /^>>>>> WEAVE EVAL END exit=\d+$/m.test(log),
    specs: {},
  };
  const notRun = parsed.patchFailed
    ? 'not run: the patch did not apply'
    : parsed.testPatchFailed
      ? 'not run: test.patch did not apply'
      : parsed.setupFailed
        ? 'not run: environment set-up failed'
        : (interrupted ?? 'not run: eval.sh stopped before it');
  for (const spec of specs) parsed.specs[spec.id] = runOf(log, spec, notRun, interrupted);
  applyBlocking(parsed.specs, specs);
  return parsed;
}

function runOf(log: string, spec: TaskSpec, notRun: string, interrupted: string | undefined): ParsedSpecRun {
  const id = escapeRegExp(spec.id);
  // The last start marker wins, so a test that prints a fake marker cannot hide the real one.
  const starts = [...log.matchAll(new RegExp(`^>>>>> WEAVE SPEC START ${id}$`, 'gm'))];
  const start = starts.at(-1);
  if (start?.index === undefined) return { verdict: 'error', exitCode: null, reason: notRun, outputTail: '' };
  const bodyStart = start.index + start[0].length + 1;
  const end = new RegExp(
    `^<<<<< WEAVE SPEC END ${id} exit=(\\d+) timed_out=([01]) seconds=(\\d+)$`,
    'm',
  ).exec(log.slice(bodyStart));
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

/** A spec that failed while one of its dependencies did not pass is blocked by it (DESIGN.md "Verdicts"). */
function applyBlocking(runs: Record<string, ParsedSpecRun>, specs: readonly TaskSpec[]): void {
  const byId = new Map(specs.map((s) => [s.id, s]));
  const failedDependencies = (id: string, seen = new Set<string>()): string[] => {
    const out: string[] = [];
    for (const dep of byId.get(id)?.dependsOn ?? []) {
      if (seen.has(dep)) continue;
      seen.add(dep);
      if (runs[dep] !== undefined && runs[dep].verdict !== 'pass') out.push(dep);
      out.push(...failedDependencies(dep, seen));
    }
    return [...new Set(out)];
  };
  for (const spec of specs) {
    const run = runs[spec.id];
    if (run?.verdict !== 'fail') continue;
    const blockers = failedDependencies(spec.id);
    if (blockers.length > 0) {
      run.verdict = 'blocked';
      run.reason = `blocked by ${blockers.join(', ')} (${run.reason ?? 'failed'})`;
    }
  }
}

function tail(text: string): string {
  return text.length <= OUTPUT_TAIL_CHARS ? text : `…${text.slice(-OUTPUT_TAIL_CHARS)}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
