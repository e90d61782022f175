// What code under test tried and the sandbox refused or contained during one spec run (issue #35, "attempts
// count"): recorded per run, shown with the result, and enough on its own to make the run `tampered` — prevention
// that hides the attempt would let that code be applied to the user's tree, where nothing contains it. In
// src/shared because the agent result's webview render and the task format show them too.
export const ATTEMPT_KINDS = [
  'protected-write',
  'process-left',
  'protected-edit-refused',
  'network',
  'write-cap',
] as const;

/**
 * `protected-write`: a protected file (a spec test, a helper, a runner configuration) was rewritten or emptied
 * inside the run (the sandbox showed the run a scratch copy of it, which changed; the checkout's own file did not).
 * `process-left`: a process was still running in the run's PID namespace when its command finished (a daemon).
 * `protected-edit-refused`: the agent's own edit or create tool refused to change a protected file.
 * `network`: a run without network tried to connect outside its sandbox (TCP connect, UDP send, a name lookup),
 * counted by the kernel in the run's network namespace.
 * `write-cap`: a run grew its checkout by more than the cap (1 GiB unless the spec file's `defaults.writeCapMiB`
 * says otherwise), measured from outside the sandbox after the run.
 */
export type AttemptKind = (typeof ATTEMPT_KINDS)[number];

export interface Attempt {
  kind: AttemptKind;
  /**
   * The protected file (checkout-relative, '/'-separated), the process (`pid 7: node`) or the connection attempts
   * (`3 outbound connection attempts (IPv4 2, IPv6 1)`).
   */
  target: string;
  /** The spec whose run tried it (for an agent tool's refusal: the spec owning the file, or '' for a shared one). */
  spec: string;
  /** When the run that tried it finished (ISO 8601): the attempt happened during that run. */
  at: string;
}

/** What a launcher learns of one run's attempts: the spec and time are added by the spec run. */
export type ObservedAttempt = Pick<Attempt, 'kind' | 'target'>;

export function describeAttempt(attempt: Attempt): string {
  switch (attempt.kind) {
    case 'protected-write':
      return `${attempt.spec}: wrote to protected ${attempt.target}`;
    case 'process-left':
      return `${attempt.spec}: left ${attempt.target} running after its command finished`;
    case 'protected-edit-refused':
      return `the agent's tools refused its edit of protected ${attempt.target}`;
    case 'network':
      return `${attempt.spec}: tried to reach the network: ${attempt.target}, refused by the sandbox`;
    case 'write-cap':
      return `${attempt.spec}: went past the checkout's write cap: ${attempt.target}`;
  }
}

/** At most this many processes left by one spec are named one by one; past it, they are counted by name. */
const PROCESSES_NAMED = 3;

/**
 * Several attempts in one line, in order. A run that left many processes (a fork bomb's children, a pool of
 * daemons) reads as one count per spec, with the processes counted by name, instead of one clause per process.
 */
export function describeAttempts(attempts: readonly Attempt[]): string {
  const left = new Map<string, Attempt[]>();
  for (const a of attempts) if (a.kind === 'process-left') left.set(a.spec, [...(left.get(a.spec) ?? []), a]);
  const parts: string[] = [];
  const grouped = new Set<string>();
  for (const a of attempts) {
    const sameSpec = left.get(a.spec) ?? [];
    if (a.kind !== 'process-left' || sameSpec.length <= PROCESSES_NAMED) {
      parts.push(describeAttempt(a));
      continue;
    }
    if (grouped.has(a.spec)) continue;
    grouped.add(a.spec);
    parts.push(
      `${a.spec}: left ${sameSpec.length} processes running after its command finished (${countByName(sameSpec)})`,
    );
  }
  return parts.join('; ');
}

/** `sleep ×62, node ×1` from targets such as `pid 7: sleep`. */
function countByName(processes: readonly Attempt[]): string {
  const counts = new Map<string, number>();
  for (const p of processes) {
    const name = p.target.replace(/^pid \d+: /, '');
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => `${name} ×${n}`).join(', ');
}
