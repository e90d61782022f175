// Runs the spec tests of a workspace: in parallel (default: the machine's available parallelism), each with its
// own cwd / env / timeout (spec.test over the file's defaults), in dependency order. A spec whose dependsOn did
// not pass is `blocked` and not run. With `only`, the selected specs AND their transitive dependencies run (a
// spec is only meaningful when its dependencies hold); the dependencies' results say `ranAsDependency`.
// With repeat N each spec runs N times in a row and is `flaky` when its verdicts differ. With retries N, a failure
// `confirmFailure` asks about runs again up to N times before it stands (a pass makes it `flaky`).
// Cancelling (AbortSignal) kills running commands and marks everything not finished `skipped` ("cancelled").
// One spec's run is runSpec.ts's; marking a contained batch's results is containedResults.ts's.
import os from 'node:os';
import { SpecGraph } from '../spec';
import type { Spec, SpecFile } from '../../shared/specSchema';
import { markContained } from './containedResults';
import { runConfirmed, type SpecRunOptions } from './runSpec';
import type { SpecResult, Verdict } from './types';
import { InputError } from '../errors';

export type RunProgress =
  | { type: 'started'; id: string; attempt: number; done: number; total: number }
  | { type: 'finished'; result: SpecResult; done: number; total: number };

export interface RunSpecsOptions extends SpecRunOptions {
  /** The spec file's graph when the caller has it (loadSpecFile's); built from specFile otherwise. */
  graph?: SpecGraph;
  /** Ids to run (their dependencies run too). All specs when absent. */
  only?: readonly string[];
  /** How many spec tests run at once. Default os.availableParallelism(). */
  concurrency?: number;
  /** Runs per spec; verdicts that differ make the spec `flaky`. Default 1. */
  repeat?: number;
  /** Runs again of a failure `confirmFailure` accepts, before it is believed. Default 0. */
  retries?: number;
  /** Which failures are confirmed with `retries` (default: every fail and error). */
  confirmFailure?: (result: SpecResult) => boolean;
  onProgress?: (event: RunProgress) => void;
}

/** A request that cannot be run as asked (unknown id, bad number): the CLI's exit code 2. */
export class CheckInputError extends InputError {
  override name = 'CheckInputError';
}

export async function runSpecs(options: RunSpecsOptions): Promise<SpecResult[]> {
  const { specFile } = options;
  const byId = new Map(specFile.specs.map((s) => [s.id, s]));
  const concurrency = positiveInteger(options.concurrency ?? os.availableParallelism(), 'concurrency');
  const repeat = positiveInteger(options.repeat ?? 1, 'repeat');
  const retries = options.retries ?? 0;
  if (!Number.isInteger(retries) || retries < 0)
    throw new CheckInputError(`retries must be a whole number ≥ 0, got ${retries}`);
  const confirmation =
    retries > 0 ? { retries, shouldConfirm: options.confirmFailure ?? (() => true) } : undefined;
  const selected = selectSpecs(specFile, options.graph ?? new SpecGraph(specFile.specs), options.only);
  const requested = new Set(options.only ?? selected.map((s) => s.id));

  const tamperedBefore = (await options.containment?.guard.inspectAndRestore()) ?? [];
  const results = await inDependencyOrder(selected, {
    byId,
    requested,
    concurrency,
    options,
    run: (spec, onStart) => runConfirmed(spec, options, repeat, confirmation, onStart),
  });
  const ordered = selected.map((s) => results.get(s.id) as SpecResult);
  if (!options.containment) return ordered;
  const tamperedAfter = await options.containment.guard.inspectAndRestore();
  return markContained(ordered, options.containment, tamperedBefore, tamperedAfter);
}

interface Schedule {
  byId: ReadonlyMap<string, Spec>;
  /** The ids asked for; the others run as dependencies. */
  requested: ReadonlySet<string>;
  concurrency: number;
  options: RunSpecsOptions;
  run(spec: Spec, onStart: (attempt: number) => void): Promise<SpecResult>;
}

