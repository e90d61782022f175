// What changed in a workspace: from git (`--since REF`: committed since REF, staged, unstaged and untracked) or
// from a list of files (`--files a,b`). Paths are workspace-relative even when the workspace is a subfolder of
// its repository (git's --relative).
import fs from 'node:fs';
import path from 'node:path';
import { assertRevision, git } from './git';
import { normalizeWorkspacePath } from '../workspacePath';
import { unquote } from './hunks';
import { InputError } from '../errors';

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'untracked' | 'type-changed';

export interface LineSpan {
  /** 1-based, inclusive, in the new (working-tree) file; a pure deletion is the line it happened before. */
  start: number;
  end: number;
}

export interface ChangedFile {
  path: string;
  status: ChangeStatus;
  /** Changed lines in the new file, when known (git). Undefined means "anywhere in the file". */
  lines?: LineSpan[];
}

/** Bad input for change detection (not a repository, unknown ref): the CLI prints the message and exits 2. */
export class ChangeInputError extends InputError {}

export async function changedFilesSince(workspaceDir: string, ref: string): Promise<ChangedFile[]> {
  await requireCommit(workspaceDir, ref);
  const [nameStatus, untracked, hunks] = await Promise.all([
    git(['diff', ...NAME_STATUS, ref, '--'], workspaceDir),
    git(['ls-files', '--others', '--exclude-standard', '-z'], workspaceDir),
    git(['diff', ...ZERO_CONTEXT, ref, '--'], workspaceDir),
  ]);
  const untrackedFiles = untracked.split('\0').filter((x) => x !== '');
  return changesOf(nameStatus, hunks, untrackedFiles);
}

/**
 * What changed from one git tree (or commit) to another: both are snapshots (workingTreeObject), so a file that
 * was untracked in both and did not change is not a change, as it is for `--since`. `zeroContextDiff` is the
 * `git diff -U0` it read, for the coverage view of the same change.
 */
export async function changesBetween(
  workspaceDir: string,
  from: string,
  to: string,
): Promise<{ changes: ChangedFile[]; zeroContextDiff: string }> {
  const [nameStatus, zeroContextDiff] = await Promise.all([
    git(['diff', ...NAME_STATUS, from, to, '--'], workspaceDir),
    git(['diff', ...ZERO_CONTEXT, from, to, '--'], workspaceDir),
  ]);
  return { changes: changesOf(nameStatus, zeroContextDiff, []), zeroContextDiff };
}

const NAME_STATUS = ['--name-status', '-z', '--no-renames', '--relative'];
/** The diff whose hunks map changed lines (and, in coverage/base.ts, the recorded content's lines). */
export const ZERO_CONTEXT = ['-U0', '--no-renames', '--no-color', '--no-ext-diff', '--relative'];

/** The changed files of a `--name-status -z` listing (and untracked files), with their lines from `-U0` hunks. */
function changesOf(nameStatus: string, hunks: string, untracked: readonly string[]): ChangedFile[] {
  const fields = nameStatus.split('\0').filter((f) => f !== '');
  const byPath = new Map<string, ChangedFile>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const file = normalizeWorkspacePath(fields[i + 1]!);
    byPath.set(file, { path: file, status: statusOf(fields[i]!) });
  }
  for (const f of untracked) {
    const file = normalizeWorkspacePath(f);
    byPath.set(file, { path: file, status: 'untracked' });
  }
  for (const [file, lines] of parseChangedLines(hunks)) {
    const entry = byPath.get(file);
    if (entry && entry.status === 'modified') entry.lines = lines;
  }
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** `--files a,b`: workspace-relative (or absolute inside the workspace); a path that no longer exists is deleted. */
export function changedFilesFromList(workspaceDir: string, files: string[]): ChangedFile[] {
  const out: ChangedFile[] = [];
  for (const raw of files.map((f) => f.trim()).filter((f) => f !== '')) {
    const abs = path.resolve(workspaceDir, raw);
    const rel = path.relative(workspaceDir, abs);
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      throw new ChangeInputError(`--files: ${raw} is outside the workspace ${workspaceDir}`);
    }
    out.push({ path: normalizeWorkspacePath(rel), status: fs.existsSync(abs) ? 'modified' : 'deleted' });
  }
  return out;
}

function statusOf(code: string): ChangeStatus {
  switch (code[0]) {
    case 'A':
      return 'added';
    case 'D':
      return 'deleted';
    case 'T':
      return 'type-changed';
    default:
      return 'modified';
  }
}

/** Changed new-side line spans per file from `git diff -U0`. */
export function parseChangedLines(diff: string): Map<string, LineSpan[]> {
  const out = new Map<string, LineSpan[]>();
  let current: LineSpan[] | undefined;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      const target = line.slice(4);
      current = target === '/dev/null' ? undefined : [];
      if (current) out.set(normalizeWorkspacePath(unquote(target).replace(/^b\//, '')), current);
      continue;
    }
    const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (m && current) {
      const start = Number(m[1]);
      const count = m[2] === undefined ? 1 : Number(m[2]);
      // A pure deletion (count 0) sits after line `start`: mark the line it touched.
      current.push(
        count === 0
          ? { start: Math.max(1, start), end: Math.max(1, start) }
          : { start, end: start + count - 1 },
      );
    }
  }
  return out;
}

async function requireCommit(workspaceDir: string, ref: string): Promise<void> {
  try {
    await git(['rev-parse', '--is-inside-work-tree'], workspaceDir);
  } catch {
    throw new ChangeInputError(
      `${workspaceDir} is not inside a git repository: --since needs git (use --files a,b)`,
    );
  }
  assertRevision(ref, '--since', (m) => new ChangeInputError(m));
  try {
    await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], workspaceDir);
  } catch {
    throw new ChangeInputError(`--since: ${ref} is not a commit in this repository`);
  }
}
