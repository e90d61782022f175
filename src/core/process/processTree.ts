// Finding and killing every process a command started. Killing the process group is not enough: a test may
// start a daemon that calls setsid() (new session, new group) and whose parent then exits, so it is re-parented
// away from our tree. On Linux we therefore also look for processes that still carry the run's marker
// environment variable (inherited by every descendant unless it scrubs its environment) and for descendants by
// parent pid. Elsewhere the process group (POSIX) or `taskkill /T` (Windows) is what we have.
// procfs files are generated in memory and tiny: synchronous reads cost a few microseconds each, while
// promise-based reads cost three thread-pool round trips per file (measured: ~27 ms vs ~4 ms CPU for 180
// processes). A scan runs once per finished command, so the synchronous form keeps Weave's per-spec overhead low.
import { execFile } from 'node:child_process';
import fs from 'node:fs';

/** Environment variable Weave sets on every command it runs; its value is unique per run. */
export const RUN_MARKER_VARIABLE = 'WEAVE_RUN_MARKER';

const hasProc = process.platform === 'linux';

interface ProcEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
  zombie: boolean;
  /** Clock ticks since boot when the process started. */
  startTime: number;
}

function readStat(pid: number): ProcEntry | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: parse after its last ')'.
    const after = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      pid,
      zombie: after[0] === 'Z' || after[0] === 'X',
      ppid: Number(after[1]),
      pgrp: Number(after[2]),
      session: Number(after[3]),
      startTime: Number(after[19]),
    };
  } catch {
    return undefined;
  }
}