/** Runs the selected specs, at most `concurrency` at once, each once its dependencies are settled. */
function inDependencyOrder(selected: readonly Spec[], schedule: Schedule): Promise<Map<string, SpecResult>> {
  const { requested, concurrency, options } = schedule;
  const results = new Map<string, SpecResult>();
  const running = new Set<string>();
  const total = selected.length;
  const finish = (result: SpecResult): void => {
    results.set(result.id, requested.has(result.id) ? result : { ...result, ranAsDependency: true });
    options.onProgress?.({
      type: 'finished',
      result: results.get(result.id) as SpecResult,
      done: results.size,
      total,
    });
  };

  return new Promise<Map<string, SpecResult>>((resolveAll) => {
    const pump = (): void => {
      // Repeat the scan while it settles specs without running them: a spec blocked late in the file may block
      // one earlier in the file.
      let before: number;
      do {
        before = results.size;
        scan();
      } while (results.size > before);
      if (results.size === total) {
        resolveAll(results);
        return;
      }
      if (running.size === 0) {
        // Nothing runs and nothing can start: the rest wait on each other (a dependsOn cycle the loader missed).
        for (const spec of selected) {
          if (!results.has(spec.id)) finish(notRun(spec, 'error', 'dependsOn cycle: cannot order this spec'));
        }
        resolveAll(results);
      }
    };
    const scan = (): void => {
      for (const spec of selected) {
        if (results.has(spec.id) || running.has(spec.id)) continue;
        const state = readiness(spec, schedule.byId, results, options.signal);
        if (state === 'waiting') continue;
        if (state !== 'ready') {
          finish(state);
          continue;
        }
        if (running.size >= concurrency) continue;
        running.add(spec.id);
        void schedule
          .run(spec, (attempt) =>
            options.onProgress?.({ type: 'started', id: spec.id, attempt, done: results.size, total }),
          )
          .then((result) => {
            running.delete(spec.id);
            finish(result);
            pump();
          });
      }
    };
    pump();
  });
}

/** Whether a spec not yet run can run, must wait for its dependencies, or is settled without running. */
function readiness(
  spec: Spec,
  byId: ReadonlyMap<string, Spec>,
  results: ReadonlyMap<string, SpecResult>,
  signal: AbortSignal | undefined,
): 'ready' | 'waiting' | SpecResult {
  if (signal?.aborted) return notRun(spec, 'skipped', 'cancelled');
  const deps = spec.dependsOn.filter((d) => d !== spec.id);
  const unknown = deps.filter((d) => !byId.has(d));
  if (unknown.length > 0) return notRun(spec, 'error', `depends on unknown spec ${unknown.join(', ')}`);
  if (!deps.every((d) => results.has(d))) return 'waiting';
  const notPassing = deps.filter((d) => results.get(d)?.verdict !== 'pass');
  if (notPassing.length > 0) {
    const why = notPassing.map((d) => `${d}: ${results.get(d)?.verdict}`).join(', ');
    return notRun(spec, 'blocked', `blocked by ${notPassing.join(', ')} (${why})`);
  }
  return 'ready';
}

/** The specs to run, in file order: `only` plus everything it transitively depends on. */
function selectSpecs(specFile: SpecFile, graph: SpecGraph, only: readonly string[] | undefined): Spec[] {
  if (only === undefined) return specFile.specs;
  const unknown = only.filter((id) => !graph.has(id));
  if (unknown.length > 0) {
    throw new CheckInputError(`unknown spec id${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  }
  const wanted = new Set(only.flatMap((id) => [id, ...graph.dependenciesOf(id, { transitive: true })]));
  return specFile.specs.filter((s) => wanted.has(s.id));
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new CheckInputError(`${name} must be a whole number ≥ 1, got ${value}`);
  return value;
}

function notRun(spec: Spec, verdict: Verdict, reason: string): SpecResult {
  return {
    id: spec.id,
    kind: spec.kind,
    verdict,
    reason,
    exitCode: null,
    signal: null,
    durationMs: 0,
    evidence: 'exit-code',
    output: '',
    truncatedBytes: 0,
  };
}
