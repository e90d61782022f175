// Affected-spec selection from per-spec coverage (safe first). For each spec and each changed file:
//  - the spec's recorded run executed the file, on the same content the change starts from: each hunk is
//    mapped to the innermost function or method definition around it (in the recorded content, and again in the
//    new content); the spec is selected when it executed that definition, or when the hunk is at module top
//    level (class bodies, a definition's first or closing line, a file that no longer parses count as top level)
//    since every run that loads the file executes its top level;
//  - anything else is left to the static import cone, with why: no coverage for the spec, coverage recorded
//    on other content of a file it ran, a new file, or a file its run did not execute (its cone may still
//    reach it: a lazy import, a browser test) — so coverage only ever narrows inside files a spec ran.
import type { IndexView } from '../anchors/resolve';
import type { ChangedFile } from '../git/changes';
import type { DiffHunk } from '../git/hunks';
import { functionUnits } from './collect';
import { sourceMapHint } from './sourceMaps';
import type { CoverageStore, FileCoverage, UnitRow } from './types';

export interface CoverageDecision {
  /** Why coverage selects the spec (empty: coverage does not select it for the changes it decided). */
  reasons: string[];
  /** Changes coverage cannot decide for this spec: the static path decides them. */
  undecided: Array<{ change: ChangedFile; why: string }>;
}

export interface CoverageView {
  decide(specId: string, changes: readonly ChangedFile[]): CoverageDecision;
  /** One line for people: which run(s) the coverage comes from. */
  describe(): string;
}

export interface CoverageBase {
  /** Blob id of a file at the base of the change (undefined: the file did not exist there, or is unknown). */
  hashAt(file: string): string | undefined;
  /** The diff's hunks of a file (old-side lines are the recorded content's), when the changed lines are known. */
  hunksOf(file: string): readonly DiffHunk[] | undefined;
  /** Files whose base content is unknown (`--files`): a covered one selects its spec whatever changed in it. */
  unknownBase: ReadonlySet<string>;
}

export function coverageView(store: CoverageStore, base: CoverageBase, index: IndexView): CoverageView {
  return {
    describe() {
      const runs = new Set(Object.values(store.specs).map((s) => s.runId));
      return `coverage of ${Object.keys(store.specs).length} spec(s) from ${runs.size} recorded run(s)`;
    },
    decide(specId, changes) {
      const record = store.specs[specId];
      const staticAll = (why: string): CoverageDecision => ({
        reasons: [],
        undecided: changes.map((change) => ({ change, why })),
      });
      if (record === undefined) return staticAll('no coverage is recorded for it');
      const changed = new Set(changes.map((c) => c.path));
      for (const [file, covered] of Object.entries(record.files)) {
        if (base.unknownBase.has(file) && changed.has(file)) continue;
        const at = base.hashAt(file);
        if (at === covered.hash) continue;
        if (at === undefined && covered.unmappedBecause !== undefined)
          // Build output git does not track, which coverage could not carry back to the source it came from.
          return staticAll(
            `coverage of ${file} (which git does not track) ${covered.unmappedBecause}; kept per file, so it cannot say which source functions ran (to narrow it: ${sourceMapHint(file)})`,
          );
        if (at === undefined)
          return staticAll(`its coverage was recorded on ${file}, which git does not track`);
        return staticAll(`its coverage was recorded on other content of ${file}`);
      }
      const reasons: string[] = [];
      const undecided: CoverageDecision['undecided'] = [];
      for (const change of changes) {
        const covered = record.files[change.path];
        if (change.status === 'added' || change.status === 'untracked') {
          undecided.push({ change, why: `${change.path} is a new file` });
        } else if (covered === undefined) {
          undecided.push({ change, why: `its recorded run did not execute ${change.path}` });
        } else {
          reasons.push(...coveredReasons(change, covered, store.units[covered.hash], base, index));
        }
      }
      return { reasons, undecided };
    },
  };
}

