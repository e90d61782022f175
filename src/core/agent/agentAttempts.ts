// Everything an agent run tried that was refused or contained (shared/attempts.ts): the attempts of its spec runs
// (before, during and after the work: the sandbox's observation) and the protected-file edits its own tools refused.
// Any one makes the result tampered (applyPolicy.ts), so it is never applied and its candidate is disqualified.
import type { SpecResult } from '../check';
import type { Attempt } from '../../shared/attempts';
import type { SpecFile } from '../../shared/specSchema';
import type { TimedEvent } from './trajectory';

/** Collects the attempts of spec runs as they finish (a run's results may be replaced by later runs). */
export class AttemptLog {
  private readonly seen: Attempt[] = [];

  add(results: readonly SpecResult[]): void {
    for (const r of results) this.seen.push(...(r.attempts ?? []));
  }

  /** The spec runs' attempts, then the tools' refusals read from the trajectory, in time order. */
  all(events: readonly TimedEvent[], specFile: SpecFile): Attempt[] {
    return [...this.seen, ...toolRefusals(events, specFile)].sort((a, b) => a.at.localeCompare(b.at));
  }
}

/** The agent's edits of protected files that its tools refused, once per path. */
function toolRefusals(events: readonly TimedEvent[], specFile: SpecFile): Attempt[] {
  const owner = new Map(specFile.specs.flatMap((s) => s.test.files.map((f) => [f, s.id] as const)));
  const attempts: Attempt[] = [];
  const seen = new Set<string>();
  for (const event of events) {
    if (event.type !== 'tool' || event.refused !== 'protected') continue;
    const target = event.path ?? '(unknown path)';
    if (seen.has(target)) continue;
    seen.add(target);
    attempts.push({ kind: 'protected-edit-refused', target, spec: owner.get(target) ?? '', at: event.at });
  }
  return attempts;
}
