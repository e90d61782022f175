// The memory limit of one sandboxed run: a memory cgroup of its own, below the one Weave runs in, when this process
// may create one (root with cgroup v1's memory controller or a delegated cgroup v2 tree — CI and containers; not a
// desktop user, whose sandbox then has no memory limit and says so nowhere but here). rlimits cannot do this job:
// V8 and WebAssembly reserve far more address space than they touch, so RLIMIT_AS breaks Node, and RLIMIT_RSS is not
// enforced by Linux. The kernel's OOM killer then ends the run inside its group only, and the group's event counter
// says that it did, so the verdict can name the cause.
//
// A group's life is kept off the run's critical path: making one costs ~0.5 ms, but moving a process into it costs
// ~10 ms on cgroup v1 (measured), so the next run's process is started and moved into its group while this run runs
// (preparedSandbox.ts), and a finished group is removed in the background. Removal has to wait: when bwrap has exited, the kernel may still
// be tearing its PID namespace down and the group refuses rmdir (EBUSY) for a while. Removing it once and ignoring
// the error leaked a group on about one run in eight, and memory cgroups that are never removed pile up in the kernel.
// Groups are named after the Weave process that made them, so one that a killed process left behind is removed by
// the next process that looks.
import { randomBytes } from 'node:crypto';
import { promises as fs, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import path from 'node:path';

export interface RunCgroup {
  /** The file a process writes its pid into to join the group (before it starts the sandbox). */
  procsFile: string;
  /** Whether the kernel killed a process of the group for memory; the group is then removed in the background. */
  finish(): Promise<{ outOfMemory: boolean }>;
}

interface Hierarchy {
  version: 1 | 2;
  /** Weave's own cgroup folder in that hierarchy. */
  base: string;
}

const GROUP_PREFIX = 'weave-run-';
/** How long a finished group may stay busy before it is left to the next process's sweep. */
const REMOVAL_PATIENCE_MS = 10_000;

let hierarchy: Hierarchy | null | undefined;
/** Removals still under way; `memoryCgroupsSettled()` waits for them. */
const removals = new Set<Promise<void>>();

/** A fresh group limited to `limitBytes`, or undefined when this process cannot make one. */
export async function createMemoryCgroup(limitBytes: number): Promise<RunCgroup | undefined> {
  const found = usableHierarchy();
  if (found === null) return undefined;
  const dir = await makeGroup(found, limitBytes);
  if (dir === undefined) return undefined;
  return {
    procsFile: path.join(dir, 'cgroup.procs'),
    finish: async () => {
      const events = await fs
        .readFile(path.join(dir, found.version === 1 ? 'memory.oom_control' : 'memory.events'), 'utf8')
        .catch(() => '');
      const killed = Number(/^oom_kill (\d+)/m.exec(events)?.[1] ?? 0);
      removeInBackground(dir);
      return { outOfMemory: killed > 0 };
    },
  };
}

/** Resolves when every finished group of this process is removed (or given up on); for tests and shutdown. */
export async function memoryCgroupsSettled(): Promise<void> {
  while (removals.size > 0) await Promise.all([...removals]);
}

/** The groups a Weave process (this one by default) has under Weave's cgroup, a prepared run's included; for tests. */
export function memoryCgroupsOf(pid: number = process.pid): string[] {
  const found = usableHierarchy();
  if (found === null) return [];
  const own = `${GROUP_PREFIX}${pid}-`;
  try {
    return readdirSync(found.base).filter((name) => name.startsWith(own));
  } catch {
    return [];
  }
}

function usableHierarchy(): Hierarchy | null {
  if (hierarchy === undefined) {
    hierarchy = findHierarchy();
    if (hierarchy !== null) {
      sweepDeadProcessesGroups(hierarchy.base);
      process.once('exit', removeEmptyGroupsNow);
    }
  }
  return hierarchy;
}

async function makeGroup(found: Hierarchy, limitBytes: number): Promise<string | undefined> {
  const dir = path.join(found.base, `${GROUP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    await fs.mkdir(dir);
  } catch {
    hierarchy = null; // not ours to write: no memory limit for any run of this process
    return undefined;
  }
  try {
    if (found.version === 1) {
      await fs.writeFile(path.join(dir, 'memory.limit_in_bytes'), String(limitBytes));
    } else {
      await fs.writeFile(path.join(dir, 'memory.max'), String(limitBytes));
      await fs.writeFile(path.join(dir, 'memory.swap.max'), '0').catch(() => undefined);
    }
  } catch {
    await fs.rmdir(dir).catch(() => undefined);
    hierarchy = null;
    return undefined;
  }
  return dir;
}

function removeInBackground(dir: string): void {
  const removal = removeWhenEmpty(dir).finally(() => removals.delete(removal));
  removals.add(removal);
}

/** rmdir, retried with a growing pause while the kernel still holds the group's exiting processes (EBUSY). */
async function removeWhenEmpty(dir: string): Promise<void> {
  const started = Date.now();
  for (let pauseMs = 1; ; pauseMs = Math.min(pauseMs * 2, 200)) {
    try {
      await fs.rmdir(dir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EBUSY' || Date.now() - started > REMOVAL_PATIENCE_MS) return;
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/** At exit: remove what is empty now (a synchronous rmdir, all `exit` allows); the next process sweeps the rest. */
function removeEmptyGroupsNow(): void {
  const found = hierarchy;
  if (!found) return;
  for (const name of memoryCgroupsOf()) {
    try {
      rmdirSync(path.join(found.base, name));
    } catch {
      // still busy: the next Weave process's sweep removes it
    }
  }
}

/** Removes the empty groups that Weave processes which no longer exist left behind. */
function sweepDeadProcessesGroups(base: string): void {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(new RegExp(`^${GROUP_PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || processExists(pid)) continue;
    try {
      rmdirSync(path.join(base, name)); // fails, harmlessly, while something still runs in it
    } catch {
      // not empty, or already gone
    }
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Where this process's memory cgroup lives, from /proc/self/cgroup; null when there is no usable one. */
function findHierarchy(): Hierarchy | null {
  let lines: string[];
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  } catch {
    return null;
  }
  for (const line of lines) {
    const [, controllers, where] = line.split(':');
    if (where === undefined) continue;
    if (controllers?.split(',').includes('memory')) {
      return { version: 1, base: path.join('/sys/fs/cgroup/memory', where) };
    }
  }
  const unified = lines.find((l) => l.startsWith('0::'));
  if (unified !== undefined) {
    try {
      const controllers = readFileSync('/sys/fs/cgroup/cgroup.controllers', 'utf8');
      if (controllers.split(/\s+/).includes('memory')) {
        return { version: 2, base: path.join('/sys/fs/cgroup', unified.slice(3)) };
      }
    } catch {
      // no unified hierarchy at /sys/fs/cgroup
    }
  }
  return null;
}
