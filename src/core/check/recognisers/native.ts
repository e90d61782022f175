// Compiled-language test runners: go test and cargo test (with their listing modes).
import { count, type Recogniser } from './shared';

/**
 * go test: per-test lines with -v (`--- PASS: TestX`), otherwise one line per package: `ok  pkg 0.01s`,
 * `FAIL pkg 0.01s`, `?   pkg [no test files]`, `ok  pkg 0.01s [no tests to run]`.
 */
export const goTest: Recogniser = (text) => {
  const packages = [...text.matchAll(/^(ok|FAIL|\?)\s+\S+\s+(.*)$/gm)].filter((m) =>
    /^(?:\(cached\)|\d+(?:\.\d+)?s|\[no test files\]|\[setup failed\]|\[build failed\])/.test(m[2] ?? ''),
  );
  // Top-level tests only: a failing subtest also fails its parent.
  const perTest = [...text.matchAll(/^--- (PASS|FAIL|SKIP): \S+/gm)];
  const noTests = /^testing: warning: no tests to run$/m.test(text);
  if (packages.length === 0 && perTest.length === 0 && !noTests) return undefined;
  // `go test -list REGEX` prints the matching names, then `ok pkg 0.01s`, without running any of them.
  if (perTest.length === 0 && /^(?:Test|Benchmark|Example|Fuzz)\w*$/m.test(text))
    return { runner: 'go test', passed: 0, failed: 0, skipped: 0, listing: true };
  if (perTest.length > 0) {
    return {
      runner: 'go test',
      passed: perTest.filter((m) => m[1] === 'PASS').length,
      failed:
        perTest.filter((m) => m[1] === 'FAIL').length +
        packages.filter((m) => /\[(?:setup|build) failed\]/.test(m[2] ?? '')).length,
      skipped: perTest.filter((m) => m[1] === 'SKIP').length,
    };
  }
  // Without -v only packages are counted: a package that ran tests counts as one passed or failed unit.
  const ran = packages.filter((m) => m[1] !== '?' && !/\[no tests to run\]/.test(m[2] ?? ''));
  return {
    runner: 'go test',
    passed: ran.filter((m) => m[1] === 'ok').length,
    failed: ran.filter((m) => m[1] === 'FAIL').length,
    skipped: 0,
  };
};

/**
 * cargo test: one `test result: ok. 3 passed; 0 failed; 1 ignored; …` per test binary (doc tests too): summed.
 * `cargo test --no-run` builds and names the test binaries (`Executable unittests src/lib.rs (…)`), runs none.
 */
export const cargoTest: Recogniser = (text) => {
  const lines = [...text.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/gm)];
  if (lines.length === 0) {
    return /^\s*Executable .+\(\S*target\S*\)$/m.test(text)
      ? { runner: 'cargo test', passed: 0, failed: 0, skipped: 0, listing: true }
      : undefined;
  }
  return {
    runner: 'cargo test',
    passed: lines.reduce((n, m) => n + count(m, 1), 0),
    failed: lines.reduce((n, m) => n + count(m, 2), 0),
    skipped: lines.reduce((n, m) => n + count(m, 3), 0),
  };
};
