// A small reader for the unified diffs `git diff` writes: which files changed, and the added and removed
// lines of each with their line numbers. Enough for the review's checks; binary hunks are only listed.

export interface DiffLine {
  /** 1-based line number in the new file (added) or the old file (removed). */
  line: number;
  text: string;
}

export interface FileDiff {
  oldPath: string | null;
  newPath: string | null;
  /** The path to report: the new path, or the old one for a deletion. */
  path: string;
  status: 'added' | 'deleted' | 'modified' | 'renamed';
  added: DiffLine[];
  removed: DiffLine[];
}

export function parseUnifiedDiff(patch: string): FileDiff[] {
  const files: FileDiff[] = [];
  let current: FileDiff | undefined;
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const raw of patch.split('\n')) {
    const header = /^diff --git a\/(.*) b\/(.*)$/.exec(raw);
    if (header) {
      current = {
        oldPath: header[1]!,
        newPath: header[2]!,
        path: header[2]!,
        status: 'modified',
        added: [],
        removed: [],
      };
      files.push(current);
      inHunk = false;
      continue;
    }
    if (!current) continue;
    if (!inHunk) {
      if (raw.startsWith('new file mode')) current.status = 'added';
      else if (raw.startsWith('deleted file mode')) current.status = 'deleted';
      else if (raw.startsWith('rename from ')) current.status = 'renamed';
      else if (raw === '--- /dev/null') current.oldPath = null;
      else if (raw === '+++ /dev/null') {
        current.newPath = null;
        current.path = current.oldPath ?? current.path;
      }
    }
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      continue;
    }
    if (!inHunk) continue;
    if (raw.startsWith('+')) current.added.push({ line: newLine++, text: raw.slice(1) });
    else if (raw.startsWith('-')) current.removed.push({ line: oldLine++, text: raw.slice(1) });
    else if (raw.startsWith(' ')) {
      oldLine++;
      newLine++;
    }
  }
  return files;
}