function coveredReasons(
  change: ChangedFile,
  covered: FileCoverage,
  units: readonly UnitRow[] | undefined,
  base: CoverageBase,
  index: IndexView,
): string[] {
  const file = change.path;
  const hunks = base.unknownBase.has(file) ? undefined : base.hunksOf(file);
  if (hunks === undefined || hunks.length === 0)
    return [`it executed ${file} in its recorded run (the changed lines are not known)`];
  if (covered.wholeFile === true || units === undefined) {
    const because = covered.wholeFileBecause ?? 'its functions are not known';
    const hint = covered.unmappedBecause !== undefined ? `; to narrow it: ${sourceMapHint(file)}` : '';
    return [`it executed ${file} in its recorded run (kept per file: ${because}${hint})`];
  }
  const out: string[] = [];
  const executed = new Set(covered.functions);
  for (const hunk of hunks) {
    const where = hunkPlace(hunk);
    const target = hunkTarget(hunk, units, index);
    if (target === 'top') out.push(`${where} changes module top level, which its test loads`);
    else {
      const hit = target.find((i) => executed.has(i));
      const from = covered.mappedFrom?.filter((f) => f !== file) ?? [];
      const through =
        from.length > 0
          ? ` (through the source map of ${from.join(', ')})`
          : covered.mappedFrom
            ? ' (mapped through its source map)'
            : '';
      if (hit !== undefined) out.push(`${where} is in ${units[hit]![0]}, which its test executed${through}`);
    }
  }
  return out;
}

/** `src/a.js:12` / `src/a.js:12-14` in the recorded (old) content. */
function hunkPlace(h: DiffHunk): string {
  if (h.oldCount === 0) return `${h.file}:${h.oldStart}+ (lines added)`;
  const end = h.oldStart + h.oldCount - 1;
  return end === h.oldStart ? `${h.file}:${h.oldStart}` : `${h.file}:${h.oldStart}-${end}`;
}

/**
 * The definitions a hunk changes (indices into the recorded content's units), or 'top' for module top level.
 * A hunk on a definition's first line (its name, parameters) or, outside Python, its closing line changes the
 * enclosing scope as well, so the enclosing definition (or top level) is the target.
 */
export function hunkTarget(hunk: DiffHunk, units: readonly UnitRow[], index: IndexView): number[] | 'top' {
  const newFile = index.files.get(hunk.file);
  if (hunk.wholeFile || newFile === undefined || newFile.hasSyntaxErrors) return 'top';
  const python = newFile.language === 'python';
  // 0-based old-side lines; an insertion sits between line a and a + 1.
  const insertion = hunk.oldCount === 0;
  const lo = hunk.oldStart - 1;
  const hi = insertion ? hunk.oldStart : hunk.oldStart + hunk.oldCount - 2;
  const around = units
    .map((u, i) => ({ i, start: u[1], end: u[2] }))
    .filter((u) => u.start <= lo && hi <= u.end)
    .sort((a, b) => a.end - a.start - (b.end - b.start));
  for (let k = 0; k < around.length; k++) {
    const span = around[k]!.end - around[k]!.start;
    const same = around.filter((u) => u.end - u.start === span);
    const touchesEdge = !insertion && same.some((u) => lo <= u.start || (!python && hi >= u.end));
    if (touchesEdge) {
      k += same.length - 1;
      continue;
    }
    const names = new Set(same.map((u) => units[u.i]![0]));
    if (!insideInNewContent(hunk, names, newFile)) return 'top';
    return same.map((u) => u.i);
  }
  return 'top';
}

/** The new side of the hunk still lies inside a definition of the same name (it was not moved out of it). */
function insideInNewContent(
  hunk: DiffHunk,
  names: ReadonlySet<string>,
  newFile: Parameters<typeof functionUnits>[0],
): boolean {
  if (hunk.newCount === 0) return true; // a pure deletion adds nothing that could land elsewhere
  const lo = hunk.newStart - 1;
  const hi = hunk.newStart + hunk.newCount - 2;
  return functionUnits(newFile).some(
    (u) => names.has(u.qualifiedName) && u.range.start.line < lo && hi <= u.range.end.line,
  );
}
