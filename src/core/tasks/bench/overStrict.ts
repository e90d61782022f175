// The over-strict flag of `weave mine review`: a constraint spec that rejects a correct alternative. What the
// review observes per candidate is its patch and, from `weave eval`, each spec's verdict under it; per task, the
// gold patch and each spec's anchors (the code it declares it constrains). A spec S of a task is over-strict when
// some candidate (any model, repeat or candidate index)
//   1. was scored (its patch applied, no infrastructure failure, nothing tampered),
//   2. passes every FAIL_TO_PASS spec and every PASS_TO_PASS spec but S, and fails S (S is a PASS_TO_PASS
//      constraint: it passed before the change and with the gold),
//   3. changes S's anchored files exactly as the gold does (the same per-file diff, or neither touches them), and S
//      has at least one anchor.
// Then S rejected, for something outside the code it constrains, a patch every other check accepts and whose code
// under S equals the gold's. A spec without anchors (the mined keep-… specs) gives no observable to compare and is
// never flagged; a candidate that changes S's code differently from the gold is not evidence either way.
import type { InstanceReport } from '../eval/evalReport';

export interface OverStrictTask {
  patch: string;
  FAIL_TO_PASS: readonly string[];
  PASS_TO_PASS: readonly string[];
  specs: ReadonlyArray<{ id: string; anchors: readonly string[] }>;
}

/** The candidate that shows S over-strict: which model, repeat and candidate (1-based). */
export interface OverStrictEvidence {
  spec: string;
  model: string;
  repeat: number;
  candidate: number;
}

/** The constraint spec this candidate shows over-strict, or undefined. */
export function overStrictSpec(
  task: OverStrictTask,
  report: InstanceReport | undefined,
  candidatePatch: string,
): string | undefined {
  if (report === undefined || !report.patch_successfully_applied || report.infra_failure !== undefined)
    return undefined;
  if ((report.tampered_files?.length ?? 0) > 0 || (report.test_infrastructure?.length ?? 0) > 0)
    return undefined;
  const passes = (id: string): boolean => report.spec_results[id]?.verdict === 'pass';
  if (!task.FAIL_TO_PASS.every(passes)) return undefined;
  const failing = task.PASS_TO_PASS.filter((id) => !passes(id));
  if (failing.length !== 1) return undefined;
  const suspect = failing[0] as string;
  if (report.spec_results[suspect]?.verdict !== 'fail') return undefined; // an error or a timeout is no evidence
  const anchors = task.specs.find((s) => s.id === suspect)?.anchors ?? [];
  const files = [...new Set(anchors.map((a) => a.split('#')[0] as string))];
  if (files.length === 0) return undefined;
  const gold = filePatches(task.patch);
  const candidate = filePatches(candidatePatch);
  const same = files.every((file) => sectionOf(gold, file) === sectionOf(candidate, file));
  return same ? suspect : undefined;
}

/** A unified diff split per file (keyed by the path after the change), without the blob-hash `index` lines. */
function filePatches(patch: string): Map<string, string> {
  const sections = new Map<string, string>();
  let key: string | undefined;
  for (const line of patch.split('\n')) {
    const header = /^diff --git a\/(.+?) b\/(.+)$/.exec(line);
    if (header) {
      key = header[2] as string;
      sections.set(key, '');
    } else if (key !== undefined && !line.startsWith('index ') && line !== '') {
      // A blank line is no diff line: only a patch's end has one, so the last file's section would differ.
      sections.set(key, `${sections.get(key) ?? ''}${line}\n`);
    }
  }
  return sections;
}

/** The patch of `file` (an anchor path, relative to the project folder, which may be a subfolder of the repo). */
function sectionOf(sections: Map<string, string>, file: string): string {
  for (const [key, text] of sections) if (key === file || key.endsWith(`/${file}`)) return text;
  return '';
}
