// The protected set's loaded part (commandLoads/), kept between hook events of the guard: every Edit the agent
// makes would otherwise parse each spec's command with tree-sitter-bash again (the grammar alone costs more than
// the rest of the event). The cache sits in the session's state folder (sessionRecord.ts's sessionDir, outside
// the work tree, which the guard refuses writes to) and is reused only while everything the set was derived
// from is the same: the specs (their commands, files, cwd, env, anchors) and every observation the readers made
// (readTrace.ts: each file read, each file probed — found or not — and each folder listed, with what was seen).
// A look taken again that sees anything else, or any doubt about the cache file, means computing afresh:
// a stale set could miss a protected file. Checking the cache is the guard's hot path (every Edit): it reads
// synchronously, compares what was seen exactly instead of hashing, and loads the readers only to compute.
import fs from 'node:fs';
import path from 'node:path';
import type { SpecFile } from '../../shared/specSchema';
import type { LoadedSet } from './commandLoads/loadedSet';
import { lookAgain, traceReads, type Observation } from './commandLoads/readTrace';
import { observedLoadsFile, sessionDir } from './sessionFolder';
import { programStamp, writeStateFile } from '../stateDir';

/** Bumped whenever what a reader looks at or how the set is built changes shape (2: exact observations). */
const CACHE_VERSION = 2;
const CACHE_FILE = 'loaded-set.json';

interface CacheFile {
  version: number;
  /** The running program (its path, size and change time): another build may read commands differently. */
  program: string;
  /** The specs and defaults the set was computed from, as JSON, and what checks saw them load (its file's text). */
  specs: string;
  observations: Observation[];
  loaded: {
    files: Array<[string, string]>;
    keys: Array<[string, Array<[string, string]>]>;
    unknown: string[];
  };
}

/** The specs' loaded set: the cached one when nothing it was derived from changed, else computed and cached. */
export async function cachedLoadedSet(workspaceDir: string, specFile: SpecFile): Promise<LoadedSet> {
  const file = path.join(sessionDir(workspaceDir), CACHE_FILE);
  // What the user's checks saw the specs' test processes load (observedLoads.ts) is part of the set: its file's
  // text is part of the key (read synchronously; parsed only when the set is computed).
  const observedText = readOptionalText(observedLoadsFile(workspaceDir));
  const key = { version: CACHE_VERSION, program: programStamp(), specs: specsKey(specFile, observedText) };
  const cached = readCache(file);
  if (
    cached !== undefined &&
    cached.version === key.version &&
    cached.program === key.program &&
    cached.specs === key.specs &&
    cached.observations.every((o) => lookAgain(o.kind, o.path) === o.seen)
  )
    return {
      files: new Map(cached.loaded.files),
      keys: new Map(cached.loaded.keys.map(([manifest, labels]) => [manifest, new Map(labels)])),
      unknown: cached.loaded.unknown,
    };
  // The readers (tree-sitter-bash included) load only when the set is computed.
  const { protectionScopeOfSpecFile } = await import('./protectedFiles.js');
  const { observedLoadsOf } = await import('./observedLoads.js');
  const observed = await observedLoadsOf(workspaceDir, specFile.specs, specFile.defaults);
  const { value: scope, observations } = await traceReads(() =>
    protectionScopeOfSpecFile(workspaceDir, specFile, observed),
  );
  const loaded = scope.loaded;
  const entry: CacheFile = {
    ...key,
    observations,
    loaded: {
      files: [...loaded.files],
      keys: [...loaded.keys].map(([manifest, labels]) => [manifest, [...labels]]),
      unknown: [...loaded.unknown],
    },
  };
  writeStateFile(file, JSON.stringify(entry));
  return loaded;
}

function specsKey(specFile: SpecFile, observedText: string | undefined): string {
  return JSON.stringify({
    specs: specFile.specs,
    defaults: specFile.defaults,
    observed: observedText ?? null,
  });
}

function readOptionalText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function readCache(file: string): CacheFile | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    return isCacheShape(value) ? value : undefined;
  } catch {
    // Missing, unreadable or not JSON: computed afresh and rewritten.
    return undefined;
  }
}

function isCacheShape(value: unknown): value is CacheFile {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<CacheFile>;
  return (
    typeof v.version === 'number' &&
    typeof v.program === 'string' &&
    typeof v.specs === 'string' &&
    Array.isArray(v.observations) &&
    v.observations.every(
      (o) =>
        typeof o === 'object' &&
        o !== null &&
        ['text', 'is-file', 'list'].includes(o.kind) &&
        typeof o.path === 'string' &&
        typeof o.seen === 'string',
    ) &&
    typeof v.loaded === 'object' &&
    v.loaded !== null &&
    Array.isArray(v.loaded.files) &&
    Array.isArray(v.loaded.keys) &&
    Array.isArray(v.loaded.unknown)
  );
}
