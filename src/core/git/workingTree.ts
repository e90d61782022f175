// The working tree as a git tree object, written through a private copy of the index so the user's index (and
// what they staged) is left exactly as it was. Blame diffs against it with untracked files included; coverage
// keeps it as the state a run's coverage describes, with tracked files only, the set `git diff TREE` compares.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from './git';

export interface WorkingTreeOptions {
  /** `all`: untracked (non-ignored) files too; `tracked`: the files git tracks, as they are on disk. */
  include: 'all' | 'tracked';
  signal?: AbortSignal;
}

/** The id of a tree object holding the workspace folder's files as they are on disk (the rest as indexed). */
export async function workingTreeObject(
  root: string,
  workspaceDir: string,
  options: WorkingTreeOptions = { include: 'all' },
): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-index-'));
  const signal = options.signal ? { signal: options.signal } : {};
  try {
    const indexFile = path.join(dir, 'index');
    const realIndex = path.resolve(root, (await git(['rev-parse', '--git-path', 'index'], root)).trim());
    const env = { GIT_INDEX_FILE: indexFile };
    // The copy keeps the index's own mtime: git trusts an entry's stat data only when the file is older than
    // the index, so a fresh mtime would hide an edit made in the same second as the last index write.
    const copied = await fs.cp(realIndex, indexFile, { preserveTimestamps: true }).then(
      () => true,
      () => false,
    );
    if (
      !copied &&
      (await git(['rev-parse', '--verify', '--quiet', 'HEAD'], root).then(
        () => true,
        () => false,
      ))
    ) {
      await git(['read-tree', 'HEAD'], root, { env, ...signal });
    }
    const add = options.include === 'all' ? ['add', '-A', '--', '.'] : ['add', '-u', '--', '.'];
    await git(add, workspaceDir, { env, ...signal });
    return (await git(['write-tree'], root, { env, ...signal })).trim();
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
