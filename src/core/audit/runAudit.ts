// `weave audit`: mutation adequacy per spec. Every selected spec first runs on the unmutated code (a spec that
// does not pass there cannot tell a mutant from the code it already fails on). Then each mutant of the code the
// specs exercise runs against the specs exercising that code (or, unpruned, against every spec), in a bounded
// pool of reused scratch checkouts, within a mutant budget and a time budget, cancellable. Survivors are the
// holes; a spec that kills none is vacuous; mutants several specs kill are observed interactions.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mapWithConcurrency } from '../process/boundedPool';
import { headCommit } from '../git/git';
import { locateGrammars, TreeSitterHost } from '../index';
import type { AnchoredWorkspace } from '../anchors/anchoredWorkspace';
import { CheckInputError } from '../check';
import { exercisedCode, type ExercisedFile } from './exercised';
import {
  mutantRunSummary,
  observedInteractions,
  specAudit,
  unnoticedMutants,
  type MutantRecord,
} from './report';
import { mutantsOfFile, type Mutant } from './mutants';
import { mutantSpecFile, mutantTimeoutSeconds, runMutant } from './mutantRun';
import { runSpecsInCheckout, withScratchCheckouts, type ScratchCheckout } from './scratch';
import type { AuditReport } from './types';

export const DEFAULT_MAX_MUTANTS = 200;
export const DEFAULT_AUDIT_TIME_BUDGET_SECONDS = 900;

export type AuditProgress =
  | { type: 'phase'; message: string }
  | { type: 'mutant'; done: number; total: number; mutant: Mutant; killedBy: string[] };

export interface AuditOptions {
  ws: AnchoredWorkspace;
  only?: readonly string[];
  maxMutants?: number;
  timeBudgetSeconds?: number;
  /** Scratch checkouts (workers) at once. Default: min(4, available parallelism). */
  concurrency?: number;
  /** false: every mutant runs against every selected spec (the yardstick). Default true. */
  prune?: boolean;
  signal?: AbortSignal;
  onProgress?: (event: AuditProgress) => void;
}

export async function runAudit(options: AuditOptions): Promise<AuditReport> {
  const started = new Date();
  const { ws } = options;
  const ids = selectIds(ws, options.only);
  const maxMutants = positive(options.maxMutants ?? DEFAULT_MAX_MUTANTS, 'max-mutants');
  const budgetMs =
    positive(options.timeBudgetSeconds ?? DEFAULT_AUDIT_TIME_BUDGET_SECONDS, 'time budget') * 1000;
  const concurrency = positive(options.concurrency ?? Math.min(4, os.availableParallelism()), 'concurrency');
  const prune = options.prune ?? true;
  const progress = options.onProgress ?? (() => undefined);

  const exercised = exercisedCode(ws, ids);
  progress({ type: 'phase', message: `generating mutants for ${ids.length} spec(s)` });
  const mutants = await generateMutants(ws.workspaceDir, exercised);
  const selected = selectWithinBudget(ids, mutants.perSpec, maxMutants);
  const run: AuditRun = { records: [], stoppedBy: null, baseline: new Map() };

  const workers = Math.max(1, Math.min(concurrency, selected.length));
  await withScratchCheckouts(
    ws.workspaceDir,
    workers,
    (checkouts) =>
      auditInCheckouts(checkouts, options, { ids, mutants, selected, prune, budgetMs, workers, run }),
    ws.specFile,
  );

  const finished = new Date();
  const { records, baseline } = run;
  const { texts, perSpec } = mutants;
  const specs = ids.map((id) =>
    specAudit(id, records, texts, exercised.get(id) ?? [], baseline.get(id), (perSpec.get(id) ?? []).length),
  );
  const report: AuditReport = {
    version: 1,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    commit: await headCommit(ws.workspaceDir).catch(() => null),
    specs,
    holes: unnoticedMutants(records, texts),
    observed: observedInteractions(records),
    totals: mutantRunSummary({
      generated: new Set([...perSpec.values()].flat().map((m) => m.id)).size,
      selected: selected.length,
      records,
      durationMs: finished.getTime() - started.getTime(),
      pruned: prune,
      stoppedBy: run.stoppedBy,
    }),
  };
  return report;
}

/** What the runs in the checkouts leave: the mutants' records, why they stopped early, the unmutated verdicts. */
interface AuditRun {
  records: MutantRecord[];
  stoppedBy: AuditReport['totals']['stoppedBy'];
  baseline: Map<string, { verdict: string; reason?: string; durationMs: number }>;
}

interface AuditPlan {
  ids: string[];
  mutants: { texts: Map<string, string>; perSpec: Map<string, Mutant[]> };
  selected: Mutant[];
  prune: boolean;
  budgetMs: number;
  /** The checkouts asked for, the unmutated run's concurrency. */
  workers: number;
  run: AuditRun;
}

