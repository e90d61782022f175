// Python test runners: pytest (totals, -q/-qq, --co listings, collection errors) and unittest.
import { addSummaries, count, perBlock, type Recogniser } from './shared';
import type { TestSummary } from '../types';

/** pytest: `===== 1 failed, 2 passed, 1 skipped in 0.12s =====` (or without the rules in -q), `no tests ran`. */
export const pytestTotals: Recogniser = (text) => {
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
export const pytestQuiet: Recogniser = (text) => {
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
export const pytestListing: Recogniser = (text) =>
  /^=*\s*(?:\d+(?:\/\d+)? tests? collected|no tests collected)\b.* in \d+(?:\.\d+)?s\b/m.test(text)
    ? { runner: 'pytest', passed: 0, failed: 0, skipped: 0, listing: true }
    : undefined;

/** Totals when pytest printed them, else a listing, else what its quiet output shows. */
export const pytest: Recogniser = (text) => pytestTotals(text) ?? pytestListing(text) ?? pytestQuiet(text);

/**
 * unittest: `Ran 4 tests in 0.001s` then `OK`, `OK (skipped=1)` or `FAILED (failures=1, errors=2, skipped=1)`.
 * A module that failed to import is an error of a `unittest.loader._FailedTest`: a collection error.
 */
export const unittest: Recogniser = (text) =>
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
