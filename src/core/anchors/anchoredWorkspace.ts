// Everything the code-intelligence verbs start from: the checked spec file, the tree-sitter index of the
// workspace, and the anchors resolved against it.
import path from 'node:path';
import { createIndexer } from '../index/index';
import { indexSomeFiles, type WorkspaceIndex } from '../index';
import {
  loadSpecFile,
  parseAnchor,
  SPEC_FILE_RELATIVE_PATH,
  SpecLoadError,
  type SpecLoadResult,
  type SpecLocations,
  type SpecProblem,
} from '../spec';
import type { SpecFile } from '../../shared/specSchema';
import { normalizeWorkspacePath } from '../workspacePath';
import { resolveAnchors, type ResolvedAnchor } from './resolve';

export interface AnchoredWorkspace {
  workspaceDir: string;
  specFile: SpecFile;
  specFilePath: string;
  locations: SpecLocations;
  index: WorkspaceIndex;
  resolved: Map<string, ResolvedAnchor[]>;
  /** Anchor problems (missing files or symbols, ambiguous symbols), located in the spec file. */
  anchorProblems: SpecProblem[];
  /** With a partial index (loadAnchoredWorkspaceFor): every file the workspace lists, and its git submodules. */
  listed?: string[];
  submodules?: string[];
}

/** Indexes the workspace once (with the on-disk cache under .weave/cache/ unless `useCache` is false). */
export async function indexWorkspace(
  workspaceDir: string,
  options: { signal?: AbortSignal; useCache?: boolean } = {},
): Promise<WorkspaceIndex> {
  const indexer = createIndexer({ workspaceDir, ...(options.useCache === false ? { useCache: false } : {}) });
  try {
    return await indexer.indexWorkspace(options.signal ? { signal: options.signal } : {});
  } finally {
    indexer.dispose();
  }
}

/** Loads specs (throws SpecLoadError when the spec file is invalid), indexes, resolves anchors. */
export async function loadAnchoredWorkspace(
  workspaceDir: string,
  options: { signal?: AbortSignal; useCache?: boolean } = {},
): Promise<AnchoredWorkspace> {
  const dir = path.resolve(workspaceDir);
  const loaded = await loadSpecFile(dir);
  if (!loaded.ok) throw new SpecLoadError(loaded.file, loaded.problems);
  return anchoredOver(dir, loaded, await indexWorkspace(dir, options));
}

/**
 * Like loadAnchoredWorkspace, but parses only the anchored files and `files` (e.g. the changed ones): enough to
 * resolve anchors and map changed lines to definitions, not to follow imports.
 */
export async function loadAnchoredWorkspaceFor(
  workspaceDir: string,
  files: string[],
  options: { signal?: AbortSignal } = {},
): Promise<AnchoredWorkspace> {
  const dir = path.resolve(workspaceDir);
  const loaded = await loadSpecFile(dir);
  if (!loaded.ok) throw new SpecLoadError(loaded.file, loaded.problems);
  options.signal?.throwIfAborted();
  const { index, listed, submodules } = await indexSomeFiles(dir, [
    ...anchoredFiles(loaded.specFile),
    ...files,
  ]);
  return { ...anchoredOver(dir, loaded, index, listed), submodules };
}

/** The loaded specs with their anchors resolved against `index` (`listed`: every file of a partial index). */
function anchoredOver(
  dir: string,
  loaded: Extract<SpecLoadResult, { ok: true }>,
  index: WorkspaceIndex,
  listed?: string[],
): AnchoredWorkspace {
  const { resolved, problems } = resolveAnchors(loaded.specFile, index, {
    workspaceDir: dir,
    locations: loaded.locations,
    specFilePath: loaded.file,
    ...(listed ? { knownFiles: listed } : {}),
  });
  return {
    workspaceDir: dir,
    specFile: loaded.specFile,
    specFilePath: SPEC_FILE_RELATIVE_PATH,
    locations: loaded.locations,
    index,
    resolved,
    anchorProblems: problems,
    ...(listed ? { listed } : {}),
  };
}

/** The files the specs' anchors name (workspace-relative). */
export function anchoredFiles(specFile: SpecFile): string[] {
  return specFile.specs.flatMap((s) => s.anchors.map((a) => normalizeWorkspacePath(parseAnchor(a).file)));
}
