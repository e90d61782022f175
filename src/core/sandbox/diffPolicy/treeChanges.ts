// The changes between two git trees, in the shape the diff policy reads: an agent run's snapshots before and
// after the model's work, or a task's base and the base with a prediction applied. Only keyed manifests'
// content is read (the rest is judged by path), so a prediction that adds thousands of files costs one diff.
import { git, gitBuffer, splitNul, type GitOptions } from '../../git/git';
import { needsContent, type FileChange } from './classifyChanges';

/**
 * Every path that differs between `baseTree` and `afterTree`, relative to `cwd` (a folder of the repository the
 * trees belong to). Renames are split into a deletion and an addition, so both paths are judged.
 */
export async function changesBetweenTrees(
  cwd: string,
  baseTree: string,
  afterTree: string,
  options: Pick<GitOptions, 'env' | 'isolated'> = {},
): Promise<FileChange[]> {
  const listing = await git(
    ['diff', '--no-renames', '--relative', '--name-status', '-z', baseTree, afterTree, '--', '.'],
    cwd,
    options,
  );
  const prefix = (await git(['rev-parse', '--show-prefix'], cwd, options)).trim();
  const entries = splitNul(listing);
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < entries.length; i += 2) {
    const status = entries[i]!;
    const file = entries[i + 1]!;
    const existedBefore = status !== 'A';
    const existsAfter = status !== 'D';
    const change: FileChange = { path: file, existedBefore, existsAfter };
    if (needsContent(file)) {
      const blob = (tree: string): Promise<string> =>
        gitBuffer(['cat-file', 'blob', `${tree}:${prefix}${file}`], cwd, options).then((b) =>
          b.toString('utf8'),
        );
      if (existedBefore) change.before = await blob(baseTree);
      if (existsAfter) change.after = await blob(afterTree);
    }
    changes.push(change);
  }
  return changes;
}
