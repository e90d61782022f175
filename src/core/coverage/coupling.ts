// Coupling from coverage: two specs whose tests execute the same functions can interact. Each pair is weighed
// by the Jaccard index of the functions their recorded runs executed (shared / either), module top level left
// out (every loader runs it), and so are functions every spec executes (with three specs or more), which say
// nothing about a pair.
import type { CoverageStore } from './types';
import { unitLabel } from './types';

export interface CoveredPair {
  /** `file#Function` both specs' tests executed. */
  sharedFunctions: string[];
  /** |shared| / |executed by either|, 0..1. */
  jaccard: number;
}

export interface CoveredCoupling {
  /** Keyed by `a\0b` with a before b in `specIds` order. */
  pairs: Map<string, CoveredPair>;
  /** Functions every covered spec executed (left out of pairs). */
  executedByEverySpec: string[];
}

export function coveredCoupling(store: CoverageStore, specIds: readonly string[]): CoveredCoupling {
  const executed = new Map<string, Set<string>>();
  for (const id of specIds) {
    const record = store.specs[id];
    if (!record) continue;
    const functions = new Set<string>();
    for (const [file, covered] of Object.entries(record.files)) {
      for (const i of covered.functions) functions.add(unitLabel(file, store.units[covered.hash], i));
    }
    executed.set(id, functions);
  }
  const sets = [...executed.values()];
  const everywhere =
    sets.length < 3 ? new Set<string>() : new Set([...sets[0]!].filter((f) => sets.every((s) => s.has(f))));
  const pairs = new Map<string, CoveredPair>();
  const ids = specIds.filter((id) => executed.has(id));
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = [...executed.get(ids[i]!)!].filter((f) => !everywhere.has(f));
      const b = new Set([...executed.get(ids[j]!)!].filter((f) => !everywhere.has(f)));
      const shared = a.filter((f) => b.has(f)).sort();
      if (shared.length === 0) continue;
      const union = new Set([...a, ...b]).size;
      pairs.set(`${ids[i]!}\0${ids[j]!}`, { sharedFunctions: shared, jaccard: shared.length / union });
    }
  }
  return { pairs, executedByEverySpec: [...everywhere].sort() };
}

/** Specs whose recorded tests executed one of `names` (qualified names) in `file`, in `specIds` order. */
export function specsExecuting(
  store: CoverageStore,
  file: string,
  names: readonly string[],
  specIds: readonly string[],
): string[] {
  return specIds.filter((id) => {
    const covered = store.specs[id]?.files[file];
    const units = covered ? store.units[covered.hash] : undefined;
    return covered?.functions.some((i) => names.includes(units?.[i]?.[0] ?? '')) === true;
  });
}

/**
 * Spec id → the specs whose tests executed a function its test executed, for the agent's prompt; undefined
 * unless every spec has recorded coverage (the static cones then decide for all, rather than half).
 */
export function coveredInteractionMap(
  store: CoverageStore,
  specIds: readonly string[],
): Map<string, string[]> | undefined {
  if (specIds.length === 0 || !specIds.every((id) => store.specs[id] !== undefined)) return undefined;
  const out = new Map<string, string[]>(specIds.map((id) => [id, []]));
  for (const key of coveredCoupling(store, specIds).pairs.keys()) {
    const [a, b] = key.split('\0') as [string, string];
    out.get(a)!.push(b);
    out.get(b)!.push(a);
  }
  return out;
}
