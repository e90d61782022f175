// A `git diff -U0 --binary` split into independently applicable units (one per hunk, or one per file for
// binary and mode-only changes), and the patch made of any subset of them. With zero context lines every hunk
// is located by its old-side line numbers alone, which refer to the base and so stay right whichever other
// hunks are left out; only each kept hunk's new-side start is recomputed.

export interface DiffHunk {
  /** Index of this unit in the whole diff (stable identity for delta debugging). */
  id: number;
  /** Repository-relative path of the new file (old path for a deletion). */
  file: string;
  /** Old-side start and count as in the `@@` header (start 0 with count 0 for a new file). */
  oldStart: number;
  oldCount: number;
  /** New-side start and count in the full diff, i.e. in the working tree. */
  newStart: number;
  newCount: number;
  /** The `-`/`+` lines (and `\ No newline at end of file` markers); empty for a whole-file unit. */
  body: string[];
  /** Binary or mode-only change: the file's whole section is one unit. */
  wholeFile: boolean;
  kind: 'added' | 'deleted' | 'modified';
}

interface FileSection {
  file: string;
  header: string[];
  hunks: DiffHunk[];
  /** Raw section text for whole-file units. */
  raw: string[];
}

export interface ParsedDiff {
  sections: FileSection[];
  hunks: DiffHunk[];
}

export function parseDiff(diff: string): ParsedDiff {
  const sections: FileSection[] = [];
  const hunks: DiffHunk[] = [];
  const lines = diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let section: FileSection | undefined;
  let kind: DiffHunk['kind'] = 'modified';
  let current: DiffHunk | undefined;
  let binary = false;
  const finish = (): void => {
    if (!section) return;
    if (section.hunks.length === 0) {
      // Binary, mode-only or empty-file change: apply it whole.
      const unit: DiffHunk = {
        id: hunks.length,
        file: section.file,
        oldStart: 0,
        oldCount: 0,
        newStart: 0,
        newCount: 0,
        body: [],
        wholeFile: true,
        kind,
      };
      section.hunks.push(unit);
      hunks.push(unit);
    }
    sections.push(section);
  };
  for (const line of lines) {
    if (line.startsWith('diff --git ')) {
      finish();
      const m = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
      section = { file: unquote(m?.[2] ?? line.slice(11)), header: [line], hunks: [], raw: [line] };
      kind = 'modified';
      current = undefined;
      binary = false;
      continue;
    }
    if (!section) continue;
    section.raw.push(line);
    const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunkHeader && !binary) {
      current = {
        id: hunks.length,
        file: section.file,
        oldStart: Number(hunkHeader[1]),
        oldCount: hunkHeader[2] === undefined ? 1 : Number(hunkHeader[2]),
        newStart: Number(hunkHeader[3]),
        newCount: hunkHeader[4] === undefined ? 1 : Number(hunkHeader[4]),
        body: [],
        wholeFile: false,
        kind,
      };
      section.hunks.push(current);
      hunks.push(current);
      continue;
    }
    if (current) {
      current.body.push(line);
      continue;
    }
    if (line.startsWith('new file mode')) kind = 'added';
    if (line.startsWith('deleted file mode')) kind = 'deleted';
    if (line.startsWith('GIT binary patch') || line.startsWith('Binary files ')) binary = true;
    if (line.startsWith('--- a/') && kind === 'deleted') section.file = unquote(line.slice(6));
    section.header.push(line);
  }
  finish();
  for (const s of sections) for (const h of s.hunks) h.kind = kindOf(s);
  return { sections, hunks };
}

function kindOf(section: FileSection): DiffHunk['kind'] {
  if (section.header.some((l) => l.startsWith('new file mode'))) return 'added';
  if (section.header.some((l) => l.startsWith('deleted file mode'))) return 'deleted';
  return 'modified';
}

/** The patch that applies exactly the hunks in `keep` to the base (apply with `git apply --unidiff-zero`). */
export function buildPatch(diff: ParsedDiff, keep: ReadonlySet<number>): string {
  const out: string[] = [];
  for (const section of diff.sections) {
    const kept = section.hunks.filter((h) => keep.has(h.id));
    if (kept.length === 0) continue;
    if (kept[0]!.wholeFile) {
      out.push(...section.raw);
      continue;
    }
    // The blob ids on the `index` line describe the full change, not this subset.
    out.push(...section.header.filter((l) => !l.startsWith('index ')));
    let delta = 0;
    for (const h of kept) {
      let newStart = h.oldStart + delta;
      if (h.oldCount === 0) newStart += 1;
      if (h.newCount === 0) newStart -= 1;
      out.push(`@@ -${h.oldStart},${h.oldCount} +${newStart},${h.newCount} @@`);
      out.push(...h.body);
      delta += h.newCount - h.oldCount;
    }
  }
  return out.length === 0 ? '' : out.join('\n') + '\n';
}

/** `src/cache.js:42-43` style location of a hunk in the working tree. */
export function describeHunk(h: DiffHunk): string {
  if (h.kind === 'deleted') return `${h.file} (file deleted)`;
  if (h.wholeFile) return `${h.file} (${h.kind === 'added' ? 'new file' : 'binary or mode change'})`;
  const end = h.newStart + h.newCount - 1;
  if (h.newCount === 0) {
    return `${h.file}:${Math.max(1, h.newStart)} (${h.oldCount} line${h.oldCount === 1 ? '' : 's'} deleted)`;
  }
  const lines = end === h.newStart ? `${h.file}:${h.newStart}` : `${h.file}:${h.newStart}-${end}`;
  return h.kind === 'added' ? `${lines} (new file)` : lines;
}

/** git quotes paths with unusual characters as C strings ("a\\tb"); JSON reads the common escapes. */
export function unquote(p: string): string {
  if (!p.startsWith('"')) return p;
  try {
    return JSON.parse(p) as string;
  } catch {
    return p;
  }
}
