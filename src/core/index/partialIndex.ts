// An index of a few named files (the anchored files `weave validate` resolves, the changed files selection maps
// to definitions), without walking or parsing the rest of the workspace. The workspace listing is kept, so a
// file that exists but has no grammar is told from a missing one, and "did you mean" can compare paths.
import fs from 'node:fs/promises';
import path from 'node:path';
import { locateGrammars } from './grammarLocation';
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
}

const maxFileBytes = 2 * 1024 * 1024;

/** Parses exactly `files` (workspace-relative) that exist, are listed or on disk, and have a grammar. */
export async function indexSomeFiles(workspaceDir: string, files: Iterable<string>): Promise<PartialIndex> {
  const started = performance.now();
  const listing = await listWorkspaceFiles(workspaceDir);
  const wanted = [...new Set(files)].sort();
  const indexed = new Map<string, FileIndex>();
  const skipped: SkippedFile[] = [...listing.skipped];
  let host: TreeSitterHost | undefined;
  try {
    for (const rel of wanted) {
      const language = languageOfPath(rel);
      const abs = path.join(workspaceDir, rel);
      const stat = await fs.stat(abs).catch(() => undefined);
      if (!stat?.isFile()) continue;
      if (!language) {
        skipped.push({ path: rel, reason: 'unknown-language' });
        continue;
      }
      if (stat.size > maxFileBytes) {
        skipped.push({ path: rel, reason: 'too-large', detail: `${stat.size} bytes > ${maxFileBytes}` });
        continue;
      }
      const content = await fs.readFile(abs);
      if (content.includes(0)) {
        skipped.push({ path: rel, reason: 'binary' });
        continue;
      }
      host ??= new TreeSitterHost(locateGrammars());
      indexed.set(rel, await indexText(host, rel, language, content.toString('utf8')));
    }
  } finally {
    host?.dispose();
  }
  const stats: IndexStats = {
    files: indexed.size,
    bytes: [...indexed.values()].reduce((n, f) => n + f.sizeBytes, 0),
    symbols: [...indexed.values()].reduce((n, f) => n + f.symbols.length, 0),
    byLanguage: {},
    cacheHits: 0,
    durationMs: Math.round(performance.now() - started),
    skipped: skipped.length,
  };
  for (const f of indexed.values()) stats.byLanguage[f.language] = (stats.byLanguage[f.language] ?? 0) + 1;
  return { index: new WorkspaceIndex(workspaceDir, indexed, skipped, stats), listed: listing.files };
}
