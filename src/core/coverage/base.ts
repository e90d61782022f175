// Where a change starts from, for coverage-based selection: the blob id of each file at the base (`--since
// REF`: REF's tree; `--files`: the files on disk, the listed ones unknown) and the diff's hunks.
import type { IndexView } from '../anchors/resolve';
import { ZERO_CONTEXT } from '../git/changes';
import { parseDiff, type DiffHunk } from '../git/hunks';
import { git } from '../git/git';
import { blobHashesAt, fileBlobHash } from './blobHash';
import { coverageView, type CoverageBase, type CoverageView } from './select';
import { readCoverageStore } from './store';

export interface CoverageViewOptions {
  workspaceDir: string;
  index: IndexView;
  since?: string;
  /** With `since`: the change ends at this tree (a snapshot), not at the files on disk. */
  to?: string;
  /** The change's `git diff -U0` (ZERO_CONTEXT), when the caller has read it already. */
  zeroContextDiff?: string;
  /** `--files`: workspace-relative paths whose changes (and base) are unknown. */
  files?: readonly string[];
}

/** The coverage view of a workspace's recorded coverage, or undefined when none is recorded. */
export async function loadCoverageView(options: CoverageViewOptions): Promise<CoverageView | undefined> {
  const store = await readCoverageStore(options.workspaceDir);
  if (Object.keys(store.specs).length === 0) return undefined;
  let base: CoverageBase;
  if (options.files !== undefined) {
    const covered = new Set(Object.values(store.specs).flatMap((s) => Object.keys(s.files)));
    const onDisk = new Map<string, string | undefined>();
    await Promise.all(
      [...covered].map(async (f) => onDisk.set(f, await fileBlobHash(options.workspaceDir, f))),
    );
    base = {
      hashAt: (file) => onDisk.get(file),
      hunksOf: () => undefined,
      unknownBase: new Set(options.files),
    };
  } else {
    const ref = options.since ?? 'HEAD';
    const [hashes, diff] = await Promise.all([
      blobHashesAt(options.workspaceDir, ref),
      options.zeroContextDiff ??
        git(
          ['diff', ...ZERO_CONTEXT, ref, ...(options.to !== undefined ? [options.to] : []), '--'],
          options.workspaceDir,
        ),
    ]);
    const hunks = new Map<string, DiffHunk[]>();
    for (const h of parseDiff(diff).hunks) hunks.set(h.file, [...(hunks.get(h.file) ?? []), h]);
    base = { hashAt: (file) => hashes.get(file), hunksOf: (file) => hunks.get(file), unknownBase: new Set() };
  }
  return coverageView(store, base, options.index);
}
