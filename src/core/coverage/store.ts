// The coverage store: .weave/cache/coverage/coverage-v1.json (git-ignored with the rest of .weave/cache). Each
// run that records coverage replaces the entries of the specs it ran; the unit tables of contents no spec
// refers to any more are dropped. A damaged or foreign file reads as empty: coverage is a cache, and selection
// falls back to the static import cones for whatever it lacks.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CoverageStore, SpecCoverage, UnitRow } from './types';

const STORE_FILE = 'coverage-v1.json';

export function coverageDir(workspaceDir: string): string {
  return path.join(workspaceDir, '.weave', 'cache', 'coverage');
}

export function emptyStore(): CoverageStore {
  return { version: 1, specs: {}, units: {} };
}

export async function readCoverageStore(workspaceDir: string): Promise<CoverageStore> {
  try {
    const value = JSON.parse(
      await fs.readFile(path.join(coverageDir(workspaceDir), STORE_FILE), 'utf8'),
    ) as Partial<CoverageStore>;
    if (value.version !== 1 || typeof value.specs !== 'object' || typeof value.units !== 'object')
      return emptyStore();
    return { version: 1, specs: value.specs ?? {}, units: value.units ?? {} };
  } catch {
    return emptyStore();
  }
}

/**
 * Replaces the entries of `recorded`, forgets `dropped` (specs that ran but left no data), moves the kept entries
 * of `moved` to its snapshot (fullCheck/coverageReuse.ts), writes atomically.
 */
export async function updateCoverageStore(
  workspaceDir: string,
  recorded: ReadonlyMap<string, SpecCoverage>,
  units: Readonly<Record<string, UnitRow[]>>,
  dropped: readonly string[],
  specIds: readonly string[],
  moved?: { ids: ReadonlySet<string>; snapshot: string },
): Promise<string> {
  const store = await readCoverageStore(workspaceDir);
  const known = new Set(specIds);
  const specs: Record<string, SpecCoverage> = {};
  for (const [id, entry] of Object.entries(store.specs)) {
    if (known.has(id) && !dropped.includes(id) && !recorded.has(id))
      specs[id] = moved?.ids.has(id) ? { ...entry, snapshot: moved.snapshot } : entry;
  }
  for (const [id, entry] of recorded) specs[id] = entry;
  const allUnits = { ...store.units, ...units };
  const used = new Set(Object.values(specs).flatMap((s) => Object.values(s.files).map((f) => f.hash)));
  const keptUnits = Object.fromEntries(Object.entries(allUnits).filter(([hash]) => used.has(hash)));
  const dir = coverageDir(workspaceDir);
  await fs.mkdir(dir, { recursive: true });
  await ensureCacheIgnored(path.dirname(dir));
  const file = path.join(dir, STORE_FILE);
  const partial = `${file}.${process.pid}.tmp`;
  await fs.writeFile(partial, JSON.stringify({ version: 1, specs, units: keptUnits }));
  await fs.rename(partial, file);
  return file;
}

/** .weave/cache/ is regenerated state: the same marker the index cache writes. */
export async function ensureCacheIgnored(cacheDir: string): Promise<void> {
  try {
    await fs.writeFile(path.join(cacheDir, '.gitignore'), '# Weave cache: regenerated on demand\n*\n', {
      flag: 'wx',
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