function carriesMarker(pid: number, marker: Buffer): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`).includes(marker);
  } catch {
    return false; // gone, or another user's process
  }
}

/** When the process `pid` started (clock ticks since boot), or undefined when unknown. */
export function processStartTime(pid: number): number | undefined {
  return hasProc ? readStat(pid)?.startTime : undefined;
}

/**
 * Live (non-zombie) pids that belong to the command started as `rootPid` with marker `markerValue`.
 * `rootStartTime` (from processStartTime) limits the environment scan to processes started after the command:
 * nothing older can be its descendant, and reading every process's environment costs time on a busy machine.
 */
export function findTreePids(rootPid: number, markerValue: string, rootStartTime?: number): number[] {
  if (!hasProc) return [];
  const pids = fs
    .readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
  const entries = pids.map(readStat).filter((e): e is ProcEntry => e !== undefined);
  const marker = Buffer.from(`${RUN_MARKER_VARIABLE}=${markerValue}\0`);
  const found = new Set<number>();
  const childrenOf = new Map<number, number[]>();
  for (const e of entries) {
    const list = childrenOf.get(e.ppid) ?? [];
    list.push(e.pid);
    childrenOf.set(e.ppid, list);
    if (e.pgrp === rootPid || e.session === rootPid || e.pid === rootPid) found.add(e.pid);
  }
  const stack = [rootPid];
  while (stack.length > 0) {
    for (const child of childrenOf.get(stack.pop() as number) ?? []) {
      if (!found.has(child)) {
        found.add(child);
        stack.push(child);
      }
    }
  }
  const self = process.pid;
  const others = entries.filter(
    (e) =>
      !found.has(e.pid) && e.pid !== self && (rootStartTime === undefined || e.startTime >= rootStartTime),
  );
  for (const e of others) if (carriesMarker(e.pid, marker)) found.add(e.pid);
  const zombies = new Set(entries.filter((e) => e.zombie).map((e) => e.pid));
  found.delete(self);
  return [...found].filter((pid) => !zombies.has(pid));
}

/** True when `pid` exists and is not a zombie (a zombie has exited; only its parent's bookkeeping remains). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (!hasProc) return true;
  const entry = readStat(pid);
  return entry !== undefined && !entry.zombie;
}

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function taskkill(pid: number): Promise<void> {
  return new Promise((resolve) => {
    execFile('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true }, () => resolve());
  });
}

/**
 * Kills the command's whole tree: SIGTERM to its process group and every process found by findTreePids, then
 * after `graceMs` SIGKILL to whatever is left, repeating the search until nothing is found (a process may fork
 * while we kill). `rootPid` is the leader of its own process group (spawned detached).
 *
 * A process once found stays ours until it is dead: inside a sandbox's PID namespace the command runs in a
 * session of its own and without the marker (the sandbox clears the environment), so it is found only as a
 * descendant — and once bubblewrap is killed, the namespace's processes are re-parented away while the kernel
 * tears them down. Under load that takes a while; without remembering them, the kill would end (and `weave`
 * exit) while one of them still ran.
 */
export async function killProcessTree(
  rootPid: number,
  markerValue: string,
  graceMs: number,
  rootStartTime?: number,
): Promise<void> {
  if (process.platform === 'win32') {
    await taskkill(rootPid);
    return;
  }
  const seen = new Map<number, number>(); // pid → start time, so a reused pid is not mistaken for ours
  const stillOurs = (): number[] => {
    for (const pid of findTreePids(rootPid, markerValue, rootStartTime)) {
      if (!seen.has(pid)) seen.set(pid, processStartTime(pid) ?? -1);
    }
    return [...seen].filter(([pid, started]) => isSameProcessAlive(pid, started)).map(([pid]) => pid);
  };
  const signalAll = (signal: NodeJS.Signals): number[] => {
    // Looked up before the group is signalled: once its shell dies, its children are re-parented away.
    const pids = stillOurs();
    signalQuietly(-rootPid, signal);
    for (const pid of pids) signalQuietly(pid, signal);
    return pids;
  };
  const gone = (pids: number[]): boolean => pids.length === 0 && !groupExists(rootPid);
  signalAll('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (gone(stillOurs())) return;
    await delay(25);
  }
  // signalAll returns what it found before killing: an empty result means nothing was left to kill. A killed
  // process is gone within milliseconds on an idle machine; the bound is for a machine under heavy load.
  const killDeadline = Date.now() + SIGKILL_WAIT_MS;
  do {
    if (gone(signalAll('SIGKILL'))) return;
    await delay(10);
  } while (Date.now() < killDeadline);
}

/** How long to keep killing and looking after SIGKILL before giving up on a process that will not die. */
const SIGKILL_WAIT_MS = 5_000;

/** `pid` is alive and still the process that started at `startTime` (-1: unknown, any process counts). */
function isSameProcessAlive(pid: number, startTime: number): boolean {
  if (!isProcessAlive(pid)) return false;
  return startTime === -1 || processStartTime(pid) === startTime;
}

function groupExists(pgid: number): boolean {
  if (hasProc) return false; // on Linux findTreePids already covers the group, zombies excluded
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** How long the processes found right after a normal exit get to finish exiting before they count as left. */
const SETTLE_MS = 50;
const SETTLE_POLL_MS = 1;

/**
 * After a normal exit: is anything of the tree still running once what was found has had `settleMs` to finish
 * exiting? bubblewrap's outer process exits as soon as it learns the command's status, while its PID namespace's
 * init is still tearing the namespace down: found by the scan, that init made killProcessTree signal it and
 * poll every 25 ms (9–86 ms of wall each time) on a third to a half of all runs (12 and 16 of 40, `weave check`
 * at load ~20), though it was gone within a few ms.
 * Waiting for the processes found, then scanning once more for any started meanwhile, finds the same survivors:
 * a process that is still there after the wait (a daemon, `sleep &`) is left, and the caller kills the tree.
 */
export async function treeOutlivesExit(
  rootPid: number,
  markerValue: string,
  rootStartTime?: number,
  settleMs = SETTLE_MS,
): Promise<boolean> {
  if (process.platform === 'win32') return false;
  if (!hasProc) return groupExists(rootPid);
  const found = findTreePids(rootPid, markerValue, rootStartTime);
  if (found.length === 0) return false;
  const started = found.map((pid) => [pid, processStartTime(pid) ?? -1] as const);
  const deadline = Date.now() + settleMs;
  while (started.some(([pid, time]) => isSameProcessAlive(pid, time))) {
    if (Date.now() >= deadline) return true;
    await delay(SETTLE_POLL_MS);
  }
  return findTreePids(rootPid, markerValue, rootStartTime).length > 0;
}
