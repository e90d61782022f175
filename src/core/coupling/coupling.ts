// Static coupling: pairs of specs that can interact before anything runs — their anchors share a symbol or a
// file, or their tests' import cones share source files — next to the edges the author declared (dependsOn,
// interactsWith). With recorded coverage, pairs whose tests executed the same functions come first, weighed by
// how much they share (src/core/coverage/coupling.ts); the static evidence stays the fallback. Rendered as
// text, JSON or a Mermaid flowchart by `weave graph`.
import { coveredCoupling } from '../coverage/coupling';
import type { CoverageStore } from '../coverage/types';
import type { ObservedAudit, ObservedInteraction } from './observed';
import type { SpecFile } from '../../shared/specSchema';
import type { IndexView, ResolvedAnchor } from '../anchors/resolve';
import { specCones } from '../selection/cones';

export interface PotentialInteraction {
  a: string;
  b: string;
  /** Symbols both specs anchor (overlapping definitions), as `file#Symbol`. */
  sharedSymbols: string[];
  /** Files both specs anchor (other than through a shared symbol). */
  sharedAnchorFiles: string[];
  /** Source files both specs' tests load (import cones), excluding the above. */
  sharedConeFiles: string[];
  /** Functions both specs' tests executed in their recorded runs (`file#Function`), with coverage. */
  sharedFunctions?: string[];
  /** Jaccard index of the functions the two tests executed (0..1), with coverage. */
  coverageWeight?: number;
  /** Whether the author already declared this pair (interactsWith or dependsOn either way). */
  declared: boolean;
}

export interface StaticCoupling {
  specs: Array<{ id: string; title: string; kind: string }>;
  declared: {
    /** [dependent, dependency]. */
    dependsOn: Array<[string, string]>;
    /** Undirected, deduplicated, sorted. */
    interactsWith: Array<[string, string]>;
  };
  potential: PotentialInteraction[];
  /** Files every spec's test loads: shared by all, they say nothing about a pair and are left out of pairs. */
  loadedByEveryTest: string[];
  /** With coverage: functions every spec's test executed (left out of pairs, like loadedByEveryTest). */
  executedByEveryTest?: string[];
  /** Pairs whose tests killed the same mutants in the last `weave audit` (present when there is one). */
  observed?: Array<ObservedInteraction & { declared: boolean }>;
  /** When that audit finished. */
  observedAt?: string;
}

/** Adds the last audit's observed interactions (pairs of specs that still exist) beside declared and potential. */
export function withObservedInteractions(
  coupling: StaticCoupling,
  audit: ObservedAudit | undefined,
): StaticCoupling {
  if (audit === undefined) return coupling;
  const ids = coupling.specs.map((s) => s.id);
  const declared = new Set(
    [...coupling.declared.dependsOn, ...coupling.declared.interactsWith].map(([x, y]) =>
      orderedPair(x, y, ids).join('\0'),
    ),
  );
  const observed = audit.observed
    .filter((o) => ids.includes(o.a) && ids.includes(o.b))
    .map((o) => ({ ...o, declared: declared.has(orderedPair(o.a, o.b, ids).join('\0')) }));
  return { ...coupling, observed, observedAt: audit.finishedAt };
}

export interface CouplingInput {
  specFile: SpecFile;
  index: IndexView;
  resolved: Map<string, ResolvedAnchor[]>;
  workspaceDir?: string;
  /** Recorded per-spec coverage (readCoverageStore): covered pairs first. */
  coverage?: CoverageStore;
}

