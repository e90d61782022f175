// The on-disk index cache (default <workspace>/.weave/cache/index/, git-ignored by the `.gitignore` this
// module writes into .weave/cache/). One JSON file: for each path, the size and mtime it had and what was
// extracted from its content (with the content's sha256). A file whose size and mtime are unchanged is not
// even read on a warm run; a file whose mtime changed but whose content hashes the same is reused without
// parsing. The whole cache is dropped when the grammars, queries or extractor change (fingerprint).
// The entries are stored compactly (names joined by newlines, ranges as flat integer arrays) because the
// warm index is mostly the time to load this file: ~4× smaller and faster to parse than plain FileIndex JSON.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { languageIds } from './languages';
import { joinedQuerySource } from './treeSitterHost';
import type { FileIndex, LanguageId, SymbolDef } from './types';

/** Bump when extract.ts changes what it produces for the same tree, or when the encoding below changes. */
const extractorVersion = 4;
const cacheFileName = 'index-v3.json';

/** What is kept per file: the extraction without `path` and `imports` (imports are resolved per run). */
export type CachedFile = Omit<FileIndex, 'path' | 'imports'>;

export interface CacheEntry {
  size: number;
  mtimeMs: number;
  /** For an entry read from disk, `symbols` is decoded on first access (most of a warm run's cost otherwise). */
  file: CachedFile;
  symbolCount: number;
  /** Resolved imports; valid only while the workspace's file list hashes to the cache's `fileListHash`. */
  imports: string[];
  /** The stored form, re-used when the cache is written again and the entry did not change. */
  encoded?: EncodedEntry;
}

export interface IndexCache {
  /** sha256 of the workspace's file list when the imports were resolved. */
  fileListHash: string;
  entries: Map<string, CacheEntry>;
}

const symbolKinds: SymbolDef['kind'][] = [
  'class',
  'interface',
  'function',
  'method',
  'module',
  'type',
  'enum',
  'constant',
  'other',
  'field',
];
const kindCodes = new Map(symbolKinds.map((k, i) => [k, i]));
/** Integers per symbol: kind, range (4), name range (4), stored as deltas (see encodePositions). */
const intsPerSymbol = 9;

/**
 * [path, size, mtimeMs, language, hash, sizeBytes, hasSyntaxErrors, qualifiedNames, ints, references,
 * importSpecifiers, imports, names?]. `names` is stored only when a name is not the last segment of its
 * qualified name.
 */
type EncodedEntry = [
  string,
  number,
  number,
  LanguageId,
  string,
  number,
  0 | 1,
  string,
  string,
  string,
  string,
  string,
  string?,
];

interface CacheFileBody {
  fingerprint: string;
  fileListHash: string;
  entries: EncodedEntry[];
}

export function cacheFingerprint(grammarsDir: string): string {
  const h = createHash('sha256').update(`extractor ${extractorVersion}\n`);
  // manifest.json records each grammar package's version (copy-grammars.mjs).
  h.update(fs.readFileSync(path.join(grammarsDir, 'manifest.json')));
  for (const id of languageIds) h.update(joinedQuerySource(grammarsDir, id));
  return h.digest('hex');
}

export function emptyIndexCache(): IndexCache {
  return { fileListHash: '', entries: new Map() };
}

export function fileListHash(files: string[]): string {
  return createHash('sha256').update(files.join('\n')).digest('hex');
}

export function readIndexCache(cacheDir: string, fingerprint: string): IndexCache {
  let body: Partial<CacheFileBody> | null;
  try {
    body = JSON.parse(
      fs.readFileSync(path.join(cacheDir, cacheFileName), 'utf8'),
    ) as Partial<CacheFileBody> | null;
  } catch {
    return emptyIndexCache(); // no cache yet, or a damaged one: start cold
  }
  if (!body || body.fingerprint !== fingerprint || !Array.isArray(body.entries)) return emptyIndexCache();
  const entries = new Map<string, CacheEntry>();
  try {
    for (const e of body.entries) entries.set(e[0], decodeEntry(e));
  } catch {
    return emptyIndexCache(); // a hand-edited or truncated entry: start cold rather than trust any of it
  }
  return { fileListHash: typeof body.fileListHash === 'string' ? body.fileListHash : '', entries };
}

