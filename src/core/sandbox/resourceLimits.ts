// Limits on what one sandboxed run may consume, and how a run that hit one is recognised afterwards so its
// verdict says `error (resource limit: …)` instead of a puzzling failure. Processes and file size are rlimits set
// by the command's shell inside the sandbox, after the switch to the sandbox's unprivileged uid (RLIMIT_NPROC is not enforced
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
  /** Most one observed run may grow its checkout by, in bytes (writeCapObservation.ts): beyond, a `write-cap` attempt. */
  checkoutWriteBytes?: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  processes: 1024,
  fileSizeBytes: 512 * MIB,
  tmpBytes: 512 * MIB,
  memoryBytes: 4096 * MIB,
  checkoutWriteBytes: 1024 * MIB,
};

/** The checkout write cap of `limits` (limits written before the cap existed have none: the default). */
export function checkoutWriteCap(limits: SandboxLimits): number {
  return limits.checkoutWriteBytes ?? 1024 * MIB;
}

/**
 * Shell text that applies `limits` and then runs what follows it, or stops with exit 126 when a limit cannot be set
 * (never runs the command unlimited). One `ulimit` per limit (dash takes only one); file size in 512-byte blocks
 * (POSIX, dash and bash as sh alike); processes are `-u` in bash and busybox, `-p` in dash.
 */
export function limitPrologue(limits: SandboxLimits): string {
  const blocks = Math.floor(limits.fileSizeBytes / 512);
  const n = limits.processes;
  return (
    `{ ulimit -c 0 && ulimit -f ${blocks} && { ulimit -u ${n} 2>/dev/null || ulimit -p ${n}; }; } ` +
    `|| { echo 'weave: the sandbox could not set its resource limits' >&2; exit 126; }; `
  );
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
