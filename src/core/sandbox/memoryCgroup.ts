// The memory limit of one sandboxed run: a memory cgroup of its own, below the one Weave runs in, when this process
// may create one (root with cgroup v1's memory controller or a delegated cgroup v2 tree — CI and containers; not a
// desktop user, whose sandbox then has no memory limit and says so nowhere but here). rlimits cannot do this job:
// V8 and WebAssembly reserve far more address space than they touch, so RLIMIT_AS breaks Node, and RLIMIT_RSS is not
// enforced by Linux. The kernel's OOM killer then ends the run inside its group only, and the group's event counter
// says that it did, so the verdict can name the cause.
import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';

export interface RunCgroup {
  /** The file a process writes its pid into to join the group (before it starts the sandbox). */
  procsFile: string;
  /** Whether the kernel killed a process of the group for memory; then removes the group. */
  finish(): Promise<{ outOfMemory: boolean }>;
}

interface Hierarchy {
  version: 1 | 2;
  /** Weave's own cgroup folder in that hierarchy. */
  base: string;
}

let hierarchy: Hierarchy | null | undefined;

/** A fresh group limited to `limitBytes`, or undefined when this process cannot make one. */
export async function createMemoryCgroup(limitBytes: number): Promise<RunCgroup | undefined> {
  hierarchy ??= findHierarchy();
  if (hierarchy === null) return undefined;
  const { version, base } = hierarchy;
  const dir = path.join(base, `weave-run-${randomBytes(6).toString('hex')}`);
  try {
    await fs.mkdir(dir);
  } catch {
    hierarchy = null; // not ours to write: no memory limit for any run of this process
    return undefined;
  }
  try {
    if (version === 1) {
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
  return {
    procsFile: path.join(dir, 'cgroup.procs'),
    finish: async () => {
      const events = await fs
        .readFile(path.join(dir, version === 1 ? 'memory.oom_control' : 'memory.events'), 'utf8')
        .catch(() => '');
      const killed = Number(/^oom_kill (\d+)/m.exec(events)?.[1] ?? 0);
      await fs.rmdir(dir).catch(() => undefined);
      return { outOfMemory: killed > 0 };
    },
  };
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
