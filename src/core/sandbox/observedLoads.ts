// The observed part of the protected set: the files each spec's test process had loaded when its first test
// started, as Weave's runner hooks saw them (resources/evidence: pytest after collection, unittest at its first
// test, node:test as a test file's first test is dequeued, mocha as its run begins — CommonJS and, through a
// module load hook, ES modules —, jest and vitest at each test file's first test from their own module registries,
// in their workers: weave-evidence-loads.cjs). A helper loaded through a computed name
// (`require(path.join(__dirname, 'h' + 'elpers'))`, `await import(url)`, `importlib.import_module('test' + 'ing_utils')`)
// is out of reach of the lexical import scan (commandLoads/testImports.ts) but not of this. The hooks look for
// ES modules and read jest's and vitest's registries only when the run asks (runSpec.ts: a run with `onLoaded`).
//
// Only a reference run is kept: a run whose code is by definition the one the judge trusts — `weave check` of
// the user's own tree, and the base of an agent run before the agent worked. A run on behalf of an agent or a
// prediction never writes here. The lists come from the hooks' `completed` records, which every run writes anyway
// (no extra process, no extra signature). They are stored beside the guard's loaded-set cache, in Weave's state
// folder (outside the work tree, which the guard refuses writes to; sessionFolder.ts), keyed per spec by a stamp of what
// decides what its test loads (command, cwd, env, test files): a changed spec forgets its observation.
// specLoads.ts adds them to the loaded set, minus the code under test (anchors and what they import).
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { LoadingDefaults, LoadingSpec, ObservedLoads } from './commandLoads/specLoads';
import { observedLoadsFile } from './sessionFolder';

const STORE_VERSION = 1;
/** Folders whose files are never the test's own: dependencies, virtual environments, caches, Weave's state. */
const NOT_THE_TESTS = new Set([
  'node_modules',
  '.git',
  '.venv',
  'venv',
  '.weave-venv',
  'site-packages',
  'dist-packages',
  '__pycache__',
  '.pytest_cache',
  '.tox',
  '.nox',
  '.weave',
]);
/** More than this many files for one spec is not a test's helpers: the list is cut (the reason says so). */
const MAX_FILES_PER_SPEC = 2_000;

interface StoredSpec {
  stamp: string;
  recordedAt: string;
  files: string[];
}

interface StoreFile {
  version: number;
  specs: Record<string, StoredSpec>;
}

/** What decides what a spec's test process loads: a change to any of it makes an old observation stale. */
export function loadingStamp(spec: LoadingSpec, defaults: LoadingDefaults = {}): string {
  const decides = {
    command: spec.test.command,
    files: spec.test.files,
    cwd: spec.test.cwd ?? defaults.cwd ?? '.',
    env: { ...(defaults.env ?? {}), ...(spec.test.env ?? {}) },
  };
  return createHash('sha256').update(JSON.stringify(decides)).digest('hex');
}

/**
 * The workspace-relative files of `loaded` (absolute paths, as the hooks wrote them in a run whose workspace was
 * `runDir`) that can be a test's own: inside the workspace, not dependencies, environments or caches.
 */
export function workspaceLoads(runDir: string, loaded: Iterable<string>): string[] {
  const files = new Set<string>();
  for (const abs of loaded) {
    if (!path.isAbsolute(abs)) continue;
    const rel = path.relative(runDir, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
    const segments = rel.split(path.sep);
    if (segments.some((s) => NOT_THE_TESTS.has(s))) continue;
    files.add(segments.join('/'));
  }
  return [...files].sort().slice(0, MAX_FILES_PER_SPEC);
}

/**
 * Keeps what a reference run saw: per spec id, the absolute paths its test processes had loaded (in a run whose
 * workspace was `runDir`: the user's tree, or the copy the base ran in). Specs not in `loaded` keep what an
 * earlier run saw; a spec seen again is replaced. A state folder that cannot be written costs only the observation.
 */
export async function recordObservedLoads(
  userWorkspace: string,
  runDir: string,
  specs: readonly LoadingSpec[],
  defaults: LoadingDefaults,
  loaded: ReadonlyMap<string, Iterable<string>>,
): Promise<void> {
  if (loaded.size === 0) return;
  const file = observedLoadsFile(userWorkspace);
  const store = (await readStore(file)) ?? { version: STORE_VERSION, specs: {} };
  const recordedAt = new Date().toISOString();
  for (const spec of specs) {
    const seen = loaded.get(spec.id);
    if (seen === undefined) continue;
    store.specs[spec.id] = {
      stamp: loadingStamp(spec, defaults),
      recordedAt,
      files: workspaceLoads(runDir, seen),
    };
  }
  const partial = `${file}.${process.pid}.tmp`;
  try {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.writeFile(partial, JSON.stringify(store), { mode: 0o600 });
    await fs.rename(partial, file);
  } catch {
    await fs.rm(partial, { force: true }).catch(() => undefined);
  }
}

/** What reference runs of the user's workspace saw, for the specs whose loading stamp is still the same. */
export async function observedLoadsOf(
  userWorkspace: string,
  specs: readonly LoadingSpec[],
  defaults: LoadingDefaults = {},
): Promise<ObservedLoads> {
  const store = await readStore(observedLoadsFile(userWorkspace));
  const observed = new Map<string, readonly string[]>();
  if (store === undefined) return observed;
  for (const spec of specs) {
    const entry = store.specs[spec.id];
    if (entry !== undefined && entry.stamp === loadingStamp(spec, defaults) && entry.files.length > 0)
      observed.set(spec.id, entry.files);
  }
  return observed;
}

/** The same observations (a reference run's), collected in memory while specs run: spec id → absolute paths. */
export class LoadsRecorder {
  readonly seen = new Map<string, Set<string>>();
  readonly note = (specId: string, files: readonly string[]): void => {
    const set = this.seen.get(specId) ?? new Set<string>();
    for (const f of files) set.add(f);
    this.seen.set(specId, set);
  };
}

/** A run's observations (spec id → absolute paths, in a run whose workspace was `runDir`), workspace-relative. */
export function observedFromRun(runDir: string, seen: ReadonlyMap<string, Iterable<string>>): ObservedLoads {
  const observed = new Map<string, readonly string[]>();
  for (const [id, files] of seen) {
    const rel = workspaceLoads(runDir, files);
    if (rel.length > 0) observed.set(id, rel);
  }
  return observed;
}

async function readStore(file: string): Promise<StoreFile | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Partial<StoreFile>;
  if (v.version !== STORE_VERSION || typeof v.specs !== 'object' || v.specs === null) return undefined;
  const specs: Record<string, StoredSpec> = {};
  for (const [id, entry] of Object.entries(v.specs as Record<string, unknown>)) {
    const e = entry as Partial<StoredSpec> | null;
    if (
      e !== null &&
      typeof e === 'object' &&
      typeof e.stamp === 'string' &&
      typeof e.recordedAt === 'string' &&
      Array.isArray(e.files) &&
      e.files.every((f) => typeof f === 'string' && !f.startsWith('/') && !f.split('/').includes('..'))
    )
      specs[id] = { stamp: e.stamp, recordedAt: e.recordedAt, files: e.files };
  }
  return { version: STORE_VERSION, specs };
}
