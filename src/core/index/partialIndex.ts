// An index of a few named files (the anchored files `weave validate` resolves, the changed files selection maps
// to definitions, the files the import cones of some specs walk through), without walking or parsing the rest
// of the workspace. The workspace listing is kept, so a file that exists but has no grammar is told from a
// missing one, "did you mean" can compare paths, and imports resolve as in a full index.
import fs from 'node:fs/promises';
import path from 'node:path';
import { locateGrammars } from '../grammarLocation';
import { languageOfPath } from './languages';
import { indexText } from './parseFile';
import { TreeSitterHost } from './treeSitterHost';
import type { FileIndex, IndexStats, SkippedFile } from './types';
import { listWorkspaceFiles } from './workspaceFiles';
import { WorkspaceIndex } from './workspaceIndex';

export interface PartialIndex {
  index: WorkspaceIndex;
  /** Every file the workspace lists (tracked and untracked, .gitignore applied). */
  listed: string[];
  /** The workspace's git submodules: listed apart, never parsed (see workspaceFiles.ts). */
  submodules: string[];
}

/** A partial index that grows: each `add` parses the named files not seen yet into `index`. */
export interface GrowingIndex extends PartialIndex {
  add(files: Iterable<string>): Promise<void>;
  /** Whether `add` has already looked at the file (parsed, skipped, or found missing). */
  seen(file: string): boolean;
  /** Releases the parser (the index stays usable). */
  dispose(): void;
}

const maxFileBytes = 2 * 1024 * 1024;

/** Parses exactly `files` (workspace-relative) that exist, are listed or on disk, and have a grammar. */
export async function indexSomeFiles(workspaceDir: string, files: Iterable<string>): Promise<PartialIndex> {
  const growing = await openGrowingIndex(workspaceDir);
  try {
    await growing.add(files);
  } finally {
    growing.dispose();
  }
  return { index: growing.index, listed: growing.listed, submodules: growing.submodules };
}

/**
 * A growing index of `workspaceDir`. With `adopted`, files are added into an index made before (by
 * indexSomeFiles), with its listing: the files it holds or skipped count as seen.
 */
export async function openGrowingIndex(workspaceDir: string, adopted?: PartialIndex): Promise<GrowingIndex> {
  const listing = adopted
    ? { files: adopted.listed, submodules: adopted.submodules, skipped: [] }
    : await listWorkspaceFiles(workspaceDir);
  const adopt = adopted?.index;
  const skipped: SkippedFile[] = adopt?.skipped ?? [...listing.skipped];
  const stats: IndexStats = adopt?.stats ?? {
    files: 0,
    bytes: 0,
    symbols: 0,
    byLanguage: {},
    cacheHits: 0,
    durationMs: 0,
    skipped: skipped.length,
  };
  const index = adopt ?? new WorkspaceIndex(workspaceDir, new Map(), skipped, stats, listing.submodules);
  const seen = new Set<string>(adopt ? [...index.files.keys(), ...index.skipped.map((f) => f.path)] : []);
  let host: TreeSitterHost | undefined;
  const addOne = async (rel: string): Promise<FileIndex | undefined> => {
    const language = languageOfPath(rel);
    const abs = path.join(workspaceDir, rel);
    const stat = await fs.stat(abs).catch(() => undefined);
    if (!stat?.isFile()) return undefined;
    if (!language) {
      skipped.push({ path: rel, reason: 'unknown-language' });
      return undefined;
    }
    if (stat.size > maxFileBytes) {
      skipped.push({ path: rel, reason: 'too-large', detail: `${stat.size} bytes > ${maxFileBytes}` });
      return undefined;
    }
    const content = await fs.readFile(abs);
    if (content.includes(0)) {
      skipped.push({ path: rel, reason: 'binary' });
      return undefined;
    }
    host ??= new TreeSitterHost(locateGrammars());
    return indexText(host, rel, language, content.toString('utf8'));
  };
  return {
    index,
    listed: listing.files,
    submodules: listing.submodules,
    seen: (file) => seen.has(file),
    async add(files) {
      const started = performance.now();
      for (const rel of [...new Set(files)].sort()) {
        if (seen.has(rel)) continue;
        seen.add(rel);
        const file = await addOne(rel);
        if (file === undefined) continue;
        index.updateFile(file);
        stats.files++;
        stats.bytes += file.sizeBytes;
        stats.symbols += file.symbols.length;
        stats.byLanguage[file.language] = (stats.byLanguage[file.language] ?? 0) + 1;
      }
      stats.skipped = skipped.length;
      stats.durationMs += Math.round(performance.now() - started);
    },
    dispose() {
      host?.dispose();
      host = undefined;
    },
  };
}
