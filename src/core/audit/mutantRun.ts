// One mutant in one reused checkout: write the mutated file, run the specs' tests, put the original bytes
// back whatever happens (error, cancel), and classify each verdict as killed / survived / timed out.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SpecResult } from '../check';
import type { SpecFile } from '../../shared/specSchema';
import { applyMutant, type Mutant } from './mutants';
import { runSpecsInCheckout, type ScratchCheckout } from './scratch';

export type MutantOutcome = 'killed' | 'survived' | 'timed-out' | 'not-run';

export class CheckoutDriftError extends Error {
  override name = 'CheckoutDriftError';
}

export async function runMutant(
  checkout: ScratchCheckout,
  mutant: Mutant,
  originalText: string,
  specFile: SpecFile,
  ids: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, MutantOutcome>> {
  const file = path.join(checkout.dir, mutant.file);
  const original = await fs.readFile(file, 'utf8');
  // The mutant's offsets are into the text it was made from: a checkout that differs would get a wrong edit.
  if (original !== originalText)
    throw new CheckoutDriftError(`${mutant.file} in the scratch checkout differs from the audited text`);
  await fs.writeFile(file, applyMutant(original, mutant));
  let results: SpecResult[];
  try {
    results = await runSpecsInCheckout(checkout, specFile, ids, signal ? { signal } : {});
  } finally {
    await fs.writeFile(file, original);
  }
  return new Map(results.map((r) => [r.id, outcomeOf(r)]));
}

export function outcomeOf(result: SpecResult): MutantOutcome {
  if (result.verdict === 'pass') return 'survived';
  if (result.verdict === 'skipped') return 'not-run';
  if (result.verdict === 'error' && result.reason?.startsWith('timed out')) return 'timed-out';
  // fail, and errors such as a crash on load: the test noticed the change.
  return 'killed';
}

/** A spec file for mutant runs: each spec runs alone (no dependency gate) within a timeout fit for mutants. */
export function mutantSpecFile(specFile: SpecFile, timeoutSecondsOf: (id: string) => number): SpecFile {
  return {
    ...specFile,
    specs: specFile.specs.map((s) => ({
      ...s,
      dependsOn: [],
      test: { ...s.test, timeoutSeconds: timeoutSecondsOf(s.id) },
    })),
  };
}

/** A mutant that loops forever must not cost the spec's whole timeout: a few times its normal run suffices. */
export function mutantTimeoutSeconds(baselineMs: number, specTimeoutSeconds: number): number {
  return Math.min(specTimeoutSeconds, Math.max(10, Math.ceil((baselineMs * 5) / 1000)));
}
