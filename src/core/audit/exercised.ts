// "Which code does this spec exercise?" — the one question the audit asks before it mutates anything, answered
// in one place so per-spec coverage (src/core/coverage/) can replace the static answer without touching the rest.
// Today: the symbols (or files) the spec anchors; a spec with no anchors falls back to the source files its test
// loads through static imports (its import cone, src/core/selection/cones.ts), minus the test files themselves.
import type { ResolvedAnchor } from '../anchors/resolve';
import type { IndexView } from '../anchors/resolve';
import { specCones } from '../selection/cones';
import type { Range } from '../index';
import type { SpecFile } from '../../shared/specSchema';
import { isMutableLanguage, type MutableLanguage } from './operators';

export interface ExercisedFile {
  file: string;
  language: MutableLanguage;
  /** 0-based line ranges; a file-wide entry spans the whole file. */
  ranges: Range[];
  /** Where the answer came from, shown with the result. */
  source: 'anchor' | 'import-cone';
}

export interface ExercisedInput {
  specFile: SpecFile;
  index: IndexView;
  resolved: Map<string, ResolvedAnchor[]>;
  workspaceDir: string;
}

const WHOLE_FILE: Range = {
  start: { line: 0, column: 0 },
  end: { line: Number.MAX_SAFE_INTEGER, column: 0 },
};
const TEST_PATH =
  /(^|\/)(?:test|tests|__tests__|spec|specs)\/|\.(?:test|spec)\.[cm]?[jt]sx?$|_test\.py$|(^|\/)test_[^/]*\.py$|(^|\/)conftest\.py$/;

/** Spec id → the code its test exercises, restricted to languages the mutation operators know. */
export function exercisedCode(
  input: ExercisedInput,
  specIds: readonly string[],
): Map<string, ExercisedFile[]> {
  const out = new Map<string, ExercisedFile[]>();
  let cones: ReturnType<typeof specCones> | undefined;
  for (const id of specIds) {
    const spec = input.specFile.specs.find((s) => s.id === id);
    if (!spec) continue;
    const byFile = new Map<string, ExercisedFile>();
    const add = (file: string, range: Range, source: ExercisedFile['source']): void => {
      const language = input.index.files.get(file)?.language;
      if (language === undefined || !isMutableLanguage(language)) return;
      const entry = byFile.get(file) ?? { file, language, ranges: [], source };
      entry.ranges.push(range);
      byFile.set(file, entry);
    };
    const anchors = input.resolved.get(id) ?? [];
    for (const anchor of anchors)
      add(anchor.file, anchor.symbol === undefined ? WHOLE_FILE : anchor.range, 'anchor');
    if (anchors.length === 0) {
      cones ??= specCones(input.specFile, input.index, { workspaceDir: input.workspaceDir });
      const ownTests = new Set(spec.test.files.map((f) => f.replace(/^\.\//, '')));
      for (const file of cones.get(id)?.parent.keys() ?? []) {
        if (!ownTests.has(file) && !TEST_PATH.test(file)) add(file, WHOLE_FILE, 'import-cone');
      }
    }
    out.set(id, [...byFile.values()]);
  }
  return out;
}
