// What a test file is named like, one rule for the diff policy (core/sandbox/diffPolicy/scope.ts), coverage's
// "code under test" and the panel form's warning about a source file listed as a spec's test file. Browser-safe.

/** node/vitest/jest `*.test.*` / `*.spec.*`, pytest `test_*.py` / `*_test.py`, go `*_test.go`. */
export function looksLikeTestFile(relativePath: string): boolean {
  const name = relativePath.replace(/\\/g, '/').split('/').pop() ?? '';
  return /(^test_.*\.py$)|(_test\.(py|go)$)|(\.(test|spec)\.[cm]?[jt]sx?$)/.test(name);
}
