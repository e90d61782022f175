// Runs the spec tests of a workspace: in parallel (default: the machine's available parallelism), each with its
// own cwd / env / timeout (spec.test over the file's defaults), in dependency order. A spec whose dependsOn did
// not pass is `blocked` and not run. With `only`, the selected specs AND their transitive dependencies run (a
// spec is only meaningful when its dependencies hold); the dependencies' results say `ranAsDependency`.
// With repeat N each spec runs N times in a row and is `flaky` when its verdicts differ.
// Cancelling (AbortSignal) kills running commands and marks everything not finished `skipped` ("cancelled").
import os from 'node:os';
import path from 'node:path';
import type { CommandInstrumentation } from '../coverage/instrument';
import { runCommand, type RunCommandOptions } from '../process/runCommand';
import type { Containment } from '../sandbox/containment';
import { containedEnvironment } from '../sandbox/environment';
import { describeTampering, type TamperedFile } from '../sandbox/protectedFiles';
import { SpecGraph } from '../spec/graph';
import type { Spec, SpecFile } from '../../shared/specSchema';
import { startEvidence, type EvidenceSession } from './evidence/session';
import { effectiveTestSettings } from './testSettings';
import type { SpecResult, Verdict } from './types';
import { verdictOf } from './verdict';
import { InputError } from '../errors';

export type RunProgress =
  | { type: 'started'; id: string; attempt: number; done: number; total: number }
  | { type: 'finished'; result: SpecResult; done: number; total: number };

export interface RunSpecsOptions {
  workspaceDir: string;
  specFile: SpecFile;
  /** The spec file's graph when the caller has it (loadSpecFile's); built from specFile otherwise. */
  graph?: SpecGraph;
  /** Ids to run (their dependencies run too). All specs when absent. */
  only?: readonly string[];
  /** How many spec tests run at once. Default os.availableParallelism(). */
  concurrency?: number;
  /** Runs per spec; verdicts that differ make the spec `flaky`. Default 1. */
  repeat?: number;
  signal?: AbortSignal;
  onProgress?: (event: RunProgress) => void;
  /** Head and tail bytes of output kept per command (see runCommand). */
  outputCapBytes?: number;
  killGraceMs?: number;
  /**
   * Runs on behalf of an agent or a prediction: every command in the sandbox with the allowlisted environment,
   * and the protected files checked (and restored) before and after the batch.
   */
  containment?: Containment;
  /** The user's own check: unrestricted, but in a private PID namespace (needs bwrap; see detectSandbox). */
  pidNamespace?: boolean;
  /** Extra environment for a spec's command (per-spec coverage), given the env the spec asks for and the one it inherits. */
  instrument?: (
    spec: Spec,
    specEnv: Readonly<Record<string, string>>,
    inherited: Readonly<NodeJS.ProcessEnv>,
  ) => Promise<CommandInstrumentation>;
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
  const selected = selectSpecs(specFile, options.graph ?? new SpecGraph(specFile.specs), options.only);
  const requested = new Set(options.only ?? selected.map((s) => s.id));

  const tamperedBefore = (await options.containment?.guard.inspectAndRestore()) ?? [];
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

  await new Promise<void>((resolveAll) => {
    const pump = (): void => {
      // Repeat the scan while it settles specs without running them: a spec blocked late in the file may block
      // one earlier in the file.
      let before: number;
      do {
        before = results.size;
        scan();
      } while (results.size > before);
      if (results.size === total) {
        resolveAll();
        return;
      }
      if (running.size === 0) {
        // Nothing runs and nothing can start: the rest wait on each other (a dependsOn cycle the loader missed).
        for (const spec of selected) {
          if (!results.has(spec.id)) finish(notRun(spec, 'error', 'dependsOn cycle: cannot order this spec'));
        }
        resolveAll();
      }
    };
    const scan = (): void => {
      for (const spec of selected) {
        if (results.has(spec.id) || running.has(spec.id)) continue;
        if (options.signal?.aborted) {
          finish(notRun(spec, 'skipped', 'cancelled'));
          continue;
        }
        const deps = spec.dependsOn.filter((d) => d !== spec.id);
        const unknown = deps.filter((d) => !byId.has(d));
        if (unknown.length > 0) {
          finish(notRun(spec, 'error', `depends on unknown spec ${unknown.join(', ')}`));
          continue;
        }
        if (!deps.every((d) => results.has(d))) continue;
        const notPassing = deps.filter((d) => results.get(d)?.verdict !== 'pass');
        if (notPassing.length > 0) {
          const why = notPassing.map((d) => `${d}: ${results.get(d)?.verdict}`).join(', ');
          finish(notRun(spec, 'blocked', `blocked by ${notPassing.join(', ')} (${why})`));
          continue;
        }
        if (running.size >= concurrency) continue;
        running.add(spec.id);
        void runRepeated(spec, options, repeat, (attempt) =>
          options.onProgress?.({ type: 'started', id: spec.id, attempt, done: results.size, total }),
        ).then((result) => {
          running.delete(spec.id);
          finish(result);
          pump();
        });
      }
    };
    pump();
  });
  const ordered = selected.map((s) => results.get(s.id) as SpecResult);
  if (!options.containment) return ordered;
  const tamperedAfter = await options.containment.guard.inspectAndRestore();
  return markContained(ordered, options.containment, tamperedBefore, tamperedAfter);
}

