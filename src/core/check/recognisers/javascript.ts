// JavaScript test runners: node:test (spec, TAP, dot, junit reporters), mocha, vitest, jest, and the JSON and
// JUnit XML documents their reporters print.
import { addSummaries, count, perBlock, type Counts, type Recogniser } from './shared';
import type { TestSummary } from '../types';

/**
 * node:test's `name N` counters after each `tests N` line, in its TAP (`# pass 3`), spec (`ℹ pass 3`) and junit
 * (`<!-- pass 3 -->`) reporters.
 */
export const nodeTest: Recogniser = (text) =>
  perBlock(text, 'node:test', /^\s*(?:[#ℹ]|<!--) tests \d+(?: -->)?$/gm, (block) => {
    const field = (name: string): number =>
      count(block.match(new RegExp(`^\\s*(?:[#ℹ]|<!--) ${name} (\\d+)(?: -->)?$`, 'm')));
    return {
      passed: field('pass'),
      failed: field('fail') + field('cancelled'),
      skipped: field('skipped') + field('todo'),
    };
  });

/**
 * node:test's dot reporter: `.` per passed test, `X` per failed one, then "Failed tests:". Only a line with an X
 * counts: a line of dots alone is too common in other output to vouch for a pass.
 */
export const nodeDot: Recogniser = (text) => {
  const lines = [...text.matchAll(/^([.X]+)$/gm)].map((m) => m[1] ?? '').filter((l) => l.includes('X'));
  if (lines.length === 0) return undefined;
  const all = lines.join('');
  return {
    runner: 'node:test',
    passed: all.replace(/X/g, '').length,
    failed: all.replace(/\./g, '').length,
    skipped: 0,
  };
};

/** mocha's spec reporter: `  3 passing (12ms)`, `  1 failing`, `  2 pending`. */
export const mocha: Recogniser = (text) =>
  perBlock(text, 'mocha', /^\s*(\d+) passing \(\d+(?:\.\d+)?\s*m?s\)\s*$/gm, (block, head) => ({
    passed: count(head),
    failed: count(block.match(/^\s*(\d+) failing\s*$/m)),
    skipped: count(block.match(/^\s*(\d+) pending\s*$/m)),
  }));

function tallyParts(parts: string): Counts {
  const get = (word: string): number => count(parts.match(new RegExp(`(\\d+) ${word}`)));
  return { passed: get('passed'), failed: get('failed'), skipped: get('skipped') + get('todo') };
}

/**
 * vitest: `      Tests  1 failed | 2 passed | 1 skipped (4)`; `No test files found` when nothing was collected;
 * `Test Files  1 failed (1)` with `Tests  no tests` when a test file could not be loaded.
 */
export const vitest: Recogniser = (text) => {
  const runs = [...text.matchAll(/^\s*Tests\s{2,}((?:\d+ \w+(?: \| )?)+)\s*\(\d+\)/gm)].map((m) => ({
    runner: 'vitest' as const,
    ...tallyParts(m[1] ?? ''),
  }));
  for (const m of text.matchAll(/^\s*Test Files\s{2,}(\d+) failed\b.*\n\s*Tests\s{2,}no tests\s*$/gm))
    runs.push({ runner: 'vitest', passed: 0, failed: 0, skipped: 0, collectionErrors: count(m) });
  if (
    runs.length === 0 &&
    /No test files found, exiting with code \d|^\s*Tests\s{2,}no tests\s*$/m.test(text)
  )
    runs.push({ runner: 'vitest', passed: 0, failed: 0, skipped: 0 });
  return addSummaries(runs);
};

/**
 * jest: `Tests:       1 failed, 1 skipped, 2 passed, 4 total`; `No tests found, exiting with code N`; a suite that
 * failed to run shows as `Test Suites: 1 failed` above `Tests: 0 total`.
 */
export const jest: Recogniser = (text) => {
  const runs = [...text.matchAll(/^(?:Test Suites:\s+(.*)\n)?Tests:\s+(.*?\d+ total)\s*$/gm)].map((m) => {
    const counts = tallyParts(m[2] ?? '');
    const failedSuites = count((m[1] ?? '').match(/(\d+) failed/));
    const unloaded = counts.passed + counts.failed === 0 && failedSuites > 0;
    return { runner: 'jest' as const, ...counts, ...(unloaded ? { collectionErrors: failedSuites } : {}) };
  });
  if (runs.length === 0 && /^No tests found, exiting with code \d/m.test(text))
    runs.push({ runner: 'jest', passed: 0, failed: 0, skipped: 0 });
  return addSummaries(runs);
};

/**
 * JSON reporters: mocha's `"stats": {"tests": 3, "passes": 1, "pending": 1, "failures": 1, …}` and the
 * jest-shaped document jest and vitest write (`"numFailedTests": 1, "numPassedTests": 2, …`; named `jest`).
 */
export const jsonReport: Recogniser = (text) => {
  const runs: TestSummary[] = [];
  for (const m of text.matchAll(/"stats"\s*:\s*\{([^{}]*)\}/g)) {
    const field = (name: string): number => count((m[1] ?? '').match(new RegExp(`"${name}"\\s*:\\s*(\\d+)`)));
    if (!/"passes"\s*:/.test(m[1] ?? '')) continue;
    runs.push({
      runner: 'mocha',
      passed: field('passes'),
      failed: field('failures'),
      skipped: field('pending'),
    });
  }
  for (const m of text.matchAll(/"numFailedTestSuites"\s*:\s*\d+[\s\S]*?"numTotalTests"\s*:\s*\d+/g)) {
    const doc = m[0];
    const field = (name: string): number => count(doc.match(new RegExp(`"${name}"\\s*:\\s*(\\d+)`)));
    const passed = field('numPassedTests');
    const failed = field('numFailedTests');
    // A suite that failed without any test failing could not be loaded (jest counts it as a runtime error).
    const unloaded = Math.max(
      field('numRuntimeErrorTestSuites'),
      failed === 0 ? field('numFailedTestSuites') : 0,
    );
    runs.push({
      runner: 'jest',
      passed,
      failed,
      skipped: field('numPendingTests') + field('numTodoTests'),
      ...(unloaded > 0 ? { collectionErrors: unloaded } : {}),
    });
  }
  return addSummaries(runs);
};

/**
 * JUnit XML (mocha's xunit reporter, jest-junit, vitest's junit reporter, pytest --junitxml printed to the
 * output): the counts of each `<testsuite>`, or of the `<testsuites>` root when there is no per-suite count.
 */
export const junitXml: Recogniser = (text) => {
  const attr = (tag: string, name: string): number => count(tag.match(new RegExp(`\\b${name}="(\\d+)"`)));
  const fromTag = (tag: string): TestSummary => {
    const tests = attr(tag, 'tests');
    const failed = attr(tag, 'failures') + attr(tag, 'errors');
    const skipped = attr(tag, 'skipped') + attr(tag, 'disabled');
    return { runner: 'junit', passed: Math.max(0, tests - failed - skipped), failed, skipped };
  };
  const suites = [...text.matchAll(/<testsuite\s[^>]*\btests="\d+"[^>]*>/g)].map((m) => fromTag(m[0]));
  if (suites.length > 0) return addSummaries(suites);
  const root = text.match(/<testsuites\s[^>]*\btests="\d+"[^>]*>/);
  return root ? fromTag(root[0]) : undefined;
};
