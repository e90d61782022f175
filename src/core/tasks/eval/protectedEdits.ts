// What a prediction's patch does to a task's protected set, for the eval report. Every verifier restores the set
// the task ships (protected_files) before it scores, so an edit to one of those changes nothing and is only named;
// a test-support file the patch creates where the task had none (a new conftest.py, a new helper in a test
// folder: the sandbox's rule, protectedFiles.ts) is not in that list, nothing removes it, and evalInstance does
// not let the instance resolve — the same rule as a contained run that creates one (tampered).
import { isProtectedPath } from '../../sandbox/protectedFiles';
import { filesTouchedBy } from '../predictions';
import { isSpecTestPath, protectedFilesOf, type Task } from '../taskFormat';
import { specFileOf } from '../export/taskRecord';

export interface ProtectedEdits {
  /** Spec test files or .weave/ (reset before the specs run). */
  specTests: string[];
  /** Other protected files: test-support files and helpers in the test folders. */
  testSupport: string[];
}

export function protectedEditsOf(patch: string, task: Task): ProtectedEdits {
  const touched = filesTouchedBy(patch);
  const restored = new Set(protectedFilesOf(task));
  const specFile = specFileOf(task);
  const specTests = touched.filter((f) => isSpecTestPath(f, task.spec_test_files));
  const testSupport = touched.filter(
    (f) => !specTests.includes(f) && (restored.has(f) || isProtectedPath(f, specFile)),
  );
  return { specTests, testSupport };
}