export function staticCoupling(input: CouplingInput): StaticCoupling {
  const { specFile, index, resolved } = input;
  const ids = specFile.specs.map((s) => s.id);
  const cones = specCones(
    specFile,
    index,
    input.workspaceDir === undefined ? {} : { workspaceDir: input.workspaceDir },
  );
  const { dependsOn, interacts, declaredKeys } = declaredCoupling(specFile, ids);

  const coneFiles = ids.map((id) => cones.get(id)!.parent);
  const loadedByEveryTest =
    ids.length < 3 ? [] : [...coneFiles[0]!.keys()].filter((f) => coneFiles.every((c) => c.has(f))).sort();
  const everywhere = new Set(loadedByEveryTest);
  const covered = input.coverage ? coveredCoupling(input.coverage, ids) : undefined;
  const potential: PotentialInteraction[] = [];
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i]!;
      const b = ids[j]!;
      const { sharedSymbols, symbolFiles, sharedAnchorFiles } = sharedAnchors(
        resolved.get(a) ?? [],
        resolved.get(b) ?? [],
      );
      const coneA = cones.get(a)!.parent;
      const coneB = cones.get(b)!.parent;
      const seen = new Set([...symbolFiles, ...sharedAnchorFiles, ...everywhere]);
      const sharedConeFiles = [...coneA.keys()].filter((f) => coneB.has(f) && !seen.has(f)).sort();
      const executed = covered?.pairs.get(`${a}\0${b}`);
      if (sharedSymbols.size + sharedAnchorFiles.length + sharedConeFiles.length === 0 && !executed) continue;
      potential.push({
        a,
        b,
        sharedSymbols: [...sharedSymbols].sort(),
        sharedAnchorFiles,
        sharedConeFiles,
        ...(executed ? { sharedFunctions: executed.sharedFunctions, coverageWeight: executed.jaccard } : {}),
        declared: declaredKeys.has(orderedPair(a, b, ids).join('\0')),
      });
    }
  }
  potential.sort((x, y) => strength(y) - strength(x) || ids.indexOf(x.a) - ids.indexOf(y.a));
  return {
    specs: specFile.specs.map((s) => ({ id: s.id, title: s.title, kind: s.kind })),
    declared: { dependsOn, interactsWith: [...interacts.values()] },
    potential,
    loadedByEveryTest,
    ...(covered ? { executedByEveryTest: covered.executedByEverySpec } : {}),
  };
}

/** The declared pairs: dependsOn as written, interactsWith in spec-file order, and the keys of both. */
function declaredCoupling(
  specFile: SpecFile,
  ids: string[],
): {
  dependsOn: Array<[string, string]>;
  interacts: Map<string, [string, string]>;
  declaredKeys: Set<string>;
} {
  const dependsOn: Array<[string, string]> = [];
  const interacts = new Map<string, [string, string]>();
  for (const spec of specFile.specs) {
    for (const dep of spec.dependsOn) dependsOn.push([spec.id, dep]);
    for (const other of spec.interactsWith) {
      const pair = orderedPair(spec.id, other, ids);
      interacts.set(pair.join('\0'), pair);
    }
  }
  const declaredKeys = new Set([
    ...interacts.keys(),
    ...dependsOn.map(([x, y]) => orderedPair(x, y, ids).join('\0')),
  ]);
  return { dependsOn, interacts, declaredKeys };
}

/** What two specs' anchors share: overlapping symbols (and their files), then files anchored by both otherwise. */
function sharedAnchors(
  anchorsA: ResolvedAnchor[],
  anchorsB: ResolvedAnchor[],
): { sharedSymbols: Set<string>; symbolFiles: Set<string>; sharedAnchorFiles: string[] } {
  const sharedSymbols = new Set<string>();
  const symbolFiles = new Set<string>();
  for (const x of anchorsA) {
    for (const y of anchorsB) {
      if (x.file !== y.file || !overlaps(x, y)) continue;
      if (x.symbol !== undefined && y.symbol !== undefined) {
        // Nested anchors (LruCache and LruCache.get) share the inner one.
        const inner = innerOf(x, y);
        sharedSymbols.add(`${inner.file}#${inner.symbol!}`);
        symbolFiles.add(x.file);
      } else if (x.symbol !== undefined || y.symbol !== undefined) {
        const withSymbol = x.symbol !== undefined ? x : y;
        sharedSymbols.add(`${withSymbol.file}#${withSymbol.symbol!}`);
        symbolFiles.add(x.file);
      }
    }
  }
  const filesA = new Set(anchorsA.map((x) => x.file));
  const sharedAnchorFiles = [...new Set(anchorsB.map((y) => y.file))]
    .filter((f) => filesA.has(f) && !symbolFiles.has(f))
    .sort();
  return { sharedSymbols, symbolFiles, sharedAnchorFiles };
}

/** Functions both tests executed weigh most (by Jaccard), then shared symbols, anchored files, cone files. */
function strength(p: PotentialInteraction): number {
  return (
    (p.coverageWeight ?? 0) * 1e9 +
    p.sharedSymbols.length * 10_000 +
    p.sharedAnchorFiles.length * 100 +
    p.sharedConeFiles.length
  );
}

function orderedPair(x: string, y: string, ids: string[]): [string, string] {
  return ids.indexOf(x) <= ids.indexOf(y) ? [x, y] : [y, x];
}

function overlaps(x: ResolvedAnchor, y: ResolvedAnchor): boolean {
  return x.range.start.line <= y.range.end.line && y.range.start.line <= x.range.end.line;
}

function innerOf(x: ResolvedAnchor, y: ResolvedAnchor): ResolvedAnchor {
  const span = (r: ResolvedAnchor): number => r.range.end.line - r.range.start.line;
  return span(x) <= span(y) ? x : y;
}

