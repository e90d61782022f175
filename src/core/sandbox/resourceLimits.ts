// Limits on what one sandboxed run may consume, and how a run that hit one is recognised afterwards so its
// verdict says `error (resource limit: …)` instead of a puzzling failure. Processes and file size are rlimits set
// by `prlimit` inside the sandbox, after the switch to the sandbox's unprivileged uid (RLIMIT_NPROC is not enforced
// for root's uid, not even from a user namespace mapped to it: measured, so the limit only holds because the run is
// not root); /tmp is a size-capped tmpfs; memory is a cgroup of the run's own where Weave may create one
// (memoryCgroup.ts), since V8 and WebAssembly reserve far more address space than they use and RLIMIT_AS breaks Node.

export interface SandboxLimits {
  /** Processes and threads of the sandbox's uid (RLIMIT_NPROC counts both). */
  processes: number;
  /** Largest file a run may write, in bytes (RLIMIT_FSIZE). */
  fileSizeBytes: number;
  /** Size of the private /tmp (RAM-backed), in bytes. */
  tmpBytes: number;
  /** Memory of the whole run (a cgroup; only where Weave may create one), in bytes. */
  memoryBytes: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  processes: 1024,
  fileSizeBytes: 512 * MIB,
  tmpBytes: 512 * MIB,
  memoryBytes: 4096 * MIB,
};

/** The program and arguments that apply `limits` to the command after them. */
export function limitArguments(limits: SandboxLimits): string[] {
  return [
    '/usr/bin/prlimit',
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileSizeBytes}`,
    '--core=0',
    '--',
  ];
}

/** SIGXFSZ: the kernel's signal for a write past RLIMIT_FSIZE; a shell reports it as exit 128 + 25. */
const SIGXFSZ_EXIT = 153;

/**
 * Which limit a finished sandboxed command ran into, if its output or exit say so. Read only for runs that did not
 * pass: a test that provokes a limit and handles it is fine.
 */
export function resourceLimitHit(
  outcome: { exitCode: number | null; signal: string | null; output: string; outOfMemory?: boolean },
  limits: SandboxLimits,
): string | undefined {
  if (outcome.outOfMemory) return `resource limit: more than ${formatBytes(limits.memoryBytes)} of memory`;
  const output = outcome.output;
  if (
    outcome.signal === 'SIGXFSZ' ||
    outcome.exitCode === SIGXFSZ_EXIT ||
    /\bEFBIG\b|File too large/.test(output)
  ) {
    return `resource limit: a file larger than ${formatBytes(limits.fileSizeBytes)} was written`;
  }
  if (/\bENOSPC\b|No space left on device/.test(output)) {
    return `resource limit: /tmp is full (${formatBytes(limits.tmpBytes)}), or the disk is`;
  }
  if (
    /Cannot fork|fork: retry|Resource temporarily unavailable|\bEAGAIN\b.*spawn|spawn.*\bEAGAIN\b/.test(
      output,
    )
  ) {
    return `resource limit: more than ${limits.processes} processes and threads`;
  }
  return undefined;
}

function formatBytes(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}
