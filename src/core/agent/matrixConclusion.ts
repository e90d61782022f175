// What an interaction matrix concludes, in one sentence both faces show (the CLI's table, the editor's matrix
// tab): issue #25 item 5 found them disagreeing — the tab gave the all-clear for a matrix whose runs all finished
// but left their own spec failing, because it looked only at whether runs finished. A run says something about
// interactions only when it finished AND made its target pass; every other run is named here, with why.
import type { MatrixResult } from './matrix';

export type MatrixConclusionKind = 'flagged' | 'none' | 'inconclusive';

export interface MatrixConclusion {
  kind: MatrixConclusionKind;
  /** 'Flagged', 'None' or 'Inconclusive': the word a face may set apart (bold in the tab). */
  headline: string;
  /** The rest of the sentence, after `headline: `. */
  text: string;
  /** `headline: text`, as one line. */
  sentence: string;
  /** The runs that say nothing about interactions (did not finish, or left their target failing), with why. */
  silentRuns: Array<{ target: string; reason: string }>;
}

/** The runs that say nothing: those `matrixFrom` listed as inconclusive, plus any run that did not finish. */
function silentRunsOf(matrix: MatrixResult): MatrixConclusion['silentRuns'] {
  const silent = [...matrix.inconclusive];
  for (const run of matrix.runs) {
    if (run.stopReason !== 'finished' && !silent.some((s) => s.target === run.target))
      silent.push({ target: run.target, reason: `${run.stopReason}${run.error ? `: ${run.error}` : ''}` });
  }
  return silent;
}

function conclusion(
  kind: MatrixConclusionKind,
  headline: string,
  text: string,
  silentRuns: MatrixConclusion['silentRuns'],
): MatrixConclusion {
  return { kind, headline, text, sentence: `${headline}: ${text}`, silentRuns };
}

export function matrixConclusion(matrix: MatrixResult): MatrixConclusion {
  const silent = silentRunsOf(matrix);
  const solo = silent.filter((r) => r.target !== 'all');
  const all = silent.find((r) => r.target === 'all');
  const flags = matrix.brokeBy.length + matrix.aloneNotTogether.length;
  const runCount = matrix.runs.length;
  const silentPart =
    silent.length > 0
      ? `; ${silent.length} of ${runCount} runs did not solve their target, so their rows say nothing`
      : '';
  if (flags > 0)
    return conclusion(
      'flagged',
      'Flagged',
      `${flags} interaction${flags === 1 ? '' : 's'}${silentPart}.`,
      silent,
    );
  if (silent.length === 0)
    return conclusion(
      'none',
      'None',
      'no spec broke another when solved alone, and every spec satisfiable alone also holds together.',
      silent,
    );
  if (silent.length === runCount) {
    const unfinished = matrix.runs.every((r) => r.stopReason !== 'finished');
    return conclusion(
      'inconclusive',
      'Inconclusive',
      `none of the ${runCount} agent runs ${unfinished ? 'finished' : 'made its target pass'}, so the matrix ` +
        'cannot tell whether any spec conflicts with another.',
      silent,
    );
  }
  const parts: string[] = [];
  if (solo.length > 0)
    parts.push(
      `${solo.length} of ${matrix.specIds.length} solo runs did not solve their spec, so "no spec broke another" ` +
        'cannot be concluded from them',
    );
  if (all)
    parts.push(
      'the all-together run did not make every spec pass, so "every spec satisfiable alone also holds together" ' +
        'cannot be concluded from it',
    );
  return conclusion('inconclusive', 'Inconclusive', `${parts.join('; ')}.`, silent);
}
