// No import circles under src/: two modules that import each other (directly or round a longer loop) cannot be
// understood, tested or loaded lazily one without the other, and a circle through values breaks at load time
// whichever side runs first. Type-only imports count too: a circle of types is the same tangle, and the fix is the
// same (move what both need into a module below them). Walks every relative import of every .ts file under src/
// (test/support/importGraph.ts) and reports each strongly connected group of files.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importsOf, sourceFiles } from '../support/importGraph';

/** The groups of two or more files that reach one another through imports (Tarjan's algorithm), and self-imports. */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe('import circles under src/', () => {
  it('finds a circle when there is one (the walk itself)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    assert.deepEqual(importCircles(graph), [['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });

  it('has none: every relative import, type-only and import() included, leads down', () => {
    const graph = new Map(
      sourceFiles().map((file) => [
        file,
        [...new Set(importsOf(file).flatMap((edge) => (edge.file === undefined ? [] : [edge.file])))],
      ]),
    );
    const circles = importCircles(graph);
    assert.deepEqual(
      circles,
      [],
      'modules under src/ that import one another; move what they share into a module both import:\n' +
        circles.map((c) => `  ${c.map((f) => `src/${f}`).join(' ↔ ')}`).join('\n'),
    );
  });
});
