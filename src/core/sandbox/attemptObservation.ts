// Attempts the sandbox sees instead of only preventing (issue #35: a test rewrite refused by a read-only mount left
// the run "clean", and the code that tried it was applied to the user's tree). Two observations per spec run:
//  - protected files: each is shown to the run as a writable scratch copy bound over it (not a read-only bind), so a
//    rewrite or truncation succeeds on the copy, the checkout's own file stays as it was, and the copy differing
//    afterwards is the attempt. Deleting or renaming a bind-mounted file fails with EBUSY inside: prevented, not
//    observed (docs/threat-model.md). Protected folders (`.weave`) stay read-only binds: prevented, not observed.
//  - processes left behind: the command runs in a subshell; when it has finished, the run's own shell lists the
//    PID namespace's processes (pid 1 is bubblewrap's init, the shell itself is `$$`) before bwrap's exit kills
//    them. Processes still there after a short grace (a runner's workers exiting on their parent's end take a few
//    milliseconds) are reported on stderr, and a run whose command exited 0 then exits 86, so a report hidden by the
//    code under test (output flooded past the cap) still cannot make the spec pass. The listing costs no process
//    when nothing is left: `read` and the glob are the shell's own.
//  - connection attempts, in a run without network: the network namespace's refused-route counters, read by the
//    same shell at the end (networkObservation.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ObservedAttempt } from '../../shared/attempts';
import { connectionAttemptLines } from './networkObservation';
import { runsAsRoot, SANDBOX_GID, SANDBOX_UID } from './sandboxUser';

export type { ObservedAttempt } from '../../shared/attempts';

/** A command whose commandline exited 0 but left processes behind exits with this. */
export const PROCESSES_LEFT_EXIT = 86;
const LEFT_REPORT = 'weave: processes left behind when the command finished:';
/** Rechecks, 50 ms apart, before a process still there counts as left behind (1 s in all). */
const LEFT_RECHECKS = 20;

/**
 * `command` in a subshell followed by the listing of what it left running (and, with `observeNetwork`, the count of
 * its refused connection attempts). The subshell opens on the line that holds the limits, so the command's line
 * numbers stay its own.
 */
export function observedCommand(command: string, observeNetwork = false): string {
  return `( ${command}\n)\n${[
    'weave_status=$?',
    'weave_tries=0',
    'while :; do',
    '  weave_left=',
    '  for weave_p in /proc/[0-9]*; do',
    '    weave_p=${weave_p#/proc/}',
    '    [ "$weave_p" = 1 ] || [ "$weave_p" = $$ ] && continue',
    '    weave_s=',
    '    read -r weave_s 2>/dev/null <"/proc/$weave_p/stat" || continue',
    // The state follows the last ") " (a process's name may hold parentheses); zombies are already gone.
    '    weave_state=${weave_s##*) }',
    '    case $weave_state in Z*|X*|"") continue ;; esac',
    '    weave_name=${weave_s#*\\(}',
    '    weave_left="$weave_left pid $weave_p: ${weave_name%) *};"',
    '  done',
    '  [ -z "$weave_left" ] && break',
    '  weave_tries=$((weave_tries + 1))',
    `  [ "$weave_tries" -ge ${LEFT_RECHECKS} ] && break`,
    '  sleep 0.05',
    'done',
    'if [ -n "$weave_left" ]; then',
    `  printf '%s%s\\n' '${LEFT_REPORT}' "$weave_left" >&2`,
    `  [ "$weave_status" = 0 ] && weave_status=${PROCESSES_LEFT_EXIT}`,
    'fi',
    ...(observeNetwork ? connectionAttemptLines() : []),
    'exit "$weave_status"',
  ].join('\n')}`;
}

/** The processes a finished run's report names (none when its output holds no report). */
export function processesLeft(output: string): ObservedAttempt[] {
  const found: ObservedAttempt[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith(LEFT_REPORT)) continue;
    for (const item of line.slice(LEFT_REPORT.length).split(';')) {
      const target = item.trim();
      if (target !== '') found.push({ kind: 'process-left', target });
    }
  }
  return found;
}

/** One protected file's scratch copy, bound writable over it for one run at a time. */
interface ScratchCopy {
  copy: string;
  target: string;
  /** The copy as Weave left it: a write, truncation, chmod or utimes inside changes its ctime. */
  made: FileState;
  /** The protected file when it was copied, so a copy kept for a later run is known to still hold its content. */
  source: FileState;
}

