// `weave check --github`: GitHub Actions workflow commands (::error file=…,line=…::) for failing and broken specs,
// located at the spec's id in the spec file.
import type { Change, SpecResult } from '../../core/check';
import type { CheckResult } from '../../core/fullCheck';
import { OUTPUT_TAIL_LINES, tail } from './checkReport';
import { annotationPath } from './paths';

/** GitHub Actions workflow commands: data escaping per the runner's rules. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function githubAnnotations(result: CheckResult): string {
  const file = annotationPath(result.specFilePath);
  const out: string[] = [];
  for (const r of result.run.results) {
    const change = result.report.changes[r.id];
    const level = annotationLevel(r, change);
    if (level === undefined) continue;
    const where = result.locations.locateSpec(r.id, ['id']) ?? result.locations.locateSpec(r.id);
    const properties = [
      `file=${escapeProperty(file)}`,
      ...(where ? [`line=${where.line}`, `col=${where.column}`] : []),
      `title=${escapeProperty(`weave: ${r.id} ${change === 'broken' ? 'broken' : r.verdict}`)}`,
    ].join(',');
    const message = `${r.verdict}${change === 'broken' ? ' (broken: passed in the baseline)' : ''}${r.reason ? `: ${r.reason}` : ''}`;
    const detail = r.output.trim() === '' ? '' : `\n${tail(r.output, OUTPUT_TAIL_LINES)}`;
    out.push(`::${level} ${properties}::${escapeData(message + detail)}`);
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

function annotationLevel(r: SpecResult, change: Change | undefined): 'error' | 'warning' | undefined {
  if (r.verdict === 'fail' || r.verdict === 'error' || r.verdict === 'tampered' || change === 'broken')
    return 'error';
  if (r.verdict === 'blocked' || r.verdict === 'flaky' || r.verdict === 'unverified') return 'warning';
  return undefined;
}
