// Materialises the two states of a workspace that a task is made of, as plain files in a scratch folder:
// the base (a commit's tree, restricted to the workspace folder) and the target (the working tree as the user
// sees it: tracked files with their uncommitted edits plus untracked files that .gitignore does not ignore).
// Only the user's repository is READ; every write goes to the scratch folder. Secret files are left out and
// every text file has this machine's absolute paths scrubbed, identically in both states, so the patches
// between them stay exact.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { git, longRunningGit, splitNul } from '../../git/git';
import { containsSecret, isSecretFileName, isText, type ExcludedFile, type PathScrubber } from './hygiene';

export interface SnapshotOptions {
  /** The workspace folder (may be a subfolder of its repository). */
  workspaceDir: string;
  /** The workspace's path inside its repository, with a trailing slash, or '' at the root. */
  prefix: string;
  destination: string;
  scrubber: PathScrubber;
  /** Workspace-relative paths (files or folders) never to include, e.g. the export's own output folder. */
  skip: string[];
}

export interface SnapshotResult {
  files: number;
  excluded: ExcludedFile[];
}

interface Entry {
  path: string;
  kind: 'file' | 'executable' | 'symlink';
  read(): Promise<Buffer>;
}

/** Writes the tree of `commit` (the workspace part of it) into `destination`. */
export async function snapshotCommit(commit: string, options: SnapshotOptions): Promise<SnapshotResult> {
  const treeish =
    options.prefix === '' ? `${commit}^{tree}` : `${commit}:${options.prefix.replace(/\/$/, '')}`;
  const listing = splitNul(await git(['ls-tree', '-r', '-z', '--full-tree', treeish], options.workspaceDir));
  const blobs = new BlobReader(options.workspaceDir);
  const entries: Entry[] = [];
  const excluded: ExcludedFile[] = [];
  try {
    for (const line of listing) {
      const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(line);
      if (!match) continue;
      const [, mode, type, sha, file] = match as unknown as [string, string, string, string, string];
      if (type !== 'blob') {
        excluded.push({ path: file, reason: 'not a regular file' }); // submodules
        continue;
      }
      const kind = mode === '120000' ? 'symlink' : mode === '100755' ? 'executable' : 'file';
      entries.push({ path: file, kind, read: () => blobs.read(sha) });
    }
    const result = await writeEntries(entries, options);
    return { files: result.files, excluded: [...excluded, ...result.excluded] };
  } finally {
    blobs.close();
  }
}

/** Writes the working tree (tracked + untracked non-ignored files, as they are on disk) into `destination`. */
export async function snapshotWorkingTree(options: SnapshotOptions): Promise<SnapshotResult> {
  const listed = splitNul(
    await git(
      ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'],
      options.workspaceDir,
    ),
  );
  const entries: Entry[] = [];
  const excluded: ExcludedFile[] = [];
  for (const file of new Set(listed)) {
    const absolute = path.join(options.workspaceDir, file);
    let stat;
    try {
      stat = await fs.lstat(absolute);
    } catch {
      continue; // deleted in the working tree: absent from the target state
    }
    if (stat.isSymbolicLink()) {
      entries.push({
        path: file,
        kind: 'symlink',
        read: async () => Buffer.from(await fs.readlink(absolute)),
      });
    } else if (stat.isFile()) {
      const kind = (stat.mode & 0o111) !== 0 ? 'executable' : 'file';
      entries.push({ path: file, kind, read: () => fs.readFile(absolute) });
    } else {
      excluded.push({ path: file, reason: 'not a regular file' }); // nested repositories, sockets
    }
  }
  const result = await writeEntries(entries, options);
  return { files: result.files, excluded: [...excluded, ...result.excluded] };
}

async function writeEntries(entries: Entry[], options: SnapshotOptions): Promise<SnapshotResult> {
  const excluded: ExcludedFile[] = [];
  let files = 0;
  for (const entry of entries) {
    if (options.skip.some((s) => entry.path === s || entry.path.startsWith(`${s}/`))) {
      excluded.push({ path: entry.path, reason: 'export output' });
      continue;
    }
    // Not user content, so not listed either (an index cache holds hundreds of files).
    if (isWeaveState(entry.path)) continue;
    if (isSecretFileName(entry.path)) {
      excluded.push({ path: entry.path, reason: 'secret file name' });
      continue;
    }
    let content = await entry.read();
    if (containsSecret(content, entry.path)) {
      excluded.push({ path: entry.path, reason: 'secret-like content' });
      continue;
    }
    if (isText(content)) content = Buffer.from(options.scrubber.scrub(content.toString('utf8')), 'utf8');
    const target = path.join(options.destination, entry.path);
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (entry.kind === 'symlink') await fs.symlink(content.toString('utf8'), target);
    else await fs.writeFile(target, content, { mode: entry.kind === 'executable' ? 0o755 : 0o644 });
    files++;
  }
  return { files, excluded };
}

// Of .weave/, a task carries the spec file (and its .gitignore); runs, caches and trajectories are this
// machine's state, whether or not a .gitignore says so.
const WEAVE_FILES_IN_TASKS = new Set(['.weave/specs.json', '.weave/.gitignore']);

function isWeaveState(file: string): boolean {
  return file.startsWith('.weave/') && !WEAVE_FILES_IN_TASKS.has(file);
}

/** `git cat-file --batch`: one process for all blobs of a tree instead of one per file. */
class BlobReader {
  private readonly child;
  private buffer = Buffer.alloc(0);
  private waiting: Array<{ resolve: (b: Buffer) => void; reject: (e: Error) => void }> = [];
  private failure: Error | undefined;

  constructor(cwd: string) {
    this.child = longRunningGit(['cat-file', '--batch'], cwd);
    this.child.stderr.resume();
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    this.child.on('error', (e) => this.fail(e));
    this.child.on('exit', () => this.fail(new Error('git cat-file exited early')));
  }

  read(sha: string): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.stdin.write(`${sha}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
  }

  private drain(): void {
    for (;;) {
      const newline = this.buffer.indexOf(10);
      if (newline < 0) return;
      const header = this.buffer.subarray(0, newline).toString('utf8');
      const size = Number(/^\S+ \S+ (\d+)$/.exec(header)?.[1]);
      const waiter = this.waiting[0];
      if (!Number.isFinite(size) || waiter === undefined) {
        this.fail(new Error(`git cat-file: unexpected answer '${header}'`));
        return;
      }
      if (this.buffer.length < newline + 1 + size + 1) return;
      const content = Buffer.from(this.buffer.subarray(newline + 1, newline + 1 + size));
      this.buffer = this.buffer.subarray(newline + 1 + size + 1);
      this.waiting.shift();
      waiter.resolve(content);
    }
  }

  private fail(error: Error): void {
    if (this.waiting.length === 0 && this.buffer.length === 0) {
      this.failure ??= error;
      return;
    }
    this.failure = error;
    for (const w of this.waiting.splice(0)) w.reject(error);
  }
}
