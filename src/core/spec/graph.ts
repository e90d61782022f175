// The relations between specs: `dependsOn` (a failing dependency blocks its dependents) and `interactsWith`
// (a declared, undirected coupling the author suspects can conflict). What makes the relations wrong (unknown ids,
// cycles) is src/shared/crossSpecRules.ts.
import type { Spec } from '../../shared/specSchema';

type SpecLike = Pick<Spec, 'id' | 'dependsOn' | 'interactsWith'>;

export interface GraphWalkOptions {
  /** Follow the edges further than one step. */
  transitive?: boolean;
}

export class SpecGraph<S extends SpecLike = Spec> {
  /** Spec ids in file order. */
  readonly ids: readonly string[];
  private readonly byId = new Map<string, S>();
  private readonly dependents = new Map<string, string[]>();

  constructor(specs: readonly S[]) {
    for (const spec of specs) if (!this.byId.has(spec.id)) this.byId.set(spec.id, spec);
    this.ids = [...this.byId.keys()];
    for (const id of this.ids) this.dependents.set(id, []);
    for (const spec of this.byId.values()) {
      for (const dependency of new Set(spec.dependsOn)) this.dependents.get(dependency)?.push(spec.id);
    }
  }

  get(id: string): S | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /**
   * Every id, each after all of its dependencies; otherwise in file order. (A cycle, which the loader rejects,
   * would be cut at the edge that closes it rather than loop.)
   */
  dependencyOrder(): string[] {
    const order: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (id: string): void => {
      if (state.has(id)) return;
      state.set(id, 'visiting');
      for (const dependency of this.byId.get(id)?.dependsOn ?? [])
        if (this.byId.has(dependency)) visit(dependency);
      state.set(id, 'done');
      order.push(id);
    };
    for (const id of this.ids) visit(id);
    return order;
  }

  /** What `id` depends on; with `transitive`, their dependencies too (nearest first). */
  dependenciesOf(id: string, options: GraphWalkOptions = {}): string[] {
    return this.walk(id, (n) => (this.byId.get(n)?.dependsOn ?? []).filter((d) => this.byId.has(d)), options);
  }

  /** What depends on `id`; with `transitive`, their dependents too (nearest first). */
  dependentsOf(id: string, options: GraphWalkOptions = {}): string[] {
    return this.walk(id, (n) => this.dependents.get(n) ?? [], options);
  }

  /** Declared interactions as unordered pairs, each once, ordered by the file order of the specs. */
  declaredInteractions(): Array<[string, string]> {
    const position = new Map(this.ids.map((id, i) => [id, i]));
    const seen = new Set<string>();
    const pairs: Array<[string, string]> = [];
    for (const spec of this.byId.values()) {
      for (const other of spec.interactsWith) {
        if (other === spec.id || !this.byId.has(other)) continue;
        const pair: [string, string] =
          (position.get(spec.id) ?? 0) <= (position.get(other) ?? 0) ? [spec.id, other] : [other, spec.id];
        const key = pair.join('\u0000');
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push(pair);
      }
    }
    return pairs;
  }

  /** Specs `id` declares an interaction with, in either direction. */
  interactionsOf(id: string): string[] {
    return this.declaredInteractions()
      .filter(([a, b]) => a === id || b === id)
      .map(([a, b]) => (a === id ? b : a));
  }

  /**
   * The dependencies of `id`, direct or transitive, that are in `failed` (nearest first). Non-empty means `id`
   * is `blocked`: a spec is only meaningful when everything it depends on holds.
   */
  blockedBy(id: string, failed: ReadonlySet<string>): string[] {
    return this.dependenciesOf(id, { transitive: true }).filter((d) => failed.has(d));
  }

  /** Breadth-first, so "nearest first" holds; `start` itself is never in the result. */
  private walk(start: string, next: (id: string) => readonly string[], options: GraphWalkOptions): string[] {
    const result: string[] = [];
    const seen = new Set([start]);
    let frontier = [start];
    while (frontier.length > 0) {
      const following: string[] = [];
      for (const id of frontier) {
        for (const n of next(id)) {
          if (seen.has(n)) continue;
          seen.add(n);
          result.push(n);
          following.push(n);
        }
      }
      if (!options.transitive) break;
      frontier = following;
    }
    return result;
  }
}
