// When is a drafted spec a duplicate of one that exists (or was kept earlier in the session)?
//   1. the same test: the same command (whitespace collapsed) over the same set of test files — it would pass
//      and fail together with the other spec, so it adds no constraint; or
//   2. a near-identical statement: the sets of words (lower case, letters and digits, stop words dropped) overlap
//      with a Jaccard similarity of at least 0.8 — a rephrasing, not a new requirement.
import type { Spec } from '../../shared/specSchema';

export const STATEMENT_SIMILARITY_THRESHOLD = 0.8;

const STOP_WORDS = new Set(
  'a an the and or of to in on for with by is are be shall should must when if then it its this that as at from any every'.split(
    ' ',
  ),
);

export function duplicateOf(candidate: Spec, others: readonly Spec[]): string | undefined {
  const command = normaliseCommand(candidate.test.command);
  const files = normaliseFiles(candidate.test.files);
  for (const other of others) {
    if (other.id === candidate.id) continue;
    if (normaliseCommand(other.test.command) === command && normaliseFiles(other.test.files) === files)
      return `duplicate of ${other.id}: the same test command and test files`;
    const similarity = statementSimilarity(candidate.statement, other.statement);
    if (similarity >= STATEMENT_SIMILARITY_THRESHOLD)
      return `duplicate of ${other.id}: a near-identical statement (word overlap ${similarity.toFixed(2)} ≥ ${STATEMENT_SIMILARITY_THRESHOLD})`;
  }
  return undefined;
}

export function statementSimilarity(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  if (x.size === 0 && y.size === 0) return 1;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / (x.size + y.size - shared);
}

export function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== '' && !STOP_WORDS.has(w)),
  );
}

function normaliseCommand(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
}

function normaliseFiles(files: readonly string[]): string {
  return [...new Set(files.map((f) => f.replace(/\\/g, '/').replace(/^(\.\/)+/, '')))].sort().join('\n');
}
