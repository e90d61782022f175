// Compares a run with a baseline run in SWE-bench's `tests_status` shape. For the comparison a spec "passes"
// only with verdict `pass`; `fail`, `error`, `blocked` and `flaky` all count as failing (the constraint does
// not demonstrably hold). `skipped` specs (cancelled) and specs absent from the baseline are in no list; their
// change is `other` and `new` respectively.
import type { BaselineReport, Change, RunRecord, SpecResult } from './types';

type Outcome = 'pass' | 'fail' | 'none';

function outcomeOf(result: SpecResult | undefined): Outcome {
  if (!result || result.verdict === 'skipped') return 'none';
  return result.verdict === 'pass' ? 'pass' : 'fail';
}

export function compareToBaseline(
  current: RunRecord,
  baseline: RunRecord | null,
  baselineRef?: string,
): BaselineReport {
  const report: BaselineReport = {
    baseline: baseline
      ? {
          runId: baselineRef === undefined ? baseline.id : null,
          commit: baseline.commit,
          ...(baselineRef !== undefined ? { ref: baselineRef } : {}),
        }
      : null,
    FAIL_TO_PASS: [],
    PASS_TO_PASS: [],
    FAIL_TO_FAIL: [],
    PASS_TO_FAIL: [],
    changes: {},
  };
  const before = new Map((baseline?.results ?? []).map((r) => [r.id, r]));
  for (const result of current.results) {
    const now = outcomeOf(result);
    const then = outcomeOf(before.get(result.id));
    report.changes[result.id] = changeOf(then, now, baseline !== null && before.has(result.id));
    if (now === 'none' || then === 'none') continue;
    const key = `${then === 'pass' ? 'PASS' : 'FAIL'}_TO_${now === 'pass' ? 'PASS' : 'FAIL'}` as const;
    report[key].push(result.id);
  }
  return report;
}

function changeOf(then: Outcome, now: Outcome, inBaseline: boolean): Change {
  if (!inBaseline) return 'new';
  if (then === 'none' || now === 'none') return 'other';
  if (then === 'pass') return now === 'pass' ? 'still-passing' : 'broken';
  return now === 'pass' ? 'fixed' : 'still-failing';
}

/** One result's change against a baseline run, as compareToBaseline gives it (for a result as it comes in). */
export function changeOfResult(result: SpecResult, baseline: RunRecord | null): Change {
  const before = baseline?.results.find((r) => r.id === result.id);
  return changeOf(outcomeOf(before), outcomeOf(result), before !== undefined);
}