/** The specs on the unmutated code, then each mutant against the passing specs that exercise it (all, unpruned). */
async function auditInCheckouts(
  checkouts: ScratchCheckout[],
  options: AuditOptions,
  plan: AuditPlan,
): Promise<void> {
  const { ws } = options;
  const { ids, run } = plan;
  const progress = options.onProgress ?? (() => undefined);
  progress({ type: 'phase', message: `running ${ids.length} spec(s) on the unmutated code` });
  const gateless = mutantSpecFile(ws.specFile, (id) => specTimeout(ws, id));
  const before = await runSpecsInCheckout(checkouts[0]!, gateless, ids, {
    concurrency: plan.workers,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  run.baseline = new Map(before.map((r) => [r.id, r]));
  const passing = ids.filter((id) => run.baseline.get(id)?.verdict === 'pass');
  const mutantFile = mutantSpecFile(ws.specFile, (id) =>
    mutantTimeoutSeconds(run.baseline.get(id)?.durationMs ?? 0, specTimeout(ws, id)),
  );
  const coveredBy = new Map<string, string[]>();
  for (const id of passing) {
    for (const m of plan.mutants.perSpec.get(id) ?? [])
      coveredBy.set(m.id, [...(coveredBy.get(m.id) ?? []), id]);
  }
  const work = plan.selected
    .map((mutant) => ({ mutant, targets: plan.prune ? (coveredBy.get(mutant.id) ?? []) : passing }))
    .filter((w) => w.targets.length > 0);
  progress({ type: 'phase', message: `running ${work.length} mutant(s) in ${checkouts.length} checkout(s)` });
  await runMutantPool(checkouts, work, mutantFile, options, plan);
}

/** The mutants in a pool of the checkouts, until done, cancelled or past the time budget. */
async function runMutantPool(
  checkouts: ScratchCheckout[],
  work: Array<{ mutant: Mutant; targets: string[] }>,
  mutantFile: ReturnType<typeof mutantSpecFile>,
  options: AuditOptions,
  { mutants, budgetMs, run }: AuditPlan,
): Promise<void> {
  const progress = options.onProgress ?? (() => undefined);
  const free = [...checkouts];
  const deadline = performance.now() + budgetMs;
  await mapWithConcurrency(work, checkouts.length, async ({ mutant, targets }) => {
    if (options.signal?.aborted) {
      run.stoppedBy = 'cancelled';
      return;
    }
    if (performance.now() > deadline) {
      run.stoppedBy ??= 'time-budget';
      return;
    }
    const checkout = free.pop()!;
    try {
      const outcomes = await runMutant(
        checkout,
        mutant,
        mutants.texts.get(mutant.file)!,
        mutantFile,
        targets,
        options.signal,
      );
      if (options.signal?.aborted) {
        run.stoppedBy = 'cancelled';
        return;
      }
      run.records.push({ mutant, outcomes });
      const killedBy = [...outcomes].filter(([, o]) => o === 'killed' || o === 'timed-out').map(([id]) => id);
      progress({ type: 'mutant', done: run.records.length, total: work.length, mutant, killedBy });
    } finally {
      free.push(checkout);
    }
  });
}

function selectIds(ws: AnchoredWorkspace, only: readonly string[] | undefined): string[] {
  const all = ws.specFile.specs.map((s) => s.id);
  if (only === undefined || only.length === 0) return all;
  const unknown = only.filter((id) => !all.includes(id));
  if (unknown.length > 0)
    throw new CheckInputError(`unknown spec id${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  return all.filter((id) => only.includes(id));
}

function specTimeout(ws: AnchoredWorkspace, id: string): number {
  const spec = ws.specFile.specs.find((s) => s.id === id);
  return spec?.test.timeoutSeconds ?? ws.specFile.defaults.timeoutSeconds;
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new CheckInputError(`${name} must be a number > 0, got ${value}`);
  return value;
}

/** Mutants per spec over the code it exercises; each file is read and parsed once for all specs. */
export async function generateMutants(
  workspaceDir: string,
  exercised: Map<string, ExercisedFile[]>,
): Promise<{ texts: Map<string, string>; perSpec: Map<string, Mutant[]> }> {
  const host = new TreeSitterHost(locateGrammars());
  const texts = new Map<string, string>();
  const perSpec = new Map<string, Mutant[]>();
  try {
    for (const [id, files] of exercised) {
      const mutants: Mutant[] = [];
      for (const f of files) {
        let text = texts.get(f.file);
        if (text === undefined) {
          text = await fs.readFile(path.join(workspaceDir, f.file), 'utf8');
          texts.set(f.file, text);
        }
        mutants.push(...(await mutantsOfFile(host, f.file, f.language, text, f.ranges)));
      }
      perSpec.set(id, [...new Map(mutants.map((m) => [m.id, m])).values()]);
    }
  } finally {
    host.dispose();
  }
  return { texts, perSpec };
}

/**
 * At most `max` distinct mutants, taken round-robin over the specs (each spec's list spread evenly over its
 * code), so a spec with little code still gets its share when another has hundreds of mutants.
 */
export function selectWithinBudget(
  ids: readonly string[],
  perSpec: Map<string, Mutant[]>,
  max: number,
): Mutant[] {
  const chosen = new Map<string, Mutant>();
  const queues = ids.map((id) => spread(perSpec.get(id) ?? []));
  for (let round = 0; chosen.size < max && queues.some((q) => round < q.length); round++) {
    for (const q of queues) {
      const m = q[round];
      if (m !== undefined && !chosen.has(m.id) && chosen.size < max) chosen.set(m.id, m);
    }
  }
  return [...chosen.values()];
}

/** Reorders a list so any prefix samples it evenly (bit-reversal-like strides: 0, n/2, n/4, 3n/4, …). */
function spread<T>(items: T[]): T[] {
  const out: T[] = [];
  const taken = new Set<number>();
  for (let step = items.length; step >= 1; step = Math.floor(step / 2)) {
    for (let i = 0; i < items.length; i += step) {
      if (!taken.has(i)) {
        taken.add(i);
        out.push(items[i]!);
      }
    }
    if (step === 1) break;
  }
  return out;
}
