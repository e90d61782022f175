// Recognises what test runners print about their results, so that "exit 0" alone never counts as a pass: a
// run that reports zero tests is an error ("ran no test"), a failure reported anywhere fails the spec even when
// a pipe (`| tail`) or `|| true` hid the exit code. EVERY summary in the output counts: `a; b` prints two, and a
// failure in the first must not be hidden by the second passing. Each recogniser sums what it finds; the
// runner-specific ones are all applied and added up, the generic ones (TAP, a plain "5 passed" line) only when
// no runner-specific one matched, since they would count the same tests again. When nothing matches, the exit
// code alone decides (verdictOf in verdict.ts).
import type { TestSummary } from './types';

type Recogniser = (text: string) => TestSummary | undefined;
type Counts = Omit<TestSummary, 'runner'>;

// eslint-disable-next-line no-control-regex -- ANSI escape sequences are control characters by definition
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

function count(match: RegExpMatchArray | null | undefined, group = 1): number {
  const value = match?.[group];
  return value === undefined ? 0 : Number(value);
}

/** Adds up summaries; the first one's runner names the result. */
export function addSummaries(summaries: readonly TestSummary[]): TestSummary | undefined {
  const [first] = summaries;
  if (!first) return undefined;
  const sum = (pick: (s: TestSummary) => number | undefined): number =>
    summaries.reduce((n, s) => n + (pick(s) ?? 0), 0);
  const collectionErrors = sum((s) => s.collectionErrors);
  const listing = summaries.some((s) => s.listing === true);
  return {
    runner: first.runner,
    passed: sum((s) => s.passed),
    failed: sum((s) => s.failed),
    skipped: sum((s) => s.skipped),
    ...(collectionErrors > 0 ? { collectionErrors } : {}),
    ...(listing ? { listing } : {}),
  };
}

/** One summary per block the pattern starts, counted by `read` on the text from there to the next block. */
function perBlock(
  text: string,
  runner: TestSummary['runner'],
  start: RegExp,
  read: (block: string, head: RegExpMatchArray) => Counts,
): TestSummary | undefined {
  const heads = [...text.matchAll(start)];
  return addSummaries(
    heads.map((head, i) => ({
      runner,
      ...read(text.slice(head.index, heads[i + 1]?.index ?? text.length), head),
    })),
  );
}

/**
 * node:test's `name N` counters after each `tests N` line, in its TAP (`# pass 3`), spec (`ℹ pass 3`) and junit
 * (`<!-- pass 3 -->`) reporters.
 */
