// The spec file as `weave guard` reads it on every agent tool call. The format has one definition, the zod schema
// with core/spec's checks, and loading it costs a hook process more than the rest of an Edit's decision; so the
// guard keeps the validated, normalised spec file in the session's state folder (beside the loaded-set cache,
// outside the work tree) with the exact bytes it came from, and runs the checks again only when the bytes or the
// running program differ. An invalid file is never cached: it is checked afresh on every event.
import fs from 'node:fs';
import path from 'node:path';
import { sessionDir } from '../../core/sandbox/sessionFolder';
import { MAX_SPEC_FILE_BYTES, specFilePath } from '../../core/specFileLocation';
import { programStamp, writeStateFile } from '../../core/stateDir';
import type { SpecFile } from '../../shared/specSchema';

const CACHE_FILE = 'spec-file.json';
const CACHE_VERSION = 1;

export type GuardSpecFile = { ok: true; file: string; specFile: SpecFile } | { ok: false; file: string };

interface CacheFile {
  version: number;
  program: string;
  /** The spec file's bytes, one character per byte (latin1): compared exactly, no hash to trust. */
  bytes: string;
  specFile: SpecFile;
}

/** The workspace's spec file, validated (from the cache while its bytes are the ones validated). */
export async function guardSpecFile(workspaceDir: string): Promise<GuardSpecFile> {
  const file = specFilePath(workspaceDir);
  const bytes = readBytes(file);
  const cacheFile = path.join(sessionDir(workspaceDir), CACHE_FILE);
  const program = programStamp();
  const key = bytes?.toString('latin1');
  if (key !== undefined) {
    const cached = readCache(cacheFile);
    if (cached?.version === CACHE_VERSION && cached.program === program && cached.bytes === key)
      return { ok: true, file, specFile: cached.specFile };
  }
  // The spec model (zod and the checks) loads only here.
  const spec = await import('../../core/spec/index.js');
  if (bytes === undefined || key === undefined) {
    // Missing, not a file, too big or unreadable: the loader says which.
    const loaded = await spec.loadSpecFile(workspaceDir);
    return loaded.ok ? { ok: true, file, specFile: loaded.specFile } : { ok: false, file };
  }
  const loaded = spec.parseSpecFileBytes(bytes, file);
  if (!loaded.ok) return { ok: false, file };
  const entry: CacheFile = { version: CACHE_VERSION, program, bytes: key, specFile: loaded.specFile };
  writeStateFile(cacheFile, JSON.stringify(entry));
  return { ok: true, file, specFile: loaded.specFile };
}

function readBytes(file: string): Buffer | undefined {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size > MAX_SPEC_FILE_BYTES) return undefined;
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

function readCache(file: string): CacheFile | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<CacheFile> | null;
    const specFile = value?.specFile as Partial<SpecFile> | undefined;
    if (
      typeof value?.version !== 'number' ||
      typeof value.program !== 'string' ||
      typeof value.bytes !== 'string' ||
      typeof specFile !== 'object' ||
      specFile === null ||
      !Array.isArray(specFile.specs) ||
      typeof specFile.defaults !== 'object'
    )
      return undefined;
    return value as CacheFile;
  } catch {
    // Missing, unreadable or not JSON: checked afresh and rewritten.
    return undefined;
  }
}
