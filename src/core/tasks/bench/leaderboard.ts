// The leaderboard over a bench run: one row per model from its eval report and its agent runs. Rates are over
// the tasks; "broken" is the share of constraints that passed before the change and fail after it
// (PASS_TO_FAIL over every spec that passed on base + test.patch, in instances that ran); review flags count
// instances whose patch or trajectory the deterministic review flagged, by family.
import type { FindingCheck } from '../../agent/deterministicReview';
import type { Comparison } from '../../agent/judgement';
import type { SpecKind } from '../../../shared/specSchema';
import type { InstanceRun } from './benchInstance';
import type { EvalReport, KindSummary } from '../eval/evalTasks';

/** USD per million tokens. */
export interface Price {
  input: number;
  output: number;
}

export interface LeaderboardRow {
  model: string;
  instances: number;
  resolved: number;
  resolved_rate: number;
  /** Every spec passes. */
  strict_compliance_rate: number;
  /** Mean share of specs passing. */
  partial_compliance: number;
  broken_constraints: number;
  constraints_passing_before: number;
  broken_rate: number;
  patch_failed: number;
  infra_failures: number;
  /** Instances with a spec solved alone but not together; null without --matrix. */
  alone_not_together: number | null;
  review_flags: { tampering: number; hard_coding: number; other: number };
  tokens: { prompt: number; completion: number; total: number };
  /** null when no --price was given for the model. */
  cost_usd: number | null;
  /** Sum of the model's agent runs. */
  agent_time_ms: number;
  by_kind: Partial<Record<SpecKind, KindSummary>>;
  /**
   * The blind model review's "satisfied" against the cells' sandboxed verdicts (`--review`): how often it was a real
   * pass (precision) and how many real passes it called satisfied (recall); null when no review answered.
   */
  review_precision: number | null;
  review_recall: number | null;
  /**
   * `--self-pick N`: mean specs lost by the model's pick against the verified best of its N candidates, and how
   * the pick compared with taking the first candidate; null without picks.
   */
  self_pick_regret: number | null;
  self_pick_vs_first: { beats: number; equal: number; loses: number } | null;
}

export interface Leaderboard {
  schema_version: 'weave-leaderboard/1';
  created_at: string;
  tasks: number;
  workers: number;
  matrix: boolean;
  wall_time_ms: number;
  rows: LeaderboardRow[];
}

const TAMPERING: ReadonlySet<FindingCheck> = new Set([
  'protected-file-changed',
  'protected-edit-attempted',
  'path-escape-attempted',
  'test-skipped',
  'test-deleted',
  'assertion-weakened',
]);
const HARD_CODING: ReadonlySet<FindingCheck> = new Set(['copied-expectation']);

interface LeaderboardInput {
  reports: Record<string, EvalReport>;
  runs: Record<string, InstanceRun[]>;
  tasks: number;
  prices: Record<string, Price>;
  workers: number;
  matrix: boolean;
  wallTimeMs: number;
}

export function buildLeaderboard(input: LeaderboardInput): Leaderboard {
  const rows = Object.entries(input.reports).map(([model, report]) =>
    leaderboardRow(model, report, input.runs[model] ?? [], input),
  );
  rows.sort(
    (a, b) =>
      b.resolved_rate - a.resolved_rate ||
      b.partial_compliance - a.partial_compliance ||
      a.broken_rate - b.broken_rate ||
      a.model.localeCompare(b.model),
  );
  return {
    schema_version: 'weave-leaderboard/1',
    created_at: new Date().toISOString(),
    tasks: input.tasks,
    workers: input.workers,
    matrix: input.matrix,
    wall_time_ms: Math.round(input.wallTimeMs),
    rows,
  };
}

/** One model's row: its eval report's rates, what it broke, the review's flags, tokens, cost and time. */
function leaderboardRow(
  model: string,
  report: EvalReport,
  runs: InstanceRun[],
  input: Pick<LeaderboardInput, 'prices' | 'matrix'>,
): LeaderboardRow {
  let broken = 0;
  let before = 0;
  for (const r of Object.values(report.instances)) {
    broken += r.tests_status.PASS_TO_FAIL.failure.length;
    before += r.tests_status.PASS_TO_FAIL.failure.length + r.tests_status.PASS_TO_FAIL.success.length;
  }
  const prompt = runs.reduce((n, r) => n + r.usage.prompt_tokens, 0);
  const completion = runs.reduce((n, r) => n + r.usage.completion_tokens, 0);
  const price = input.prices[model];
  return {
    model,
    instances: report.submitted_instances,
    resolved: report.resolved_instances,
    resolved_rate: report.resolved_rate,
    strict_compliance_rate: report.strict_compliance_rate,
    partial_compliance: report.mean_partial_compliance,
    broken_constraints: broken,
    constraints_passing_before: before,
    broken_rate: before === 0 ? 0 : broken / before,
    patch_failed: report.patch_failed_instances,
    infra_failures: report.infra_failure_instances,
    alone_not_together: input.matrix
      ? runs.filter((r) => (r.alone_not_together ?? []).length > 0).length
      : null,
    review_flags: reviewFlags(report, runs),
    tokens: { prompt, completion, total: prompt + completion },
    cost_usd: price === undefined ? null : (prompt * price.input + completion * price.output) / 1_000_000,
    agent_time_ms: runs.reduce((n, r) => n + r.duration_ms, 0),
    by_kind: report.by_kind,
    ...reviewColumns(runs),
    ...selfPickColumns(runs),
  };
}

