// Zeller's delta debugging (ddmin): the smallest subset of changes that still reproduces a failure, with a
// bounded number of probes. Outcomes are cached by subset, so a subset is never tested twice.

export type ProbeOutcome = 'fails' | 'passes' | 'unresolved';

export interface DdminResult<T> {
  /** 1-minimal when `minimal`; otherwise the smallest failing subset found before the budget ran out. */
  items: T[];
  minimal: boolean;
  probes: number;
}

export class ProbeBudgetExhausted extends Error {}

/**
 * `test(subset)` says whether the failure reproduces with just `subset` applied. `all` must fail and the empty
 * set must pass (the caller checks both). `maxProbes` bounds calls to `test`.
 */
export async function ddmin<T>(
  all: readonly T[],
  test: (subset: T[]) => Promise<ProbeOutcome>,
  maxProbes: number,
  key: (item: T) => string | number,
): Promise<DdminResult<T>> {
  const cache = new Map<string, ProbeOutcome>();
  let probes = 0;
  const run = async (subset: T[]): Promise<ProbeOutcome> => {
    const k = subset.map(key).join(',');
    const hit = cache.get(k);
    if (hit !== undefined) return hit;
    if (probes >= maxProbes) throw new ProbeBudgetExhausted();
    probes++;
    const outcome = await test(subset);
    cache.set(k, outcome);
    return outcome;
  };

  let current = [...all];
  let n = 2;
  try {
    while (current.length >= 2) {
      const chunks = split(current, n);
      let reduced = false;
      for (const chunk of chunks) {
        if ((await run(chunk)) === 'fails') {
          current = chunk;
          n = 2;
          reduced = true;
          break;
        }
      }
      if (!reduced && n > 2) {
        for (let i = 0; i < chunks.length; i++) {
          const complement = chunks.filter((_, j) => j !== i).flat();
          if ((await run(complement)) === 'fails') {
            current = complement;
            n = Math.max(n - 1, 2);
            reduced = true;
            break;
          }
        }
      }
      if (!reduced) {
        if (n >= current.length) break;
        n = Math.min(current.length, n * 2);
      }
    }
  } catch (error) {
    if (error instanceof ProbeBudgetExhausted) return { items: current, minimal: false, probes };
    throw error;
  }
  return { items: current, minimal: true, probes };
}

function split<T>(items: T[], n: number): T[][] {
  const out: T[][] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = start + Math.floor((items.length - start) / (n - i));
    if (end > start) out.push(items.slice(start, end));
    start = end;
  }
  return out;
}