export function writeIndexCache(cacheDir: string, fingerprint: string, cache: IndexCache): void {
  fs.mkdirSync(cacheDir, { recursive: true });
  ensureCacheIgnored(cacheDir);
  const body: CacheFileBody = {
    fingerprint,
    fileListHash: cache.fileListHash,
    entries: [...cache.entries].map(([file, entry]) => encodeEntry(file, entry)),
  };
  // Write then rename: a reader never sees half a file, and two writers leave one whole file.
  const tmp = path.join(cacheDir, `${cacheFileName}.${process.pid}.${Date.now()}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(body));
  fs.renameSync(tmp, path.join(cacheDir, cacheFileName));
}

function encodeEntry(file: string, entry: CacheEntry): EncodedEntry {
  const { size, mtimeMs, file: f, imports, encoded: stored } = entry;
  if (stored && stored[0] === file && stored[1] === size && stored[2] === mtimeMs) {
    stored[11] = imports.join('\n');
    return stored;
  }
  const encoded: EncodedEntry = [
    file,
    size,
    mtimeMs,
    f.language,
    f.hash,
    f.sizeBytes,
    f.hasSyntaxErrors ? 1 : 0,
    f.symbols.map((s) => s.qualifiedName).join('\n'),
    encodePositions(f.symbols),
    f.references.join('\n'),
    f.importSpecifiers.join('\n'),
    imports.join('\n'),
  ];
  if (f.symbols.some((s) => s.name !== lastSegment(s.qualifiedName)))
    encoded.push(f.symbols.map((s) => s.name).join('\n'));
  return encoded;
}

/**
 * `<count>:` then, per symbol, 9 comma-separated integers: kind, start line (relative to the previous
 * symbol's), start column, end line (relative to start), end column, and the name range the same way relative
 * to the definition. Deltas keep the numbers to a digit or two: about half the size of raw int32s in base64,
 * and the cache file's size is most of a warm run's time.
 */
function encodePositions(symbols: SymbolDef[]): string {
  const ints: number[] = [];
  let previousLine = 0;
  for (const s of symbols) {
    const r = s.range;
    const n = s.nameRange;
    ints.push(kindCodes.get(s.kind) ?? symbolKinds.length - 1);
    ints.push(r.start.line - previousLine, r.start.column, r.end.line - r.start.line, r.end.column);
    ints.push(n.start.line - r.start.line, n.start.column, n.end.line - n.start.line, n.end.column);
    previousLine = r.start.line;
  }
  return `${symbols.length}:${ints.join(',')}`;
}

function decodePositions(
  encoded: string,
  count: number,
): Array<Pick<SymbolDef, 'kind' | 'range' | 'nameRange'>> {
  const body = encoded.slice(encoded.indexOf(':') + 1);
  const ints = body === '' ? [] : body.split(',').map(Number);
  if (ints.length !== count * intsPerSymbol || ints.some((n) => !Number.isInteger(n))) {
    throw new Error('damaged index cache entry: delete .weave/cache/index to rebuild it');
  }
  const out: Array<Pick<SymbolDef, 'kind' | 'range' | 'nameRange'>> = [];
  let previousLine = 0;
  for (let o = 0; o < ints.length; o += intsPerSymbol) {
    const at = (k: number) => ints[o + k]!;
    const startLine = previousLine + at(1);
    const nameLine = startLine + at(5);
    out.push({
      kind: symbolKinds[at(0)] ?? 'other',
      range: { start: { line: startLine, column: at(2) }, end: { line: startLine + at(3), column: at(4) } },
      nameRange: { start: { line: nameLine, column: at(6) }, end: { line: nameLine + at(7), column: at(8) } },
    });
    previousLine = startLine;
  }
  return out;
}

function lastSegment(qualifiedName: string): string {
  return qualifiedName.slice(qualifiedName.lastIndexOf('.') + 1);
}

function decodeEntry(e: EncodedEntry): CacheEntry {
  const [
    ,
    size,
    mtimeMs,
    language,
    hash,
    sizeBytes,
    hasSyntaxErrors,
    qualified,
    positions,
    references,
    specifiers,
  ] = e;
  const [, , , , , , , , , , , imports, names] = e;
  // Only the count is read now; names and positions are decoded when the symbols are first asked for.
  const symbolCount = Number.parseInt(positions, 10);
  if (!Number.isInteger(symbolCount) || symbolCount < 0) throw new Error('damaged index cache entry');
  const decodeSymbols = (): SymbolDef[] => {
    const qualifiedNames = qualified === '' ? [] : qualified.split('\n');
    const simpleNames = names?.split('\n');
    const places = decodePositions(positions, qualifiedNames.length);
    if (qualifiedNames.length !== symbolCount) throw new Error('damaged index cache entry');
    return qualifiedNames.map((qualifiedName, i) => ({
      name: simpleNames?.[i] ?? lastSegment(qualifiedName),
      qualifiedName,
      ...places[i]!,
    }));
  };
  const file: CachedFile = {
    language,
    hash,
    sizeBytes,
    symbols: [],
    references: [],
    importSpecifiers: specifiers === '' ? [] : specifiers.split('\n'),
    hasSyntaxErrors: hasSyntaxErrors === 1,
  };
  defineLazy(file, 'symbols', decodeSymbols);
  defineLazy(file, 'references', () => (references === '' ? [] : references.split('\n')));
  return {
    size,
    mtimeMs,
    file,
    symbolCount,
    imports: imports === '' ? [] : imports.split('\n'),
    encoded: e,
  };
}

type LazyKey = 'symbols' | 'references';

/**
 * Makes `target[key]` decode on first read (then a plain data property). It stays an own enumerable property
 * in its original place, so JSON output and deep equality see an ordinary object.
 */
function defineLazy<K extends LazyKey>(target: Pick<FileIndex, K>, key: K, decode: () => FileIndex[K]): void {
  let decoded: FileIndex[K] | undefined;
  const settle = (value: FileIndex[K]) => {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => settle((decoded ??= decode())),
    set: (value: FileIndex[K]) => settle(value),
  });
}

/** Shares a cached file's lazily decoded symbols and references with a FileIndex built from it. */
export function copyLazyFields(from: CachedFile, to: Pick<FileIndex, LazyKey>): void {
  for (const key of ['symbols', 'references'] as const) {
    if (Object.getOwnPropertyDescriptor(from, key)?.get) defineLazy(to, key, () => from[key]);
    else (to as Record<LazyKey, unknown>)[key] = from[key];
  }
}

/** Git-ignores the cache: a `.gitignore` with `*` in `.weave/cache/` (or in a custom cache folder itself). */
export function ensureCacheIgnored(cacheDir: string): void {
  const parent = path.dirname(cacheDir);
  const dir = path.basename(parent) === 'cache' ? parent : cacheDir;
  const marker = path.join(dir, '.gitignore');
  if (!fs.existsSync(marker)) fs.writeFileSync(marker, '# Weave cache: regenerated on demand\n*\n');
}
