// The rules between specs, one set for everything that checks a spec file: the loader (and so the CLI's
// `weave validate` / `check` and the editor's diagnostics, through src/core/spec/referenceChecks.ts) and the
// panel's form as the user types (specDraft.ts). Each caller words a finding for where it is shown (a file
// location with a line number, a form field), but what is a problem, and how bad, is decided here only.
// They run on the raw JSON values, so they report alongside the schema's problems, not only after it passes.

export const RELATIONS = ['dependsOn', 'interactsWith'] as const;
export type Relation = (typeof RELATIONS)[number];

/** Positions are indexes into the list given to `crossSpecFindings` (the file's `specs` array). */
export type CrossSpecFinding =
  | { rule: 'duplicate-id'; spec: number; id: string; firstUse: number }
  | { rule: 'self-reference'; spec: number; relation: Relation; entry: number; id: string }
  | { rule: 'unknown-reference'; spec: number; relation: Relation; entry: number; target: string }
  | { rule: 'repeated-reference'; spec: number; relation: Relation; entry: number; target: string }
  /** `cycle` runs from its first spec in list order back to it: ['a', 'b', 'a']; `entry` is the edge out of `spec`. */
  | { rule: 'dependency-cycle'; spec: number; entry: number | undefined; cycle: string[] };

export type CrossSpecRule = CrossSpecFinding['rule'];

/**
 * A spec listed twice in the same relation means what listing it once does, so it is only a warning: the file
 * still loads and the form still saves. Everything else makes the relations wrong or unrunnable.
 */
export const CROSS_SPEC_SEVERITY: Readonly<Record<CrossSpecRule, 'error' | 'warning'>> = {
  'duplicate-id': 'error',
  'self-reference': 'error',
  'unknown-reference': 'error',
  'repeated-reference': 'warning',
  'dependency-cycle': 'error',
};

interface RawSpec {
  index: number;
  value: Record<string, unknown>;
  id: string | undefined;
}

/**
 * Every finding of the rules over `specs` (raw values: anything that is not an object is skipped), in this
 * order: duplicate ids, then each spec's references (dependsOn before interactsWith), then dependency cycles.
 */
export function crossSpecFindings(specs: readonly unknown[]): CrossSpecFinding[] {
  const raw: RawSpec[] = specs.flatMap((value, index) =>
    isRecord(value) ? [{ index, value, id: typeof value.id === 'string' ? value.id : undefined }] : [],
  );
  const findings: CrossSpecFinding[] = [];
  const firstUseById = new Map<string, number>();
  for (const spec of raw) {
    if (spec.id === undefined) continue;
    const firstUse = firstUseById.get(spec.id);
    if (firstUse === undefined) firstUseById.set(spec.id, spec.index);
    else findings.push({ rule: 'duplicate-id', spec: spec.index, id: spec.id, firstUse });
  }

  for (const spec of raw) {
    for (const relation of RELATIONS) {
      const list = spec.value[relation];
      if (!Array.isArray(list)) continue;
      const seen = new Set<string>();
      list.forEach((target: unknown, entry) => {
        if (typeof target !== 'string') return;
        const at = { spec: spec.index, relation, entry };
        if (target === spec.id) findings.push({ rule: 'self-reference', ...at, id: target });
        else if (!firstUseById.has(target)) findings.push({ rule: 'unknown-reference', ...at, target });
        else if (seen.has(target)) findings.push({ rule: 'repeated-reference', ...at, target });
        seen.add(target);
      });
    }
  }

  // Only the first spec of each id takes part in the graph: a duplicate is reported as such, not as a cycle.
  const firstUses = raw.filter((s) => s.id !== undefined && firstUseById.get(s.id) === s.index);
  const graph = firstUses.map((s) => ({ id: s.id ?? '', dependsOn: stringsOf(s.value.dependsOn) }));
  for (const cycle of findDependencyCycles(graph)) {
    const [from, to] = cycle;
    const spec = from === undefined ? undefined : firstUses.find((s) => s.id === from);
    if (spec === undefined || to === undefined) continue;
    const dependsOn = spec.value.dependsOn;
    const entry = Array.isArray(dependsOn) ? dependsOn.indexOf(to) : -1;
    findings.push({
      rule: 'dependency-cycle',
      spec: spec.index,
      entry: entry === -1 ? undefined : entry,
      cycle,
    });
  }
  return findings;
}

/**
 * Every elementary `dependsOn` cycle reachable in the graph, each once, as ids from its first spec (in list order)
 * back to it: ['a', 'b', 'a']. Self-dependencies are left out (reported on their own). A cycle through the first
 * spec is always among them: the search starts there.
 */
export function findDependencyCycles(
  specs: ReadonlyArray<{ id: string; dependsOn: readonly string[] }>,
): string[][] {
  const edges = new Map<string, string[]>();
  for (const spec of specs) if (!edges.has(spec.id)) edges.set(spec.id, [...new Set(spec.dependsOn)]);
  const order = [...edges.keys()];
  const cycles: string[][] = [];
  const seenCycles = new Set<string>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const done = new Set<string>();

  // Depth-first search; a back edge to a node on the stack closes a cycle. Each node's subtree is explored once,
  // which finds at least one cycle in every strongly connected part without exponential blow-up.
  const visit = (id: string): void => {
    onStack.add(id);
    stack.push(id);
    for (const next of edges.get(id) ?? []) {
      if (next === id || !edges.has(next)) continue;
      if (onStack.has(next)) {
        const cycle = stack.slice(stack.indexOf(next));
        const rotated = rotateToEarliest(cycle, order);
        const key = rotated.join('\u0000');
        if (!seenCycles.has(key)) {
          seenCycles.add(key);
          cycles.push([...rotated, rotated[0] ?? next]);
        }
      } else if (!done.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    onStack.delete(id);
    done.add(id);
  };
  for (const id of order) if (!done.has(id)) visit(id);
  return cycles;
}

function rotateToEarliest(cycle: string[], order: string[]): string[] {
  let best = 0;
  for (let i = 1; i < cycle.length; i++) {
    if (order.indexOf(cycle[i] ?? '') < order.indexOf(cycle[best] ?? '')) best = i;
  }
  return [...cycle.slice(best), ...cycle.slice(0, best)];
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
