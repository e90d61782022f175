// Affected-spec selection for a workspace on disk: find the changes (git or a file list), load the specs with
// their anchors over a partial index of just the anchored and changed files, read recorded coverage, and parse
// only what the import cones of the specs coverage leaves undecided reach (lazyCones.ts) before affected.ts
// decides. The CLI, the MCP server and the guard hooks start here; the extension calls affectedSpecs directly
// with its own live index.
import path from 'node:path';
import { loadAnchoredWorkspaceFor, type AnchoredWorkspace } from '../anchors/anchoredWorkspace';
import { loadCoverageView } from '../coverage/base';
import type { CoverageView } from '../coverage/select';
import { openGrowingIndex } from '../index';
import type { SpecProblem } from '../spec';
import { affectedSpecs, specsLeftToCones, type AffectedResult } from './affected';
import { classifyChanges } from './changeKinds';
import { changedFilesFromList, changedFilesSince, changesBetween, type ChangedFile } from '../git/changes';
import type { SpecCone } from './cones';
import { lazySpecCones } from './lazyCones';

export interface SelectAffectedOptions {
  workspaceDir: string;
  /** Changes since this git ref (committed, staged, unstaged and untracked). Default `HEAD`. */
  since?: string;
  /** Or exactly these workspace-relative files. */
  files?: string[];
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
            : { since: options.since ?? 'HEAD' }),
        });
  const [result] = await selectOver(ws, [{ changes, ...(coverage ? { coverage } : {}) }], options.signal);
  const source = options.files !== undefined ? '--files' : `changes since ${options.since ?? 'HEAD'}`;
  return {
    ...result!,
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

/** One change set to select for, with the coverage view of its base. */
interface ChangeSet {
  changes: ChangedFile[];
  coverage?: CoverageView;
}

/**
 * Selection for each change set over one loaded workspace: the import cones the sets leave to the static rule
 * are computed once, for all of them.
 */
async function selectOver(
  ws: AnchoredWorkspace,
  sets: readonly ChangeSet[],
  signal: AbortSignal | undefined,
): Promise<AffectedResult[]> {
  const listed = new Set(ws.listed);
  const submodules = ws.submodules ?? [];
  const leftToCones = new Set<string>();
  for (const { changes, coverage } of sets) {
    const { allReasons, traceable } = classifyChanges(changes, ws.index, ws.specFilePath, listed, submodules);
    if (allReasons.length > 0 || traceable.length === 0) continue;
    for (const id of specsLeftToCones(ws.specFile, traceable, coverage)) leftToCones.add(id);
  }
  let cones = new Map<string, SpecCone>();
  if (leftToCones.size > 0) {
    signal?.throwIfAborted();
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
  return sets.map(({ changes, coverage }) =>
    affectedSpecs({
      specFile: ws.specFile,
      index: ws.index,
      changes,
      resolved: ws.resolved,
      workspaceDir: ws.workspaceDir,
      specFilePath: ws.specFilePath,
      ...(coverage ? { coverage } : {}),
      partial: { listed, submodules, cones },
    }),
  );
}

/**
 * Selection for the changes from each of several git trees to one (coverage reuse: the snapshots coverage was
 * recorded at, to today's), with recorded coverage, loading the workspace and computing cones once.
 */
export async function selectAffectedBetween(
  workspaceDir: string,
  froms: readonly string[],
  to: string,
  signal?: AbortSignal,
): Promise<AffectedResult[]> {
  const dir = path.resolve(workspaceDir);
  const diffs = await Promise.all(froms.map((from) => changesBetween(dir, from, to)));
  const changed = [...new Set(diffs.flatMap((d) => d.changes.map((c) => c.path)))];
  const ws = await loadAnchoredWorkspaceFor(dir, changed, signal ? { signal } : {});
  const views = await Promise.all(
    froms.map((from, i) =>
      loadCoverageView({
        workspaceDir: ws.workspaceDir,
        index: ws.index,
        since: from,
        to,
        zeroContextDiff: diffs[i]!.zeroContextDiff,
      }),
    ),
  );
  return selectOver(
    ws,
    diffs.map(({ changes }, i) => {
      const coverage = views[i];
      return { changes, ...(coverage ? { coverage } : {}) };
    }),
    signal,
  );
}
