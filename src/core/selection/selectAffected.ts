// Affected-spec selection for a workspace on disk: find the changes (git or a file list), load the specs with
// their anchors over a partial index of just the anchored and changed files, read recorded coverage, and parse
// only what the import cones of the specs coverage leaves undecided reach (lazyCones.ts) before affected.ts
// decides. The CLI, the MCP server and the guard hooks start here; the extension calls affectedSpecs directly
// with its own live index.
import path from 'node:path';
import { loadAnchoredWorkspaceFor } from '../anchors/anchoredWorkspace';
import { loadCoverageView } from '../coverage/base';
import { openGrowingIndex } from '../index/partialIndex';
import type { SpecProblem } from '../spec/problems';
import { affectedSpecs, specsLeftToCones, type AffectedResult } from './affected';
import { classifyChanges } from './changeKinds';
import { changedFilesBetween, changedFilesFromList, changedFilesSince } from './changes';
import type { SpecCone } from './cones';
import { lazySpecCones } from './lazyCones';

export interface SelectAffectedOptions {
  workspaceDir: string;
  /** Changes since this git ref (committed, staged, unstaged and untracked). Default `HEAD`. */
  since?: string;
  /** Or exactly these workspace-relative files. */
  files?: string[];
  /** Or the changes from one snapshot tree to another (coverage reuse, see coverage/reuse.ts). */
  between?: { from: string; to: string };
  signal?: AbortSignal;
  /** Use recorded per-spec coverage first (default true); false: the static import cones only. */
  useCoverage?: boolean;
}

export interface SelectedAffected extends AffectedResult {
  /** `--files` or `changes since REF`. */
  source: string;
  specCount: number;
  /** Anchors that did not resolve (printed as warnings: selection still covers those specs' tests). */
  anchorProblems: SpecProblem[];
  /** Where recorded coverage came from, when selection used it. */
  coverage?: string;
  /** What selection parsed: the anchored and changed files and what the cones it needed reach. */
  parsed: { files: number; bytes: number };
}

/** Loads the workspace, finds the changes and selects the affected specs (throws ChangeInputError on bad input). */
export async function selectAffected(options: SelectAffectedOptions): Promise<SelectedAffected> {
  const workspaceDir = path.resolve(options.workspaceDir);
  const changes =
    options.files !== undefined
      ? changedFilesFromList(workspaceDir, options.files)
      : options.between !== undefined
        ? await changedFilesBetween(workspaceDir, options.between.from, options.between.to)
        : await changedFilesSince(workspaceDir, options.since ?? 'HEAD');
  // The cost follows the change: the anchored and changed files are parsed (to resolve anchors and map hunks
  // to definitions), and beyond them only the files the import cones of the specs coverage cannot decide
  // reach; a change whose impact is unknown (every spec is then selected) needs no cone at all.
  const signal = options.signal ? { signal: options.signal } : {};
  const ws = await loadAnchoredWorkspaceFor(
    workspaceDir,
    changes.map((c) => c.path),
    signal,
  );
  const coverage =
    options.useCoverage === false
      ? undefined
      : await loadCoverageView({
          workspaceDir: ws.workspaceDir,
          index: ws.index,
          ...(options.files !== undefined
            ? { files: changes.map((c) => c.path) }
            : options.between !== undefined
              ? { since: options.between.from, to: options.between.to }
              : { since: options.since ?? 'HEAD' }),
        });
  const listed = new Set(ws.listed);
  const submodules = ws.submodules ?? [];
  const { allReasons, traceable } = classifyChanges(changes, ws.index, ws.specFilePath, listed, submodules);
  const leftToCones =
    allReasons.length === 0 && traceable.length > 0
      ? specsLeftToCones(ws.specFile, traceable, coverage)
      : new Set<string>();
  let cones = new Map<string, SpecCone>();
  if (leftToCones.size > 0) {
    options.signal?.throwIfAborted();
    const growing = await openGrowingIndex(ws.workspaceDir, {
      index: ws.index,
      listed: ws.listed ?? [],
      submodules,
    });
    try {
      cones = await lazySpecCones(ws.specFile, growing, leftToCones, {
        workspaceDir: ws.workspaceDir,
        resolved: ws.resolved,
      });
    } finally {
      growing.dispose();
    }
  }
  const result = affectedSpecs({
    specFile: ws.specFile,
    index: ws.index,
    changes,
    resolved: ws.resolved,
    workspaceDir: ws.workspaceDir,
    specFilePath: ws.specFilePath,
    ...(coverage ? { coverage } : {}),
    partial: { listed, submodules, cones },
  });
  const source =
    options.files !== undefined
      ? '--files'
      : options.between !== undefined
        ? `changes from ${options.between.from} to ${options.between.to}`
        : `changes since ${options.since ?? 'HEAD'}`;
  return {
    ...result,
    source,
    specCount: ws.specFile.specs.length,
    anchorProblems: ws.anchorProblems,
    ...(coverage ? { coverage: coverage.describe() } : {}),
    parsed: { files: ws.index.files.size, bytes: ws.index.stats.bytes },
  };
}

/** The ids `weave check --affected` runs: every spec a change can affect, in spec-file order. */
export async function affectedSpecIds(options: SelectAffectedOptions): Promise<string[]> {
  return (await selectAffected(options)).affected.map((s) => s.id);
}
