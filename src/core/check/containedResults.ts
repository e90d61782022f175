// A contained batch's results (runs on behalf of an agent or a prediction): each says whether it ran
// sandboxed, and the specs a protected-file change concerns turn `tampered`, keeping the verdict they had.
// runSpecs inspects (and restores) the protected files before and after the batch; this module decides which
// specs each difference concerns; and after a change to test infrastructure, every spec is `tampered`. Per spec
// run, the runner evidence decides too (judgeContainedEvidence): a results file that does not verify or a replaced
// assertion function is `tampered`, and a pass needs the runner's signed results — one that rests on a printed
// summary or the exit code is `unverified`.
import type { CommandOutcome } from '../process/runCommand';
import type { Containment } from '../sandbox/containment';
import { describeAttempts, type Attempt } from '../../shared/attempts';
import {
  describeInfrastructureChange,
  type InfrastructureFinding,
} from '../sandbox/diffPolicy/classifyChanges';
import { describeTampering, type TamperedFile } from '../sandbox/protectedFiles';
import type { EvidenceReport } from './evidence/session';
import type { SpecResult } from './types';

/** One contained spec run's result, judged on its runner evidence. */
export function judgeContainedEvidence(result: SpecResult, report: EvidenceReport): SpecResult {
  const issues = [
    ...report.forged.map(
      (file) => `results file ${file} did not verify (not written by Weave's runner hook)`,
    ),
    ...report.replaced.map((name) => `${name} was replaced by code under test`),
    ...report.intrusions,
  ];
  if (issues.length > 0) {
    return {
      ...result,
      verdict: 'tampered',
      verdictBeforeTampering: result.verdict,
      reason: `runner evidence tampered: ${issues.join('; ')}`,
      evidenceTampering: issues,
    };
  }
  if (result.verdict !== 'pass' || result.evidence === 'runner') return result;
  const basis = result.evidence === 'summary' ? 'a printed summary' : 'the exit code alone';
  return {
    ...result,
    verdict: 'unverified',
    reason: `unverified: the pass rests on ${basis}, not on the test runner's signed results`,
  };
}

/**
 * A contained run whose code under test tried what the sandbox refused or contained (attemptObservation.ts): the
 * attempts are recorded with the spec and the time, and the run is `tampered`, keeping the verdict it had — the
 * sandbox stopping the attempt does not make the code that tried it fit to apply.
 */
export function judgeAttempts(
  result: SpecResult,
  observed: CommandOutcome['attempts'],
  at: Date = new Date(),
): SpecResult {
  if (!observed || observed.length === 0) return result;
  const attempts = observed.map((a): Attempt => ({ ...a, spec: result.id, at: at.toISOString() }));
  const why = `attempts: ${describeAttempts(attempts)}`;
  return {
    ...result,
    verdict: 'tampered',
    verdictBeforeTampering: result.verdictBeforeTampering ?? result.verdict,
    reason:
      !result.reason || result.verdict === 'pass'
        ? why
        : result.verdict === 'tampered'
          ? `${result.reason}; ${why}`
          : // What else the run met (a resource limit, a failure) stays in view: the attempt may be its consequence.
            `${why} (the run was also ${result.verdict}: ${result.reason})`,
    attempts: [...(result.attempts ?? []), ...attempts],
  };
}

/**
 * Contained results: sandbox status on each, and `tampered` for the specs a protected-file difference concerns.
 * Differences found before the batch (made by the agent's tools) concern the specs owning those files (all, for
 * shared files); differences after it may come from any spec that ran concurrently, so they concern every spec
 * that ran.
 */
export function markContained(
  results: SpecResult[],
  containment: Containment,
  before: TamperedFile[],
  after: TamperedFile[],
): SpecResult[] {
  const ran = results.filter((r) => r.verdict !== 'blocked' && r.verdict !== 'skipped').map((r) => r.id);
  const hit = new Map<string, TamperedFile[]>();
  const note = (ids: string[], files: TamperedFile[]): void => {
    for (const id of ids) hit.set(id, [...(hit.get(id) ?? []), ...files]);
  };
  if (before.length > 0) {
    note(
      containment.guard.affectedSpecs(
        before,
        results.map((r) => r.id),
      ),
      before,
    );
  }
  if (after.length > 0) note(ran, after);
  return results.map((result) => {
    const contained: SpecResult = { ...result, sandboxed: containment.sandbox !== undefined };
    const files = hit.get(result.id);
    if (!files) return contained;
    const already = result.verdict === 'tampered';
    return {
      ...contained,
      verdict: 'tampered',
      verdictBeforeTampering: result.verdictBeforeTampering ?? result.verdict,
      reason: already ? `${describeTampering(files)}; ${result.reason ?? ''}` : describeTampering(files),
      tampered: files.map((f) => ({ path: f.path, change: f.change })),
    };
  });
}

/**
 * Results after a change the diff policy found touching test infrastructure (a runner's configuration, a plugin
 * entry point, a shadowing module): every spec's verdict rests on how the tests were run, so each turns
 * `tampered`, keeping the verdict it had, with the files and keys named in its reason.
 */
export function markInfrastructureChange(
  results: SpecResult[],
  findings: readonly InfrastructureFinding[],
): SpecResult[] {
  if (findings.length === 0) return results;
  const files = [...new Map(findings.map((f) => [f.path, { path: f.path, change: f.change }])).values()];
  const why = describeInfrastructureChange(findings);
  return results.map((result) => {
    const already = result.tampered ?? [];
    return {
      ...result,
      verdict: 'tampered',
      verdictBeforeTampering: result.verdictBeforeTampering ?? result.verdict,
      // A protected file the guard restored is one more reason, not a different one.
      reason:
        !result.reason || result.verdict === 'pass'
          ? why
          : result.verdict === 'tampered'
            ? `${result.reason}; ${why}`
            : // What else the run met (a resource limit, a failure) stays in view: the attempt may be its consequence.
              `${why} (the run was also ${result.verdict}: ${result.reason})`,
      tampered: [...already, ...files.filter((f) => !already.some((t) => t.path === f.path))],
    };
  });
}
