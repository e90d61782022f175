// Seeded one-line mutants for the selection studies: candidate edits found on source lines, drawn with a
// deterministic PRNG so that the same seed gives the same mutants on every machine.
import fs from 'node:fs';
import path from 'node:path';

export interface Mutant {
  file: string;
  /** 0-based line. */
  line: number;
  before: string;
  after: string;
  operator: string;
}

/** A one-line edit: its name, what it finds on the line (first match) and what replaces it ('N+1': the number + 1). */
export type MutationOperator = [name: string, pattern: RegExp, replacement: string];

/** One-line edits a careless change could make: an operator swapped, a constant off by one, a value dropped. */
const OPERATORS: MutationOperator[] = [
  ['* → +', /\*/, '+'],
  ['+ → -', / \+ /, ' - '],
  ['> → >=', / > /, ' >= '],
  ['< → <=', / < /, ' <= '],
  ['=== → !==', /===/, '!=='],
  ['constant + 1', /\b(\d+)\b/, 'N+1'],
  ['toUpperCase → toLowerCase', /toUpperCase/, 'toLowerCase'],
  ['trim → trimEnd', /\.trim\(\)/, '.trimEnd()'],
  ["'-' → '_'", /'-'/, "'_'"],
  ['+= → -=', /\+=/, '-='],
  ['/ → *', / \/ /, ' * '],
  ["'=' → ':'", /'='/, "':'"],
  ['"alpha" → "beta"', /"alpha"/, '"beta"'],
];

/** mulberry32: a small deterministic PRNG, so the same seed gives the same mutants on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every applicable (line, operator) inside a function body of src/ (or `files`), then `count` drawn with `seed`. */
export function seededMutants(dir: string, count: number, seed: number, sources?: string[]): Mutant[] {
  const candidates: Mutant[] = [];
  const files =
    sources ??
    fs
      .readdirSync(path.join(dir, 'src'))
      .filter((f) => f.endsWith('.js'))
      .sort()
      .map((f) => `src/${f}`);
  for (const file of files) {
    const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
    let inFunction = false;
    lines.forEach((text, line) => {
      if (text.startsWith('function ')) inFunction = true;
      else if (text === '}') inFunction = false;
      else if (inFunction) {
        candidates.push(...mutantsOf(file, line, text, OPERATORS));
      }
    });
  }
  return draw(candidates, count, seed);
}

/**
 * The same edits (or `operators`) on any JavaScript or Python source: every indented line that is not a
 * comment or a docstring (a function or class body) of `files` is a candidate.
 */
export function seededMutantsIn(
  dir: string,
  files: string[],
  count: number,
  seed: number,
  operators: MutationOperator[] = OPERATORS,
): Mutant[] {
  const candidates: Mutant[] = [];
  for (const file of files) {
    const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
    lines.forEach((text, line) => {
      const body = text.trim();
      if (!/^\s/.test(text) || /^(\/\/|#|"""|\*)/.test(body)) return;
      candidates.push(...mutantsOf(file, line, text, operators));
    });
  }
  return draw(candidates, count, seed);
}

/** Every operator that changes this line, in the order of `operators`. */
function mutantsOf(file: string, line: number, text: string, operators: MutationOperator[]): Mutant[] {
  const out: Mutant[] = [];
  for (const [name, pattern, replacement] of operators) {
    const after =
      replacement === 'N+1'
        ? text.replace(pattern, (n) => String(Number(n) + 1))
        : text.replace(pattern, replacement);
    if (after !== text) out.push({ file, line, before: text, after, operator: name });
  }
  return out;
}

function draw(candidates: Mutant[], count: number, seed: number): Mutant[] {
  const random = seededRandom(seed);
  const picked: Mutant[] = [];
  const pool = [...candidates];
  while (picked.length < count && pool.length > 0) {
    picked.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  }
  return picked;
}
