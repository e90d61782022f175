// Coverage shows the code under test, not the tests: a spec's own test files, files named like tests, and the
// helpers in the specs' test folders are executed by every run and would crowd out (and inflate) the files a
// person reads coverage for. One rule, the diff policy's (sandbox/diffPolicy/scope.ts), so "a test file" means the
// same thing here as for what an agent may not edit.
import { looksLikeTestFile, normalisePath, policyScopeOf } from '../sandbox/diffPolicy/scope';

interface SpecLike {
  test: { files: readonly string[]; cwd?: string | undefined };
}

/** A predicate over workspace-relative paths: true for code under test, false for test files and test helpers. */
export function codeUnderTestFilter(
  specs: readonly SpecLike[],
  defaultCwd = '.',
): (relativePath: string) => boolean {
  const scope = policyScopeOf(specs, defaultCwd);
  return (relativePath) => {
    const rel = normalisePath(relativePath);
    if (scope.testFiles.has(rel) || looksLikeTestFile(rel)) return false;
    return !scope.testFolders.some((folder) => rel.startsWith(`${folder}/`));
  };
}