/**
 * Contained results: sandbox status on each, and `tampered` for the specs a protected-file difference concerns.
 * Differences found before the batch (made by the agent's tools) concern the specs owning those files (all, for
 * shared files); differences after it may come from any spec that ran concurrently, so they concern every spec
 * that ran.
 */
function markContained(
  results: SpecResult[],
  containment: Containment,
  before: TamperedFile[],
  after: TamperedFile[],
): SpecResult[] {
  const ran = results.filter((r) => r.verdict !== 'blocked' && r.verdict !== 'skipped').map((r) => r.id);
  const hit = new Map<string, TamperedFile[]>();
  const note = (ids: string[], files: TamperedFile[]): void => {
    for (const id of ids) hit.set(id, [...(hit.get(id) ?? []), ...files]);
  };
  if (before.length > 0) {
    note(
      containment.guard.affectedSpecs(
        before,
        results.map((r) => r.id),
      ),
      before,
    );
  }
  if (after.length > 0) note(ran, after);
  return results.map((result) => {
    const contained: SpecResult = { ...result, sandboxed: containment.sandbox !== undefined };
    const files = hit.get(result.id);
    if (!files) return contained;
    return {
      ...contained,
      verdict: 'tampered',
      verdictBeforeTampering: result.verdict,
      reason: describeTampering(files),
      tampered: files.map((f) => ({ path: f.path, change: f.change })),
    };
  });
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

async function runOnce(spec: Spec, options: RunSpecsOptions): Promise<SpecResult> {
  const settings = effectiveTestSettings(spec, options.specFile.defaults);
  const timeoutMs = settings.timeoutSeconds * 1000;
  // The runners inside the command report their own results into a private directory (evidence/session.ts).
  // Contained runs extend only the allowlisted environment's NODE_OPTIONS / PYTHONPATH, never the host's.
  const specEnv = settings.env;
  const inherited = options.containment ? containedEnvironment() : process.env;
  const instrumentation = await options.instrument?.(spec, specEnv, inherited);
  const evidence = await startEvidence({ ...specEnv, ...instrumentation?.env }, inherited);
  try {
    const outcome = await runCommand(
      commandOptions(spec, settings.cwd, options, timeoutMs, evidence, instrumentation?.writableDirs ?? []),
    );
    const {
      verdict,
      reason,
      evidence: basis,
      summary,
    } = verdictOf(outcome, timeoutMs, await evidence.collect());
    return {
      id: spec.id,
      kind: spec.kind,
      verdict,
      ...(reason !== undefined ? { reason } : {}),
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      durationMs: Math.round(outcome.durationMs),
      evidence: basis,
      ...(summary ? { summary } : {}),
      output: outcome.output,
      truncatedBytes: outcome.truncatedBytes,
    };
  } finally {
    await evidence.dispose();
  }
}

/** How a spec's command is started. A sandbox must bind `evidence.writableDirs` writable. */
function commandOptions(
  spec: Spec,
  cwd: string,
  options: RunSpecsOptions,
  timeoutMs: number,
  evidence: EvidenceSession,
  coverageDirs: readonly string[],
): RunCommandOptions {
  return {
    command: spec.test.command,
    cwd: path.resolve(options.workspaceDir, cwd),
    env: evidence.env,
    writableDirs: [...evidence.writableDirs, ...coverageDirs],
    timeoutMs,
    ...(options.containment
      ? {
          inheritEnv: false,
          ...(options.containment.sandbox ? { sandbox: options.containment.sandbox } : {}),
        }
      : options.pidNamespace
        ? { pidNamespace: true }
        : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.outputCapBytes !== undefined ? { outputCapBytes: options.outputCapBytes } : {}),
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
  };
}

/** Runs a spec `repeat` times in a row (never concurrently with itself: tests may share files). */
async function runRepeated(
  spec: Spec,
  options: RunSpecsOptions,
  repeat: number,
  onStart: (attempt: number) => void,
): Promise<SpecResult> {
  const attempts: SpecResult[] = [];
  for (let attempt = 1; attempt <= repeat; attempt++) {
    onStart(attempt);
    const result = await runOnce(spec, options);
    attempts.push(result);
    if (result.verdict === 'skipped') return result; // cancelled
  }
  const last = attempts[attempts.length - 1] as SpecResult;
  if (repeat === 1) return last;
  const verdicts = attempts.map((a) => a.verdict);
  const meanMs = Math.round(attempts.reduce((n, a) => n + a.durationMs, 0) / attempts.length);
  if (verdicts.every((v) => v === verdicts[0])) return { ...last, durationMs: meanMs, repeats: verdicts };
  // Show the output of a run that did not pass: that is the one worth reading.
  const telling = attempts.find((a) => a.verdict !== 'pass') ?? last;
  return {
    ...telling,
    verdict: 'flaky',
    reason: `verdicts differed across ${repeat} runs: ${verdicts.join(', ')}`,
    durationMs: meanMs,
    repeats: verdicts,
  };
}