interface FileState {
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

function fileState(file: string): FileState | undefined {
  const s = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return s === undefined ? undefined : { ino: s.ino, size: s.size, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs };
}

function sameState(a: FileState | undefined, b: FileState): boolean {
  return (
    a !== undefined &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs
  );
}

/**
 * One scratch folder per Weave process, made on first use and removed at exit: a folder made and removed per run
 * cost 3 ms (rmdir on this machine's ext4, measured), more than the rest of the observation together.
 */
let scratch: string | undefined;
let nextCopy = 0;
/**
 * Copies whose run has finished, untouched, by protected file: the next run over the same file binds the same copy.
 * Unlinking the copies right after their run cost 2–3 ms a file on a loaded machine (28 ms for the demo's ten, most
 * of the observation's cost in `npm run bench -- sandbox`), while checking that one is still intact is two stats.
 */
const idle = new Map<string, ScratchCopy[]>();
/** Kept copies at most (a long-lived editor runs over many checkouts that are then removed): beyond, copies go. */
const IDLE_LIMIT = 256;
let idleCount = 0;

function scratchFolder(): string {
  if (scratch !== undefined && fs.existsSync(scratch)) return scratch;
  const made = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-observed-'));
  scratch = made;
  idle.clear();
  idleCount = 0;
  process.once('exit', () => fs.rmSync(made, { recursive: true, force: true }));
  return made;
}

/** A kept copy of `target` still holding its current content (taken, so no concurrent run binds it too). */
function takeIdle(target: string, source: FileState): ScratchCopy | undefined {
  const kept = idle.get(target);
  while (kept !== undefined && kept.length > 0) {
    const c = kept.pop()!;
    idleCount--;
    if (sameState(fileState(c.copy), c.made) && sameState(c.source, source)) return c;
    fs.rmSync(c.copy, { force: true });
  }
  return undefined;
}

/**
 * The scratch copies of one run's protected files, and what changed in them. Made and compared with synchronous
 * calls: a few small files per run, where each asynchronous call would wait its turn in libuv's thread pool behind
 * every other run's I/O (measured on a loaded machine: several ms for one file, against well under 1 ms this way).
 */
export class ProtectedCopies {
  private constructor(
    private readonly checkout: string,
    private readonly copies: readonly ScratchCopy[],
  ) {}

  /** Copies every protected regular file inside `checkout` (folders and links stay read-only binds). */
  static create(checkout: string, protectedPaths: readonly string[]): ProtectedCopies {
    const folder = scratchFolder();
    const copies: ScratchCopy[] = [];
    const asRoot = runsAsRoot();
    try {
      for (const target of protectedPaths) {
        const stat = fs.lstatSync(target, { bigint: true, throwIfNoEntry: false });
        if (!stat?.isFile()) continue;
        const source = { ino: stat.ino, size: stat.size, mtimeNs: stat.mtimeNs, ctimeNs: stat.ctimeNs };
        const kept = takeIdle(target, source);
        if (kept) {
          copies.push(kept);
          continue;
        }
        const copy = path.join(folder, String(nextCopy++));
        fs.copyFileSync(target, copy);
        // The sandbox's uid writes the copy as it could have written the file (it owns the checkout).
        if (asRoot) fs.chownSync(copy, SANDBOX_UID, SANDBOX_GID);
        fs.chmodSync(copy, (Number(stat.mode) & 0o777) | 0o600);
        copies.push({ copy, target, made: fileState(copy)!, source });
      }
    } catch (error) {
      for (const c of copies) fs.rmSync(c.copy, { force: true });
      throw error;
    }
    return new ProtectedCopies(checkout, copies);
  }

  /** bwrap's binds: each copy writable over its protected file. */
  binds(): Array<{ source: string; target: string }> {
    return this.copies.map((c) => ({ source: c.copy, target: c.target }));
  }

  /**
   * The protected files whose copy no longer holds their content. Untouched copies are kept for the next run over
   * the same file; the others are removed.
   */
  changedAndDispose(): ObservedAttempt[] {
    const changed: ObservedAttempt[] = [];
    for (const c of this.copies) {
      const now = fileState(c.copy);
      // Untouched since it was made: its content is the original's (the cheap, usual case).
      if (sameState(now, c.made) && idleCount < IDLE_LIMIT) {
        const kept = idle.get(c.target) ?? [];
        kept.push(c);
        idle.set(c.target, kept);
        idleCount++;
        continue;
      }
      try {
        const copy = now === undefined ? undefined : fs.readFileSync(c.copy);
        // Rewritten with the same bytes (a formatter, a tool that saves what it read) is not an attempt.
        if (copy !== undefined && copy.equals(fs.readFileSync(c.target))) continue;
        changed.push({
          kind: 'protected-write',
          target: path.relative(this.checkout, c.target).split(path.sep).join('/'),
        });
      } finally {
        fs.rmSync(c.copy, { force: true });
      }
    }
    return changed;
  }
}
