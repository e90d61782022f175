// JUnit XML for CI test report viewers (GitHub, GitLab, Jenkins): one <testcase> per spec. fail and flaky are
// <failure>, error is <error>, blocked and skipped are <skipped>; the change against the baseline and the
// reason go in the message, the captured output in <system-out>.
import type { BaselineReport, RunRecord, SpecResult } from '../../core/check';

// XML 1.0 forbids most control characters even when escaped; test output may contain them (colour codes).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function xml(text: string): string {
  return text
    .replace(INVALID_XML_CHARS, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function testcase(result: SpecResult, report: BaselineReport, specFile: string | undefined): string {
  const change = report.changes[result.id];
  const shownChange = change && change !== 'new' && change !== 'other' ? ` [${change}]` : '';
  const message = xml(`${result.verdict}${shownChange}${result.reason ? `: ${result.reason}` : ''}`);
  const attributes = [
    `classname="weave.${xml(result.kind)}"`,
    `name="${xml(result.id)}"`,
    `time="${seconds(result.durationMs)}"`,
    ...(specFile !== undefined ? [`file="${xml(specFile)}"`] : []),
  ].join(' ');
  const status =
    result.verdict === 'fail' ||
    result.verdict === 'flaky' ||
    result.verdict === 'tampered' ||
    result.verdict === 'unverified'
      ? `<failure message="${message}" type="${result.verdict}"/>`
      : result.verdict === 'error'
        ? `<error message="${message}" type="error"/>`
        : result.verdict === 'blocked' || result.verdict === 'skipped'
          ? `<skipped message="${message}"/>`
          : '';
  const output = result.output ? `<system-out>${xml(result.output)}</system-out>` : '';
  return `    <testcase ${attributes}>${status}${output}</testcase>`;
}

export function toJUnitXml(run: RunRecord, report: BaselineReport, specFile?: string): string {
  const count = (pred: (r: SpecResult) => boolean): number => run.results.filter(pred).length;
  const tests = run.results.length;
  const failures = count(
    (r) =>
      r.verdict === 'fail' || r.verdict === 'flaky' || r.verdict === 'tampered' || r.verdict === 'unverified',
  );
  const errors = count((r) => r.verdict === 'error');
  const skipped = count((r) => r.verdict === 'blocked' || r.verdict === 'skipped');
  const time = seconds(Date.parse(run.finishedAt) - Date.parse(run.startedAt));
  const totals = `tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="weave" ${totals}>`,
    `  <testsuite name="weave check" ${totals} timestamp="${xml(run.startedAt)}">`,
    ...run.results.map((r) => testcase(r, report, specFile)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
