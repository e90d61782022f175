// The on-disk index cache (default <workspace>/.weave/cache/index/, git-ignored by the `.gitignore` this
// module writes into .weave/cache/). One JSON file: for each path, the size and mtime it had and what was
// extracted from its content (keyed by the content's sha256). A file whose size and mtime are unchanged is
// not even read on a warm run; a file whose mtime changed but whose content hashes the same is reused
// without parsing. The whole cache is dropped when the grammars, queries or extractor change (fingerprint).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { languageIds } from './languages';
import { joinedQuerySource } from './treeSitterHost';
import type { FileIndex } from './types';

/** Bump when extract.ts changes what it produces for the same tree. */
const extractorVersion = 1;
const cacheFileName = 'index-v1.json';

export interface CacheEntry {
  size: number;
  mtimeMs: number;
  /** The extracted file, without `path` and `imports` (resolved per run against the current files). */
  file: Omit<FileIndex, 'path' | 'imports'>;
}

interface CacheFile {
  fingerprint: string;
  entries: Record<string, CacheEntry>;
}

export function cacheFingerprint(grammarsDir: string): string {
  const h = createHash('sha256').update(`extractor ${extractorVersion}\n`);
  // manifest.json records each grammar package's version (copy-grammars.mjs).
  h.update(fs.readFileSync(path.join(grammarsDir, 'manifest.json')));
  for (const id of languageIds) h.update(joinedQuerySource(grammarsDir, id));
  return h.digest('hex');
}

export function readIndexCache(cacheDir: string, fingerprint: string): Map<string, CacheEntry> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(path.join(cacheDir, cacheFileName), 'utf8'));
  } catch {
    return new Map(); // no cache yet, or a damaged one: start cold
  }
  const file = parsed as Partial<CacheFile> | null;
  if (!file || file.fingerprint !== fingerprint || typeof file.entries !== 'object' || file.entries === null) {
    return new Map();
  }
  return new Map(Object.entries(file.entries));
}

export function writeIndexCache(cacheDir: string, fingerprint: string, entries: Map<string, CacheEntry>): void {
  fs.mkdirSync(cacheDir, { recursive: true });
  ensureCacheIgnored(cacheDir);
  const body: CacheFile = { fingerprint, entries: Object.fromEntries(entries) };
  // Write then rename: a reader never sees half a file, and two writers leave one whole file.
  const tmp = path.join(cacheDir, `${cacheFileName}.${process.pid}.${Date.now()}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(body));
  fs.renameSync(tmp, path.join(cacheDir, cacheFileName));
}

/** Git-ignores the cache: a `.gitignore` with `*` in `.weave/cache/` (or in a custom cache folder itself). */
function ensureCacheIgnored(cacheDir: string): void {
  const parent = path.dirname(cacheDir);
  const dir = path.basename(parent) === 'cache' ? parent : cacheDir;
  const marker = path.join(dir, '.gitignore');
  if (!fs.existsSync(marker)) fs.writeFileSync(marker, '# Weave cache: regenerated on demand\n*\n');
}
