// The Test Explorer's tree of specs: one item per spec, grouped by kind, each placed at its first anchor once a
// check has resolved the anchors (at its entry in specs.json until then). It also answers which specs a run
// request names. Building the tree is apart from running it (testing.ts), which only looks items up here.
import * as vscode from 'vscode';
import type { Spec, SpecKind } from '../shared/specSchema';
import type { CheckOutcome } from './checks';
import type { ResultsStore } from './results';
import { testItemDescription } from './views/resultText';
import type { LoadedSpecs, SpecStore } from './specStore';

/** Group items' ids: a kind, prefixed so that no spec id can be mistaken for one. */
const KIND_PREFIX = 'kind:';

export class SpecTestTree {
  constructor(
    private readonly controller: vscode.TestController,
    private readonly store: SpecStore,
    private readonly results: ResultsStore,
  ) {}

  /** Whether the tree was never built (the Test Explorer has not asked yet). */
  get isEmpty(): boolean {
    return this.controller.items.size === 0;
  }

  /** Rebuilds the tree from the latest valid spec file (a mid-edit invalid file keeps the old tree). */
  refresh(loaded: LoadedSpecs): void {
    if (!loaded.result.ok) return;
    const byKind = new Map<SpecKind, Spec[]>();
    for (const spec of loaded.result.specFile.specs)
      byKind.set(spec.kind, [...(byKind.get(spec.kind) ?? []), spec]);
    const groups: vscode.TestItem[] = [];
    for (const [kind, specs] of [...byKind].sort(([a], [b]) => a.localeCompare(b))) {
      const group = this.controller.createTestItem(KIND_PREFIX + kind, kind);
      for (const spec of specs) {
        const anchored = this.results.last?.anchors.bySpec.get(spec.id)?.[0];
        // Listed by id, as every other Weave surface names a spec; the title is the description beside it.
        const item = this.controller.createTestItem(spec.id, spec.id, anchored?.uri ?? this.store.specsUri);
        // A rebuilt tree keeps what the verdicts say ("broken · …"), as the run's report set it.
        const known = this.results.knownResults();
        item.description = testItemDescription(
          known.results.find((r) => r.id === spec.id),
          spec.title,
          known,
        );
        item.tags = [new vscode.TestTag(kind)];
        const range = anchored?.range ?? this.store.entryRange(spec.id);
        if (range) item.range = range;
        group.children.add(item);
      }
      groups.push(group);
    }
    this.controller.items.replace(groups);
  }

  /** The item of a spec, by id. */
  specItem(specId: string): vscode.TestItem | undefined {
    for (const [, group] of this.controller.items) {
      const item = group.children.get(specId);
      if (item) return item;
    }
    return undefined;
  }

  /** The items of these specs, leaving out ids the tree does not (yet) have. */
  itemsOf(specIds: readonly string[]): vscode.TestItem[] {
    return specIds.map((id) => this.specItem(id)).filter((i): i is vscode.TestItem => i !== undefined);
  }

  /** The spec ids a run request names: its included items (all when none) and their groups, minus the excluded. */
  specIdsOf(request: vscode.TestRunRequest): string[] {
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    const roots = request.include ?? [...this.controller.items].map(([, item]) => item);
    const ids: string[] = [];
    const visit = (item: vscode.TestItem): void => {
      if (excluded.has(item.id)) return;
      if (item.id.startsWith(KIND_PREFIX)) item.children.forEach(visit);
      else ids.push(item.id);
    };
    roots.forEach(visit);
    return [...new Set(ids)];
  }

  /** Moves each spec's item to its first anchor, as the check resolved it. */
  placeItemsAtAnchors(outcome: CheckOutcome): void {
    for (const [specId, locations] of outcome.anchors.bySpec) {
      const item = this.specItem(specId);
      const first = locations[0];
      if (!item || !first || item.uri?.toString() === first.uri.toString()) continue;
      // A TestItem's uri is fixed at creation: replace the item to move it to the spec's code.
      const moved = this.controller.createTestItem(item.id, item.label, first.uri);
      if (item.description !== undefined) moved.description = item.description;
      moved.tags = item.tags;
      moved.range = first.range;
      item.parent?.children.add(moved);
    }
  }
}
