// Coverage for one check run: each spec's command is instrumented into its own raw directory under
// .weave/cache/coverage/raw/<run id>/, and when the run is over the raw data is mapped to the tree-sitter
// definitions of the files, merged into the store, and deleted. Specs whose recorded coverage still holds
// (fullCheck/coverageReuse.ts) run uninstrumented and keep their entries.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SpecResult } from '../check';
import { createIndexer, type WorkspaceIndex } from '../index';
import type { Spec } from '../../shared/specSchema';
import { collectSpecCoverage, coveredFiles, readSpecCoverage, type RawSpecCoverage } from './collect';
import {
  instrumentSpec,
  writeCoverageHooks,
  type CommandInstrumentation,
  type SpecCoverageDirs,
} from './instrument';
import type { CoveragePlan } from './types';
import { coverageDir, ensureCacheIgnored, updateCoverageStore } from './store';
import type { SpecCoverage, UnitRow } from './types';

export interface CoverageSummary {
  /** Specs whose processes left coverage data. */
  specs: number;
  /** Distinct workspace files some spec executed. */
  files: number;
  /** Specs that ran but left none (no instrumented process, or killed before it could write). */
  withoutData: string[];
  /** Specs that ran uninstrumented because no change since their recorded coverage reaches it (fullCheck/coverageReuse.ts). */
  reused: string[];
  /** Why specs with recorded coverage recorded again, when some did for a reason beyond their own changes. */
  recordedAgainBecause?: string;
  savedTo: string;
}

export interface CoverageSession {
  /** `inherited`: the environment the command would otherwise inherit (a contained run's allowlisted one). */
  instrument(
    spec: Spec,
    specEnv: Readonly<Record<string, string>>,
    inherited: Readonly<NodeJS.ProcessEnv>,
  ): Promise<CommandInstrumentation>;
  /** Maps and stores what the specs of `results` executed; `specIds` are all the spec file's ids. */
  finish(
    results: readonly SpecResult[],
    specIds: readonly string[],
    signal?: AbortSignal,
  ): Promise<CoverageSummary>;
  /** Deletes the raw data without storing it (a cancelled run). */
  discard(): Promise<void>;
}

export async function startCoverage(
  workspaceDir: string,
  runId: string,
  plan: CoveragePlan = { reuse: new Set(), current: new Set() },
): Promise<CoverageSession> {
  const rawDir = path.join(coverageDir(workspaceDir), 'raw', runId);
  const hooks = await writeCoverageHooks(rawDir);
  // Before any test runs: a test that looks at `git status` must not see the raw data as untracked files.
  await ensureCacheIgnored(path.dirname(coverageDir(workspaceDir)));
  const dirsBySpec = new Map<string, SpecCoverageDirs>();
  const dirsOf = (id: string): SpecCoverageDirs => {
    let dirs = dirsBySpec.get(id);
    if (!dirs) {
      const base = path.join(rawDir, `spec-${dirsBySpec.size}`);
      dirs = { v8: path.join(base, 'v8'), python: path.join(base, 'python') };
      dirsBySpec.set(id, dirs);
    }
    return dirs;
  };
  const reused = new Set<string>();
  const runUninstrumented = (id: string): CommandInstrumentation => {
    reused.add(id);
    return { env: {}, writableDirs: [] };
  };
  const discard = (): Promise<void> => fs.rm(rawDir, { recursive: true, force: true });
  return {
    instrument: (spec, specEnv, inherited) =>
      plan.reuse.has(spec.id)
        ? Promise.resolve(runUninstrumented(spec.id))
        : instrumentSpec(workspaceDir, hooks, dirsOf(spec.id), specEnv, inherited),
    async finish(results, specIds, signal) {
      try {
        return await recordRunCoverage(
          { workspaceDir, runId, plan, dirsBySpec, reused },
          results,
          specIds,
          signal,
        );
      } finally {
        await discard();
      }
    },
    discard,
  };
}

/** What a run's instrumented specs left, read, mapped onto the index of what they ran, and saved. */
async function recordRunCoverage(
  run: {
    workspaceDir: string;
    runId: string;
    plan: CoveragePlan;
    dirsBySpec: ReadonlyMap<string, SpecCoverageDirs>;
    reused: ReadonlySet<string>;
  },
  ...[results, specIds, signal]: Parameters<CoverageSession['finish']>
): Promise<CoverageSummary> {
  const { workspaceDir, runId, plan, dirsBySpec, reused } = run;
  // Not run (blocked, skipped): its previous coverage stays.
  const ran = results.flatMap((r) => {
    const dirs = dirsBySpec.get(r.id);
    return dirs === undefined ? [] : [{ id: r.id, dirs }];
  });
  const raw = new Map<string, RawSpecCoverage>(
    await Promise.all(
      ran.map(async ({ id, dirs }) => [id, await readSpecCoverage(dirs, workspaceDir)] as const),
    ),
  );
  const index = await indexCovered(workspaceDir, [...raw.values()].flatMap(coveredFiles), signal);
  const context = {
    workspaceDir,
    files: index.files,
    units: {} as Record<string, UnitRow[]>,
    ...(plan.snapshot !== undefined ? { snapshot: plan.snapshot } : {}),
  };
  const recorded = new Map<string, SpecCoverage>();
  const withoutData: string[] = [];
  for (const [id, data] of raw) {
    const entry = await collectSpecCoverage(data, context, runId);
    if (entry) recorded.set(id, entry);
    else withoutData.push(id);
  }
  const savedTo = await updateCoverageStore(
    workspaceDir,
    recorded,
    context.units,
    withoutData,
    specIds,
    plan.snapshot !== undefined
      ? { ids: new Set([...reused].filter((id) => plan.current.has(id))), snapshot: plan.snapshot }
      : undefined,
  );
  const files = new Set([...recorded.values()].flatMap((c) => Object.keys(c.files)));
  return {
    specs: recorded.size,
    files: files.size,
    withoutData,
    reused: results.filter((r) => reused.has(r.id)).map((r) => r.id),
    ...(plan.recordAgainBecause !== undefined && ran.length > 0
      ? { recordedAgainBecause: plan.recordAgainBecause }
      : {}),
    savedTo,
  };
}

/**
 * The index of the files the run executed, not of the workspace: the cost of mapping follows what the tests
 * ran (through the on-disk index cache, so a file unchanged since the last pass is not parsed again).
 */
async function indexCovered(
  workspaceDir: string,
  files: string[],
  signal: AbortSignal | undefined,
): Promise<WorkspaceIndex> {
  const indexer = createIndexer({ workspaceDir });
  try {
    return await indexer.indexWorkspace({ only: [...new Set(files)], ...(signal ? { signal } : {}) });
  } finally {
    indexer.dispose();
  }
}
