// Recognises the closing summary a test runner prints, so that "exit 0" alone never counts as a pass: a run
// that reports zero tests is an error ("ran no test"). Recognisers are tried from the most to the least
// specific format; the first that matches wins. When none matches, the exit code alone decides the verdict
// (a plain script that exits 0 is a pass) — see verdictOf in verdict.ts.
import type { TestSummary } from './types';

type Recogniser = (text: string) => TestSummary | undefined;

// eslint-disable-next-line no-control-regex -- ANSI escape sequences are control characters by definition
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

function count(match: RegExpMatchArray | null | undefined, group = 1): number {
  const value = match?.[group];
  return value === undefined ? 0 : Number(value);
}

function lastMatch(text: string, pattern: RegExp): RegExpMatchArray | undefined {
  let last: RegExpMatchArray | undefined;
  for (const m of text.matchAll(pattern)) last = m;
  return last;
}

/** `name N` counters after the last `tests N` line, in node:test's TAP (`# pass 3`) or spec (`ℹ pass 3`) reporter. */
const nodeTest: Recogniser = (text) => {
  const tests = lastMatch(text, /^[#ℹ] tests (\d+)$/gm);
  if (!tests || tests.index === undefined) return undefined;
  const rest = text.slice(tests.index);
  const field = (name: string): number => count(rest.match(new RegExp(`^[#ℹ] ${name} (\\d+)$`, 'm')));
  return {
    runner: 'node:test',
    passed: field('pass'),
    failed: field('fail') + field('cancelled'),
    skipped: field('skipped') + field('todo'),
  };
};

/** mocha's spec reporter: `  3 passing (12ms)`, `  1 failing`, `  2 pending`. */
const mocha: Recogniser = (text) => {
  const passing = lastMatch(text, /^\s*(\d+) passing \(\d+(?:\.\d+)?\s*m?s\)\s*$/gm);
  if (!passing || passing.index === undefined) return undefined;
  const rest = text.slice(passing.index);
  return {
    runner: 'mocha',
    passed: count(passing),
    failed: count(rest.match(/^\s*(\d+) failing\s*$/m)),
    skipped: count(rest.match(/^\s*(\d+) pending\s*$/m)),
  };
};

function tallyParts(parts: string): { passed: number; failed: number; skipped: number } {
  const get = (word: string): number => count(parts.match(new RegExp(`(\\d+) ${word}`)));
  return { passed: get('passed'), failed: get('failed'), skipped: get('skipped') + get('todo') };
}

/** vitest: `      Tests  1 failed | 2 passed | 1 skipped (4)`; `No test files found` when nothing was collected. */
const vitest: Recogniser = (text) => {
  const line = lastMatch(text, /^\s*Tests\s{2,}((?:\d+ \w+(?: \| )?)+)\s*\(\d+\)/gm);
  if (line) return { runner: 'vitest', ...tallyParts(line[1] ?? '') };
  if (/No test files found, exiting with code \d/.test(text))
    return { runner: 'vitest', passed: 0, failed: 0, skipped: 0 };
  return undefined;
};

/** jest: `Tests:       1 failed, 1 skipped, 2 passed, 4 total`; `No tests found, exiting with code N`. */
const jest: Recogniser = (text) => {
  const line = lastMatch(text, /^Tests:\s+(.*?\d+ total)\s*$/gm);
  if (line) return { runner: 'jest', ...tallyParts(line[1] ?? '') };
  if (/^No tests found, exiting with code \d/m.test(text))
    return { runner: 'jest', passed: 0, failed: 0, skipped: 0 };
  return undefined;
};

/** pytest: `===== 1 failed, 2 passed, 1 skipped in 0.12s =====` (or without the rules in -q), `no tests ran`. */
const pytest: Recogniser = (text) => {
  const line = lastMatch(
    text,
    /^=*\s*((?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)(?:, )?)+|no tests ran) in \d+(?:\.\d+)?s\b/gm,
  );
  if (!line) return undefined;
  const parts = line[1] ?? '';
  const get = (word: string): number => count(parts.match(new RegExp(`(\\d+) ${word}\\b`)));
  return {
    runner: 'pytest',
    // xfailed / xpassed tests did run; whether an xpass fails the run (strict mode) shows in the exit code.
    passed: get('passed') + get('xfailed') + get('xpassed'),
    failed: get('failed') + get('errors?'),
    skipped: get('skipped'),
  };
};

/**
 * go test: per-test lines with -v (`--- PASS: TestX`), otherwise one line per package: `ok  pkg 0.01s`,
 * `FAIL pkg 0.01s`, `?   pkg [no test files]`, `ok  pkg 0.01s [no tests to run]`.
 */
const goTest: Recogniser = (text) => {
  const packages = [...text.matchAll(/^(ok|FAIL|\?)\s+\S+\s+(.*)$/gm)].filter((m) =>
    /^(?:\(cached\)|\d+(?:\.\d+)?s|\[no test files\]|\[setup failed\]|\[build failed\])/.test(m[2] ?? ''),
  );
  // Top-level tests only: a failing subtest also fails its parent.
  const perTest = [...text.matchAll(/^--- (PASS|FAIL|SKIP): \S+/gm)];
  const noTests = /^testing: warning: no tests to run$/m.test(text);
  if (packages.length === 0 && perTest.length === 0 && !noTests) return undefined;
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

/** cargo test: one `test result: ok. 3 passed; 0 failed; 1 ignored; …` per test binary (doc tests too): summed. */
const cargoTest: Recogniser = (text) => {
  const lines = [...text.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/gm)];
  if (lines.length === 0) return undefined;
  return {
    runner: 'cargo test',
    passed: lines.reduce((n, m) => n + count(m, 1), 0),
    failed: lines.reduce((n, m) => n + count(m, 2), 0),
    skipped: lines.reduce((n, m) => n + count(m, 3), 0),
  };
};

/** TAP: a plan `1..N` and top-level `ok` / `not ok` lines (`# SKIP` / `# TODO` directives count as skipped). */
const tap: Recogniser = (text) => {
  const plan = text.match(/^1\.\.(\d+)\b/m);
  if (!plan) return undefined;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const m of text.matchAll(/^(not ok|ok)\b[^\n#]*(#\s*(SKIP|TODO)\b)?/gim)) {
    if (m[3]) skipped++;
    else if (m[1] === 'ok') passed++;
    else failed++;
  }
  return { runner: 'tap', passed, failed, skipped };
};

/** A plain `5 passed, 1 failed` line, as many home-grown runners print. */
const plain: Recogniser = (text) => {
  const line = lastMatch(text, /^.*\b(\d+) (?:tests? )?passed\b.*$/gim);
  if (!line) return undefined;
  const failed = (line[0] ?? '').match(/\b(\d+) (?:tests? )?failed\b/i);
  const skipped = (line[0] ?? '').match(/\b(\d+) (?:tests? )?skipped\b/i);
  return { runner: 'plain', passed: count(line), failed: count(failed), skipped: count(skipped) };
};

const recognisers: Recogniser[] = [cargoTest, goTest, pytest, jest, vitest, nodeTest, mocha, tap, plain];

/** The summary of the last test run in `output`, or undefined when no known runner's summary is there. */
export function summarize(output: string): TestSummary | undefined {
  const text = output.replace(ANSI, '').replace(/\r\n?/g, '\n');
  for (const recognise of recognisers) {
    const summary = recognise(text);
    if (summary) return summary;
  }
  return undefined;
}

/** True when the summary says no test actually ran (all skipped counts as none ran). */
export function ranNoTest(summary: TestSummary): boolean {
  return summary.passed + summary.failed === 0;
}