export function formatCouplingText(coupling: StaticCoupling): string {
  const lines: string[] = [];
  lines.push(`${coupling.specs.length} specs`);
  lines.push('');
  lines.push('Declared edges:');
  if (coupling.declared.dependsOn.length + coupling.declared.interactsWith.length === 0)
    lines.push('  (none)');
  for (const [from, to] of coupling.declared.dependsOn) lines.push(`  ${from} depends on ${to}`);
  for (const [a, b] of coupling.declared.interactsWith) lines.push(`  ${a} interacts with ${b}`);
  lines.push('');
  lines.push('Potential interactions found in the code:');
  if (coupling.potential.length === 0)
    lines.push('  (none: no two specs share anchored code or test imports)');
  if ((coupling.executedByEveryTest ?? []).length > 0) {
    lines.push(
      `  every spec's test executes ${summarizeList(coupling.executedByEveryTest!, 6)} (not counted per pair)`,
    );
  }
  if (coupling.loadedByEveryTest.length > 0) {
    lines.push(
      `  every spec's test loads ${summarizeList(coupling.loadedByEveryTest, 6)} (not counted per pair)`,
    );
  }
  for (const p of coupling.potential) {
    const tag = p.declared ? '' : '  [not declared]';
    lines.push(`  ${p.a} ↔ ${p.b}${tag}`);
    if (p.sharedFunctions !== undefined)
      lines.push(
        `      functions both tests executed (Jaccard ${(p.coverageWeight ?? 0).toFixed(2)}): ${summarizeList(p.sharedFunctions, 6)}`,
      );
    if (p.sharedSymbols.length > 0) lines.push(`      shared symbols: ${p.sharedSymbols.join(', ')}`);
    if (p.sharedAnchorFiles.length > 0)
      lines.push(`      shared anchored files: ${p.sharedAnchorFiles.join(', ')}`);
    if (p.sharedConeFiles.length > 0)
      lines.push(`      files both tests load: ${summarizeList(p.sharedConeFiles, 6)}`);
  }
  if (coupling.observed !== undefined) {
    lines.push('');
    lines.push(
      `Observed interactions (mutants both specs' tests kill; weave audit of ${coupling.observedAt ?? '?'}):`,
    );
    if (coupling.observed.length === 0) lines.push('  (none: no mutant was killed by two specs)');
    for (const o of coupling.observed) {
      lines.push(`  ${o.a} ↔ ${o.b}${o.declared ? '' : '  [not declared]'}: ${o.mutants} mutant(s)`);
      for (const example of o.examples.slice(0, 2)) lines.push(`      e.g. ${example}`);
    }
  }
  return lines.join('\n') + '\n';
}

export function formatCouplingMermaid(coupling: StaticCoupling): string {
  const node = new Map(coupling.specs.map((s, i) => [s.id, `s${i}`]));
  const lines = ['flowchart LR'];
  for (const s of coupling.specs) lines.push(`  ${node.get(s.id)!}["${s.id}<br/><small>${s.kind}</small>"]`);
  for (const [from, to] of coupling.declared.dependsOn)
    lines.push(`  ${node.get(from)!} -->|depends on| ${node.get(to) ?? to}`);
  for (const [a, b] of coupling.declared.interactsWith)
    lines.push(`  ${node.get(a)!} <-.->|interacts| ${node.get(b) ?? b}`);
  // Declared pairs are drawn already; a potential edge is news only when the author did not declare it.
  for (const p of coupling.potential.filter((x) => !x.declared)) {
    const label =
      p.sharedFunctions !== undefined
        ? `executes ${p.sharedFunctions
            .slice(0, 3)
            .map((f) => f.split('#')[1] ?? f)
            .join(', ')} (${(p.coverageWeight ?? 0).toFixed(2)})`
        : p.sharedSymbols.length > 0
          ? p.sharedSymbols.map((s) => s.split('#')[1]!).join(', ')
          : p.sharedAnchorFiles.length > 0
            ? p.sharedAnchorFiles.join(', ')
            : `${p.sharedConeFiles.length} shared files`;
    lines.push(`  ${node.get(p.a)!} -.-|"${label.replace(/"/g, "'")}"| ${node.get(p.b)!}`);
  }
  for (const o of (coupling.observed ?? []).filter((x) => !x.declared))
    lines.push(`  ${node.get(o.a)!} ===|"observed: ${o.mutants} mutant(s)"| ${node.get(o.b)!}`);
  return lines.join('\n') + '\n';
}

function summarizeList(items: string[], max: number): string {
  return items.length <= max
    ? items.join(', ')
    : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}
