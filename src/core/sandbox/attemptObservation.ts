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
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Attempt } from '../../shared/attempts';
import { runsAsRoot, SANDBOX_GID, SANDBOX_UID } from './sandboxUser';

/** What a launcher learns of one run's attempts: the spec and time are added by the spec run. */
export type ObservedAttempt = Pick<Attempt, 'kind' | 'target'>;

/** A command whose commandline exited 0 but left processes behind exits with this. */
export const PROCESSES_LEFT_EXIT = 86;
const LEFT_REPORT = 'weave: processes left behind when the command finished:';
/** Rechecks, 50 ms apart, before a process still there counts as left behind (1 s in all). */
const LEFT_RECHECKS = 20;

/**
 * `command` in a subshell followed by the listing of what it left running. The subshell opens on the line that
 * holds the limits, so the command's line numbers stay its own.
 */
export function observedCommand(command: string): string {
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

/** One protected file's scratch copy, bound writable over it for one run. */
interface ScratchCopy {
  copy: string;
  target: string;
  size: bigint;
  mtimeNs: bigint;
}

/** The scratch copies of one run's protected files, and what changed in them. */
export class ProtectedCopies {
  private constructor(
    private readonly checkout: string,
    private readonly folder: string,
    private readonly copies: readonly ScratchCopy[],
  ) {}

  /** Copies every protected regular file inside `checkout` (folders and links stay read-only binds). */
  static async create(checkout: string, protectedPaths: readonly string[]): Promise<ProtectedCopies> {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-observed-'));
    const copies: ScratchCopy[] = [];
    const asRoot = runsAsRoot();
    for (const target of protectedPaths) {
      const stat = await fs.lstat(target).catch(() => undefined);
      if (!stat?.isFile()) continue;
      const copy = path.join(folder, String(copies.length));
      await fs.copyFile(target, copy);
      // The sandbox's uid writes the copy as it could have written the file (it owns the checkout).
      if (asRoot) await fs.chown(copy, SANDBOX_UID, SANDBOX_GID);
      await fs.chmod(copy, (stat.mode & 0o777) | 0o600);
      const after = await fs.stat(copy, { bigint: true });
      copies.push({ copy, target, size: after.size, mtimeNs: after.mtimeNs });
    }
    return new ProtectedCopies(checkout, folder, copies);
  }

  /** bwrap's binds: each copy writable over its protected file. */
  binds(): Array<{ source: string; target: string }> {
    return this.copies.map((c) => ({ source: c.copy, target: c.target }));
  }

  /** The protected files whose copy no longer holds their content; then the copies are removed. */
  async changedAndDispose(): Promise<ObservedAttempt[]> {
    try {
      const changed: ObservedAttempt[] = [];
      for (const c of this.copies) {
        const now = await fs.stat(c.copy, { bigint: true }).catch(() => undefined);
        // Untouched since it was made: its content is the original's (the cheap, usual case).
        if (now !== undefined && now.size === c.size && now.mtimeNs === c.mtimeNs) continue;
        const [copy, original] = await Promise.all([
          fs.readFile(c.copy).catch(() => undefined),
          fs.readFile(c.target),
        ]);
        // Rewritten with the same bytes (a formatter, a tool that saves what it read) is not an attempt.
        if (copy !== undefined && copy.equals(original)) continue;
        changed.push({
          kind: 'protected-write',
          target: path.relative(this.checkout, c.target).split(path.sep).join('/'),
        });
      }
      return changed;
    } finally {
      await fs.rm(this.folder, { recursive: true, force: true });
    }
  }
}
