// `weave agent --candidates`' output: the ranking table (one row per candidate, best first, disqualified last
// with why), the candidates × specs grid, the trade-off view (best per spec kind, the Pareto set), the broken
// constraints, the measured judgement (blind review against the tests, finish claims, self-pick), and what
// --apply best did.
import path from 'node:path';
import type { CandidateRanking, CandidateSummary } from '../../core/agent/candidateRanking';
import type { ReviewAccuracy, SelfPick } from '../../core/agent/judgement';

export interface ApplyOutcome {
  status: 'applied' | 'not-applied' | 'refused' | 'nothing';
  candidate?: number;
  message?: string;
}

export function formatCandidateRanking(
  ranking: CandidateRanking,
  workspaceDir: string,
  applied: ApplyOutcome | undefined,
): string {
  const lines = [
    `${ranking.candidates.length} candidates, ${ranking.concurrency} at once, ${seconds(ranking.durationMs)}`,
    '',
    ...rankingTable(ranking),
    '',
    ...specGrid(ranking),
    '',
    ...tradeOffs(ranking),
    ...judgementLines(ranking),
    '',
    ...applyLines(ranking, workspaceDir, applied),
  ];
  return lines.join('\n') + '\n';
}

function rankingTable(ranking: CandidateRanking): string[] {
  const total = ranking.specIds.length;
  const rows = ranking.order.map((index, i) => {
    const c = candidateOf(ranking, index);
    return [
      c.disqualified === undefined ? String(i + 1) : '—',
      `cand-${c.index}`,
      c.label,
      c.strict ? 'yes' : 'no',
      `${c.specsPassed}/${total}`,
      String(c.broken.length),
      `+${c.patch.linesAdded} -${c.patch.linesRemoved}`,
      String(c.steps),
      c.usage.totalTokens.toLocaleString('en'),
      c.costUsd === null ? '—' : `$${c.costUsd.toFixed(4)}`,
      seconds(c.durationMs),
      c.disqualified === undefined ? c.stopReason : `DISQUALIFIED${c.tampered ? ' (tampered)' : ''}`,
    ];
  });
  const head = [
    'rank',
    'cand',
    'by',
    'strict',
    'passed',
    'broken',
    'patch',
    'steps',
    'tokens',
    'cost',
    'time',
    '',
  ];
  const why = ranking.candidates.flatMap((c) =>
    c.disqualified === undefined ? [] : [`cand-${c.index} is disqualified: ${c.disqualified}`],
  );
  return [...table([head, ...rows]), ...why];
}

function specGrid(ranking: CandidateRanking): string[] {
  const head = ['spec', 'kind', 'before', ...ranking.order.map((i) => `cand-${i}`)];
  const rows = ranking.specIds.map((id) => {
    const kind = ranking.candidates[0]?.specs.find((s) => s.id === id)?.kind ?? '';
    return [
      id,
      kind,
      ranking.before[id] ?? 'not-run',
      ...ranking.order.map((i) => {
        const candidate = candidateOf(ranking, i);
        const row = candidate.specs.find((s) => s.id === id);
        if (!row) return 'not-run';
        const mark = candidate.broken.includes(id) ? ' BROKEN' : '';
        return `${row.after}${mark}`;
      }),
    ];
  });
  return table([head, ...rows]);
}

function tradeOffs(ranking: CandidateRanking): string[] {
  const kinds = Object.entries(ranking.bestByKind).map(
    ([kind, best]) => `${kind} cand-${best.candidate} (${best.passed}/${best.total})`,
  );
  const lines = [
    `Best per kind: ${kinds.length > 0 ? kinds.join(', ') : 'none (every candidate is disqualified)'}`,
    `Pareto set (no other candidate passes as many specs of every kind): ${ranking.pareto.map((i) => `cand-${i}`).join(', ') || 'empty'}`,
  ];
  for (const c of ranking.candidates) {
    if (c.broken.length > 0)
      lines.push(`cand-${c.index} broke ${c.broken.join(', ')} (passed before, not after)`);
  }
  return lines;
}

