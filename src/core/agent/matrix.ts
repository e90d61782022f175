// The interaction matrix: the agent solves each spec alone and all specs together, each run in its own
// worktree, up to `concurrency` at once. Cell (i, j) is spec j's verdict after solving spec i alone. Two
// kinds of interaction are flagged: "solving i broke j" (j passed before, not after solving i) and
// "satisfiable alone, not together" (j passes when solved alone, not in the all-together run).
import { runSpecs, type SpecResult } from '../check';
import type { MatrixCell } from '../../shared/matrixCells';
import { mapWithConcurrency } from '../process/boundedPool';
import { WORKING_TREE, withCopiedWorkspace } from '../workspace';
import type { AgentRunResult } from './agentRunResult';
import { runAgent, type AgentProgress, type AgentRunOptions, type StopReason } from './runAgent';

export type Cell = MatrixCell;

export interface MatrixOptions extends Omit<AgentRunOptions, 'target' | 'before' | 'modelReview'> {
  /** Agent runs at once (each in its own worktree). */
  concurrency: number;
  onProgress?: (event: AgentProgress) => void;
}

export interface MatrixRun {
  target: string;
  runId: string;
  stopReason: StopReason;
  error?: string;
  steps: number;
  durationMs: number;
  changedFiles: string[];
  trajectoryFile: string;
  findings: AgentRunResult['findings'];
}

export interface MatrixResult {
  specIds: string[];
  before: Record<string, Cell>;
  /** alone[i][j]: spec j's verdict after the agent solved spec i alone. */
  alone: Record<string, Record<string, Cell>>;
  together: Record<string, Cell>;
  brokeBy: Array<{ solved: string; broke: string }>;
  aloneNotTogether: string[];
  /**
   * Runs that say nothing about interactions: the agent did not finish, or did not make its own target pass
   * (for the all-together run: some spec still fails). A matrix with such runs is inconclusive there.
   */
  inconclusive: Array<{ target: string; reason: string }>;
  /** Specs that do not pass after the all-together run. */
  unsolvedTogether: string[];
  runs: MatrixRun[];
  durationMs: number;
}

export async function runMatrix(options: MatrixOptions): Promise<MatrixResult> {
  const started = performance.now();
  const specIds = options.specFile.specs.map((s) => s.id);
  const before = await verdictsBeforeChange(options);
  const targets: AgentRunOptions['target'][] = [
    ...specIds.map((id) => ({ kind: 'spec' as const, id })),
    { kind: 'all' as const },
  ];
  const results = await mapWithConcurrency(targets, Math.max(1, options.concurrency), (target) =>
    runAgent({ ...options, target, before, modelReview: false }),
  );
  return matrixFrom(specIds, before, results, performance.now() - started);
}

/**
 * The "before" verdicts, measured once for several runs (the matrix's cells, the candidates) in a checkout of
 * its own, contained like every agent run (the workspace's code may itself be an earlier agent's).
 */
export function verdictsBeforeChange(
  options: Pick<AgentRunOptions, 'workspaceDir' | 'specFile' | 'containment' | 'signal' | 'specConcurrency'>,
): Promise<SpecResult[]> {
  const contain = { specFile: options.specFile, ...options.containment };
  return withCopiedWorkspace(
    options.workspaceDir,
    { kind: 'standalone', ref: WORKING_TREE, contain },
    (copy) =>
      runSpecs({
        workspaceDir: copy.dir,
        specFile: options.specFile,
        containment: copy.containment,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.specConcurrency ? { concurrency: options.specConcurrency } : {}),
      }),
  );
}

export function matrixFrom(
  specIds: string[],
  before: SpecResult[],
  results: AgentRunResult[],
  durationMs: number,
): MatrixResult {
  const verdictsOf = (list: SpecResult[]): Record<string, Cell> => {
    const byId = new Map(list.map((r) => [r.id, r.verdict]));
    return Object.fromEntries(specIds.map((id) => [id, byId.get(id) ?? 'not-run']));
  };
  const alone: Record<string, Record<string, Cell>> = {};
  let together: Record<string, Cell> = Object.fromEntries(specIds.map((id) => [id, 'not-run' as Cell]));
  for (const r of results) {
    if (r.target.kind === 'spec') alone[r.target.id] = verdictsOf(r.after);
    else together = verdictsOf(r.after);
  }
  const beforeCells = verdictsOf(before);
  const brokeBy = brokenPairs(specIds, beforeCells, alone);
  const aloneNotTogether = specIds.filter((j) => alone[j]?.[j] === 'pass' && together[j] !== 'pass');
  const inconclusive = inconclusiveRuns(results, specIds, alone, together);
  return {
    specIds,
    before: beforeCells,
    alone,
    together,
    brokeBy,
    aloneNotTogether,
    inconclusive,
    unsolvedTogether: specIds.filter((id) => together[id] !== 'pass'),
    runs: results.map((r) => ({
      target: r.target.kind === 'all' ? 'all' : r.target.id,
      runId: r.runId,
      stopReason: r.stopReason,
      ...(r.error !== undefined ? { error: r.error } : {}),
      steps: r.steps,
      durationMs: r.durationMs,
      changedFiles: r.changedFiles,
      trajectoryFile: r.trajectoryFile,
      findings: r.findings,
    })),
    durationMs: Math.round(durationMs),
  };
}

/** (i, j): solving i alone broke j, which passed before. */
function brokenPairs(
  specIds: string[],
  beforeCells: Record<string, Cell>,
  alone: Record<string, Record<string, Cell>>,
): MatrixResult['brokeBy'] {
  const brokeBy: MatrixResult['brokeBy'] = [];
  for (const i of specIds) {
    for (const j of specIds) {
      const cell = alone[i]?.[j];
      if (
        i !== j &&
        beforeCells[j] === 'pass' &&
        (cell === 'fail' || cell === 'error' || cell === 'tampered')
      )
        brokeBy.push({ solved: i, broke: j });
    }
  }
  return brokeBy;
}

/** Runs that prove nothing: stopped before finishing, or finished with their target still not passing. */
function inconclusiveRuns(
  results: AgentRunResult[],
  specIds: string[],
  alone: Record<string, Record<string, Cell>>,
  together: Record<string, Cell>,
): MatrixResult['inconclusive'] {
  const inconclusive: MatrixResult['inconclusive'] = [];
  for (const r of results) {
    const target = r.target.kind === 'all' ? 'all' : r.target.id;
    const unsolved =
      r.target.kind === 'all'
        ? specIds.filter((id) => together[id] !== 'pass')
        : alone[r.target.id]?.[r.target.id] === 'pass'
          ? []
          : [r.target.id];
    if (r.stopReason !== 'finished') {
      inconclusive.push({ target, reason: `${r.stopReason}${r.error ? `: ${r.error}` : ''}` });
    } else if (unsolved.length > 0) {
      inconclusive.push({ target, reason: `finished without making ${unsolved.join(', ')} pass` });
    }
  }
  return inconclusive;
}