/** How many runs the review flagged, per family of finding. */
function reviewFlags(report: EvalReport, runs: readonly InstanceRun[]): LeaderboardRow['review_flags'] {
  const flagged = (family: (check: FindingCheck) => boolean, extra: (id: string) => boolean = () => false) =>
    runs.filter((run) => run.findings.some((f) => family(f.check)) || extra(run.instance_id)).length;
  return {
    // A patch that edits spec test files or their helpers is tampering whatever the review said (eval resets them).
    tampering: flagged(
      (c) => TAMPERING.has(c),
      (id) => {
        const r = report.instances[id];
        return r !== undefined && r.edits_spec_tests.length + r.edits_test_support.length > 0;
      },
    ),
    hard_coding: flagged((c) => HARD_CODING.has(c)),
    other: flagged((c) => !TAMPERING.has(c) && !HARD_CODING.has(c)),
  };
}

function reviewColumns(
  runs: readonly InstanceRun[],
): Pick<LeaderboardRow, 'review_precision' | 'review_recall'> {
  const counted = runs.flatMap((r) => (r.review_counts ? [r.review_counts] : []));
  const sum = (key: keyof NonNullable<InstanceRun['review_counts']>): number =>
    counted.reduce((n, c) => n + c[key], 0);
  const tp = sum('true_positives');
  const claimed = tp + sum('false_positives');
  const real = tp + sum('false_negatives');
  return {
    review_precision: counted.length === 0 || claimed === 0 ? null : tp / claimed,
    review_recall: counted.length === 0 || real === 0 ? null : tp / real,
  };
}

function selfPickColumns(
  runs: readonly InstanceRun[],
): Pick<LeaderboardRow, 'self_pick_regret' | 'self_pick_vs_first'> {
  const picks = runs.flatMap((r) => (r.self_pick && 'pick' in r.self_pick ? [r.self_pick] : []));
  if (picks.length === 0) return { self_pick_regret: null, self_pick_vs_first: null };
  const count = (c: Comparison): number => picks.filter((p) => p.vs_first === c).length;
  return {
    self_pick_regret: picks.reduce((n, p) => n + p.regret, 0) / picks.length,
    self_pick_vs_first: { beats: count('beats'), equal: count('equal'), loses: count('loses') },
  };
}

/** `model=in/out` (USD per million tokens), e.g. `gpt-4.1=2/8`. */
export function parsePrice(text: string): { model: string; price: Price } | undefined {
  const match = /^(.+)=(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(text);
  if (!match) return undefined;
  return { model: match[1] as string, price: { input: Number(match[2]), output: Number(match[3]) } };
}

/** A self-contained page: inline CSS, no script, no external asset; every value escaped. */
export function renderLeaderboardHtml(board: Leaderboard): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const cell = (text: string | number, numeric = false): string =>
    `<td${numeric ? ' class="n"' : ''}>${escapeHtml(String(text))}</td>`;
  const head = [
    'Model',
    'Resolved',
    'Strict compliance',
    'Partial compliance',
    'Broken constraints',
    'Patch failed',
    'Infra failures',
    ...(board.matrix ? ['Alone, not together'] : []),
    'Tampering',
    'Hard-coding',
    'Tokens',
    'Cost',
    'Agent time',
    'Review precision',
    'Review recall',
    'Self-pick regret',
  ];
  const rows = board.rows.map((r) =>
    [
      cell(r.model),
      cell(`${pct(r.resolved_rate)} (${r.resolved}/${r.instances})`, true),
      cell(pct(r.strict_compliance_rate), true),
      cell(pct(r.partial_compliance), true),
      cell(`${pct(r.broken_rate)} (${r.broken_constraints}/${r.constraints_passing_before})`, true),
      cell(r.patch_failed, true),
      cell(r.infra_failures, true),
      ...(board.matrix ? [cell(r.alone_not_together ?? 0, true)] : []),
      cell(r.review_flags.tampering, true),
      cell(r.review_flags.hard_coding, true),
      cell(r.tokens.total, true),
      cell(r.cost_usd === null ? '—' : `$${r.cost_usd.toFixed(4)}`, true),
      cell(`${(r.agent_time_ms / 1000).toFixed(1)} s`, true),
      cell(r.review_precision === null ? '—' : pct(r.review_precision), true),
      cell(r.review_recall === null ? '—' : pct(r.review_recall), true),
      cell(selfPickText(r), true),
    ].join(''),
  );
  const kinds = [...new Set(board.rows.flatMap((r) => Object.keys(r.by_kind)))].sort() as SpecKind[];
  const kindRows = board.rows.map((r) =>
    [
      cell(r.model),
      ...kinds.map((k) => {
        const s = r.by_kind[k];
        return cell(s === undefined ? '—' : `${pct(s.pass_rate)} pass, ${s.broken} broken`, true);
      }),
    ].join(''),
  );
  const table = (header: string[], body: string[]): string =>
    `<table><thead><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${body.map((b) => `<tr>${b}</tr>`).join('')}</tbody></table>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Weave leaderboard</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1b1b1b}
table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #ccc;padding:.3rem .6rem}
th{background:#f3f3f3;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
</style></head><body>
<h1>Weave leaderboard</h1>
<p>${escapeHtml(`${board.tasks} tasks, ${board.rows.length} models, ${board.workers} workers, ${(board.wall_time_ms / 1000).toFixed(1)} s wall time, ${board.created_at}`)}</p>
${table(head, rows)}
<h2>By spec kind</h2>
${table(['Model', ...kinds], kindRows)}
</body></html>
`;
}

function selfPickText(r: LeaderboardRow): string {
  if (r.self_pick_regret === null || r.self_pick_vs_first === null) return '—';
  const v = r.self_pick_vs_first;
  return `${r.self_pick_regret.toFixed(2)} specs (vs first: ${v.beats} beats, ${v.equal} equal, ${v.loses} loses)`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
