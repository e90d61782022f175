// Total CPU time of the benchmark process and everything it starts, for benches that compare CPU across
// measurements. Why not getrusage(RUSAGE_CHILDREN) (/proc/self/stat cutime/cstime): a process's CPU is added
// to its parent's only when the parent waits for it. `weave check` runs each spec in a private PID namespace,
// whose init exits and takes the rest of the namespace with it, so most of a spec's processes are never waited
// for by anything that reports back here — the CPU columns came out negative. A cgroup counts every process in
// it however it ends: the meter moves this process into a cgroup of its own (its children inherit it) and
// reads the cgroup's usage. Where no cgroup can be created (not Linux, no permission) it falls back to the
// rusage figure and says so in `method`.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface CpuMeter {
  /** CPU milliseconds used so far (user + system) by this process and its descendants. */
  readMs(): number;
  /** How the figure is obtained, for the bench's header line. */
  method: string;
  /** Moves this process back where it was and removes the cgroup. */
  dispose(): void;
}

const CGROUP_ROOT = '/sys/fs/cgroup';

export function startCpuMeter(name: string): CpuMeter {
  return cgroupMeter(name) ?? rusageMeter();
}

/** cgroup v2 (cpu.stat usage_usec) or v1's cpuacct controller (cpuacct.usage, nanoseconds). */
function cgroupMeter(name: string): CpuMeter | undefined {
  if (process.platform !== 'linux') return undefined;
  const unified = existsSync(path.join(CGROUP_ROOT, 'cgroup.controllers'));
  const parent = unified ? ownCgroup('', '') : ownCgroup('cpuacct', 'cpuacct');
  if (parent === undefined || !existsSync(parent)) return undefined;
  const dir = path.join(parent, `${name}-${process.pid}`);
  try {
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'cgroup.procs'), String(process.pid));
  } catch {
    try {
      rmdirSync(dir);
    } catch {
      // never created
    }
    return undefined;
  }
  const readMs = unified
    ? (): number => {
        const line = readFileSync(path.join(dir, 'cpu.stat'), 'utf8').match(/^usage_usec (\d+)$/m);
        return Number(line?.[1] ?? Number.NaN) / 1000;
      }
    : (): number => Number(readFileSync(path.join(dir, 'cpuacct.usage'), 'utf8')) / 1e6;
  return {
    readMs,
    method: `cgroup ${unified ? 'v2 cpu.stat' : 'v1 cpuacct'}`,
    dispose() {
      writeFileSync(path.join(parent, 'cgroup.procs'), String(process.pid));
      rmdirSync(dir);
    },
  };
}

/**
 * The directory of the cgroup this process is in, in the hierarchy whose controller list holds `controller`
 * ('' for the v2 unified one), mounted at CGROUP_ROOT/`mount`.
 */
function ownCgroup(controller: string, mount: string): string | undefined {
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [, controllers, at] = line.match(/^\d+:([^:]*):(.*)$/) ?? [];
    if (controllers === undefined || at === undefined) continue;
    if (controller === '' ? controllers === '' : controllers.split(',').includes(controller))
      return path.join(CGROUP_ROOT, mount, at);
  }
  return undefined;
}

/** USER_HZ: 100 on every Linux architecture Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

function rusageMeter(): CpuMeter {
  const hasProcStat = process.platform === 'linux';
  return {
    readMs() {
      if (!hasProcStat) return Number.NaN;
      const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
      const ticks = [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i] ?? 0), 0);
      return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
    },
    method: 'rusage of waited-for children (misses processes in a PID namespace)',
    dispose() {},
  };
}