function judgementLines(ranking: CandidateRanking): string[] {
  const { judgement } = ranking;
  const lines = ['', 'Judgement (what the models said, against the tests):'];
  const reviews = Object.entries(judgement.review);
  if (reviews.length === 0) lines.push('  review: none ran');
  for (const [model, acc] of reviews) lines.push(`  review by ${model}: ${accuracyText(acc)}`);
  lines.push(
    `  finish claims: ${judgement.finishClaims.finished} candidate(s) called finish, ${judgement.finishClaims.finishedAndStrict} of them pass every spec`,
  );
  for (const c of ranking.candidates) {
    if (c.finishSummary) lines.push(`  cand-${c.index} said: ${c.finishSummary}`);
  }
  if (judgement.selfPick) lines.push(`  self-pick: ${selfPickText(judgement.selfPick)}`);
  return lines;
}

function accuracyText(acc: ReviewAccuracy): string {
  const ratio = (x: number | null): string => (x === null ? '—' : x.toFixed(2));
  return (
    `precision ${ratio(acc.precision)} (${acc.truePositives} of ${acc.truePositives + acc.falsePositives} "satisfied" were real passes), ` +
    `recall ${ratio(acc.recall)} (${acc.truePositives} of ${acc.truePositives + acc.falseNegatives} passes called satisfied), ${acc.reviews} review(s)`
  );
}

function selfPickText(pick: SelfPick): string {
  if (!pick.ok) return `${pick.model} did not choose: ${pick.error}`;
  const vs = { equal: 'equals', beats: 'beats', loses: 'loses to' } as const;
  return (
    `${pick.model} chose cand-${pick.pick} ("${pick.reason}"): it ${vs[pick.vsFirst]} the first candidate and ` +
    `${vs[pick.vsBest]} the verified best (regret ${pick.regret} spec${pick.regret === 1 ? '' : 's'})`
  );
}

function applyLines(
  ranking: CandidateRanking,
  workspaceDir: string,
  applied: ApplyOutcome | undefined,
): string[] {
  const runs = `Runs: ${path.relative(workspaceDir, ranking.dir)}/ (cand-K/trajectory.jsonl, cand-K/patch.diff, ranking.json)`;
  // "Best" names a patch worth applying: with none (all disqualified, or the best one changed nothing) the
  // output says so instead of pointing at an empty diff.
  if (ranking.best === null) return ['No candidate to apply: every candidate is disqualified.', runs];
  const best = candidateOf(ranking, ranking.best);
  if (best.patch.linesAdded + best.patch.linesRemoved === 0 && best.patch.files.length === 0)
    return [`No candidate to apply: ${noPatchReason(ranking)}.`, runs];
  const head = `Best: cand-${best.index} (${best.label})`;
  const patch = path.relative(workspaceDir, best.patchFile);
  switch (applied?.status) {
    case 'applied':
      return [`${head} — applied to your workspace.`, runs];
    case 'nothing':
      return [`${head} — it changed nothing: nothing to apply.`, runs];
    case 'not-applied':
      return [`${head} — NOT applied: ${applied.message ?? 'it does not apply cleanly'}.`, runs];
    case 'refused':
      return [`${head} — NOT applied: ${applied.message ?? 'refused'}.`, runs];
    default:
      return [`${head}: ${patch} (use --apply best to apply it)`, runs];
  }
}

function noPatchReason(ranking: CandidateRanking): string {
  const usable = ranking.candidates.filter((c) => c.disqualified === undefined);
  const failed = usable.filter((c) => c.stopReason === 'model-error');
  if (failed.length === usable.length) return 'every usable candidate stopped on a model error (see above)';
  return `the top-ranked usable candidate (cand-${ranking.best}) changed nothing`;
}

function candidateOf(ranking: CandidateRanking, index: number): CandidateSummary {
  return ranking.candidates.find((c) => c.index === index)!;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Left-aligned columns, two spaces apart; trailing spaces trimmed. */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? '').length)));
  return rows.map((r) =>
    r
      .map((cell, col) => cell.padEnd(widths[col]!))
      .join('  ')
      .trimEnd(),
  );
}