const nodeTest: Recogniser = (text) =>
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
const nodeDot: Recogniser = (text) => {
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
const mocha: Recogniser = (text) =>
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
const vitest: Recogniser = (text) => {
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
const jest: Recogniser = (text) => {
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

/** pytest: `===== 1 failed, 2 passed, 1 skipped in 0.12s =====` (or without the rules in -q), `no tests ran`. */
const pytestTotals: Recogniser = (text) => {
  const lines = [
    ...text.matchAll(
      /^=*\s*((?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)(?:, )?)+|no tests ran) in \d+(?:\.\d+)?s\b.*$/gm,
    ),
  ];
  if (lines.length === 0) return undefined;
  const collectionErrors = [...text.matchAll(/Interrupted: (\d+) errors? during collection/g)].reduce(
    (n, m) => n + count(m),
    0,
  );
  const summed = addSummaries(
    lines.map((line) => {
      const parts = line[1] ?? '';
      const get = (word: string): number => count(parts.match(new RegExp(`(\\d+) ${word}\\b`)));
      return {
        runner: 'pytest' as const,
        // xfailed / xpassed tests did run; whether an xpass fails the run (strict mode) shows in the exit code.
        passed: get('passed') + get('xfailed') + get('xpassed'),
        failed: get('failed') + get('errors?'),
        skipped: get('skipped'),
      };
    }),
  ) as TestSummary;
  if (collectionErrors === 0) return summed;
  // A module that failed to import is no failed test: pytest counted it among its "errors".
  return { ...summed, failed: Math.max(0, summed.failed - collectionErrors), collectionErrors };
};

/**
 * pytest `-qq` (and -q with the totals cut off by `| head`): the progress line (`.F.s  [100%]`), the
 * `FAILED test_x.py::test_b` lines of the short summary, and a collection interruption.
 */
const pytestQuiet: Recogniser = (text) => {
  const failedLines = text.match(/^(?:FAILED|ERROR) \S+::\S+/gm)?.length ?? 0;
  const collectionErrors = [...text.matchAll(/Interrupted: (\d+) errors? during collection/g)].reduce(
    (n, m) => n + count(m),
    0,
  );
  const progress = [...text.matchAll(/^([.FEsxX]+)\s+\[\s*\d+%\]$/gm)].map((m) => m[1] ?? '').join('');
  if (failedLines === 0 && collectionErrors === 0 && progress === '') return undefined;
  const tally = (chars: string): number => [...progress].filter((c) => chars.includes(c)).length;
  return {
    runner: 'pytest',
    passed: tally('.xX'),
    failed: Math.max(failedLines, tally('FE')),
    skipped: tally('s'),
    ...(collectionErrors > 0 ? { collectionErrors } : {}),
  };
};

/** `pytest --co` / `--collect-only`: `2 tests collected in 0.01s` (`no tests collected`), and nothing ran. */
const pytestListing: Recogniser = (text) =>
  /^=*\s*(?:\d+(?:\/\d+)? tests? collected|no tests collected)\b.* in \d+(?:\.\d+)?s\b/m.test(text)
    ? { runner: 'pytest', passed: 0, failed: 0, skipped: 0, listing: true }
    : undefined;

/** Totals when pytest printed them, else a listing, else what its quiet output shows. */
const pytest: Recogniser = (text) => pytestTotals(text) ?? pytestListing(text) ?? pytestQuiet(text);

/**
 * unittest: `Ran 4 tests in 0.001s` then `OK`, `OK (skipped=1)` or `FAILED (failures=1, errors=2, skipped=1)`.
 * A module that failed to import is an error of a `unittest.loader._FailedTest`: a collection error.
 */
const unittest: Recogniser = (text) =>
  perBlock(text, 'unittest', /^Ran (\d+) tests? in \d+(?:\.\d+)?s$/gm, (block, head) => {
    const status = block.match(/^(OK|FAILED|NO TESTS RAN)\b(?: \((.*)\))?$/m);
    const get = (word: string): number => count((status?.[2] ?? '').match(new RegExp(`\\b${word}=(\\d+)`)));
    const unloaded = text.match(/^ERROR: \S+ \(unittest\.loader\._FailedTest[.)]/gm)?.length ?? 0;
    const failed = get('failures') + get('errors') + get('unexpected successes') - unloaded;
    const skipped = get('skipped');
    const ran = count(head) - unloaded;
    return {
      passed: Math.max(0, ran - failed - skipped),
      failed: Math.max(0, failed),
      skipped,
      ...(unloaded > 0 ? { collectionErrors: unloaded } : {}),
    };
  });

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
const cargoTest: Recogniser = (text) => {
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

/**
 * JSON reporters: mocha's `"stats": {"tests": 3, "passes": 1, "pending": 1, "failures": 1, …}` and the
 * jest-shaped document jest and vitest write (`"numFailedTests": 1, "numPassedTests": 2, …`; named `jest`).
 */
const jsonReport: Recogniser = (text) => {
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
const junitXml: Recogniser = (text) => {
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
  const lines = [...text.matchAll(/^.*\b(\d+) (?:tests? )?passed\b.*$/gim)];
  return addSummaries(
    lines.map((line) => {
      const failed = (line[0] ?? '').match(/\b(\d+) (?:tests? )?failed\b/i);
      const skipped = (line[0] ?? '').match(/\b(\d+) (?:tests? )?skipped\b/i);
      return {
        runner: 'plain' as const,
        passed: count(line),
        failed: count(failed),
        skipped: count(skipped),
      };
    }),
  );
};

const runnerSpecific: Recogniser[] = [
  cargoTest,
  goTest,
  pytest,
  unittest,
  jest,
  vitest,
  jsonReport,
  junitXml,
  nodeTest,
  nodeDot,
  mocha,
];
const generic: Recogniser[] = [tap, plain];

/**
 * Everything the output says about test results, added up across runners and runs, or undefined when no known
 * summary is there. A dry run or listing (`pytest --co`, `cargo test --no-run`, `go test -list`) is a summary of
 * zero tests marked `listing`.
 */
export function summarize(output: string): TestSummary | undefined {
  const text = output.replace(ANSI, '').replace(/\r\n?/g, '\n');
  const found = runnerSpecific.map((recognise) => recognise(text)).filter((s) => s !== undefined);
  if (found.length > 0) return addSummaries(found);
  for (const recognise of generic) {
    const summary = recognise(text);
    if (summary) return summary;
  }
  return undefined;
}

/** True when the summary says no test actually ran (all skipped counts as none ran). */
export function ranNoTest(summary: TestSummary): boolean {
  return summary.passed + summary.failed === 0;
}
