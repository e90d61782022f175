// Recognises what test runners print about their results, so that "exit 0" alone never counts as a pass: a
// run that reports zero tests is an error ("ran no test"), a failure reported anywhere fails the spec even when
// a pipe (`| tail`) or `|| true` hid the exit code. EVERY summary in the output counts: `a; b` prints two, and a
// failure in the first must not be hidden by the second passing. Each recogniser sums what it finds; the
// runner-specific ones are all applied and added up, the generic ones (TAP, a plain "5 passed" line) only when
// no runner-specific one matched, since they would count the same tests again. When nothing matches, the exit
// code alone decides (verdictOf in verdict.ts).
import { cargoTest, goTest } from './recognisers/native';
import { plain, tap } from './recognisers/generic';
import { jest, jsonReport, junitXml, mocha, nodeDot, nodeTest, vitest } from './recognisers/javascript';
import { pytest, unittest } from './recognisers/python';
import { addSummaries, type Recogniser } from './recognisers/shared';
import type { TestSummary } from './types';

export { addSummaries };

// eslint-disable-next-line no-control-regex -- ANSI escape sequences are control characters by definition
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

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
