// The protected set's loaded part (commandLoads/), kept between hook events of the guard: every Edit the agent
// makes would otherwise parse each spec's command with tree-sitter-bash again (the grammar alone costs more than
// the rest of the event). The cache sits in the session's state folder (sessionRecord.ts's sessionDir, outside
// the work tree, which the guard refuses writes to) and is reused only while everything the set was derived
// from is the same: the specs (their commands, files, cwd, env, anchors) and every observation the readers made
// (readTrace.ts: each file read, each file probed — found or not — and each folder listed, with what was seen).
// A look taken again that sees anything else, or any doubt about the cache file, means computing afresh:
// a stale set could miss a protected file.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SpecFile } from '../../shared/specSchema';
import { lookAgain, type LoadedSet } from './commandLoads/loadedSet';
import { traceReads, type Observation } from './commandLoads/readTrace';
import type { ObservedLoads } from './commandLoads/specLoads';
import { observedLoadsOf } from './observedLoads';
import { protectionScopeOfSpecFile } from './protectedFiles';
import { sessionDir } from './sessionDir';

/** Bumped whenever what a reader looks at or how the set is built changes shape. */
const CACHE_VERSION = 2;
const CACHE_FILE = 'loaded-set.json';

interface CacheFile {
  version: number;
  /** The running program (its path, size and change time): another build may read commands differently. */
  program: string;
  /** Digest of the specs and defaults the set was computed from, and of what checks saw them load. */
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
  const file = path.join(await sessionDir(workspaceDir), CACHE_FILE);
  // What the user's checks saw the specs' test processes load (observedLoads.ts) is part of the set.
  const observed = await observedLoadsOf(workspaceDir, specFile.specs, specFile.defaults);
  const key = {
    version: CACHE_VERSION,
    program: await programStamp(),
    specs: specsDigest(specFile, observed),
  };
  const cached = await readCache(file);
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
  await writeCache(file, entry);
  return loaded;
}

function specsDigest(specFile: SpecFile, observed: ObservedLoads): string {
  return createHash('sha256')
    .update(JSON.stringify({ specs: specFile.specs, defaults: specFile.defaults, observed: [...observed] }))
    .digest('hex');
}

async function programStamp(): Promise<string> {
  // __filename is the bundle (dist/guard.js) or this transpiled module (out/): a rebuild changes its stamp.
  const stat = await fs.stat(__filename);
  return `${__filename}:${stat.size}:${stat.ctimeMs}`;
}

async function readCache(file: string): Promise<CacheFile | undefined> {
  try {
    const value = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
    return isCacheShape(value) ? value : undefined;
  } catch {
    // Missing, unreadable or not JSON: computed afresh and rewritten.
    return undefined;
  }
}

async function writeCache(file: string, entry: CacheFile): Promise<void> {
  const partial = `${file}.${process.pid}.tmp`;
  try {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.writeFile(partial, JSON.stringify(entry), { mode: 0o600 });
    await fs.rename(partial, file);
  } catch {
    // A state folder that cannot be written costs speed only: the set was computed and is used as is.
    await fs.rm(partial, { force: true }).catch(() => undefined);
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
