// Which specs a change can affect (the policy). Recorded per-spec coverage decides first
// (src/core/coverage/select.ts: a hunk in a function a spec executed selects it); what it cannot decide falls to
// the static rule: a spec is affected when a changed file is one of its anchor files, one of its test files, or
// in the import cone of either. Safety first: whatever Weave cannot trace (a config file, a lockfile, a file
// with no grammar, a deleted file, the spec file itself) selects ALL specs, and every selected spec carries the
// reason it was selected. A spec that could break must never be left out. selectAffected.ts loads a workspace
// and its changes for this; selectionReasons.ts words the reasons.
import type { SpecFile } from '../../shared/specSchema';
import type { CoverageView } from '../coverage/select';
import type { IndexView, ResolvedAnchor } from '../anchors/resolve';
import { classifyChanges } from './changeKinds';
import type { ChangedFile } from '../git/changes';
import { specCones, type SpecCone } from './cones';
import { notSelectedReason, reasonsFor } from './selectionReasons';

export interface AffectedSpec {
  id: string;
  reasons: string[];
}

export interface AffectedResult {
  /** True when some change has unknown impact: every spec is selected. */
  all: boolean;
  /** Why every spec was selected (one line per change with unknown impact). */
  allReasons: string[];
  /** Selected specs, in spec-file order, each with why. */
  affected: AffectedSpec[];
  /** Specs left out: no change reaches them. */
  unaffected: string[];
  /** The same specs, each with why skipping it is safe. */
  notSelected: Array<{ id: string; reason: string }>;
  /** Changes that can affect no spec (Weave's own run state). */
  ignored: string[];
  changes: ChangedFile[];
}

export interface AffectedInput {
  specFile: SpecFile;
  index: IndexView;
  changes: ChangedFile[];
  /** Anchors resolved by resolveAnchors (their files and symbols count as the spec's own). */
  resolved?: Map<string, ResolvedAnchor[]>;
  workspaceDir?: string;
  /** The spec file's workspace-relative path (default `.weave/specs.json`). */
  specFilePath?: string;
  /** Recorded per-spec coverage: decides first; what it cannot decide falls to the import cones. */
  coverage?: CoverageView;
  /**
   * For a partial index: the workspace's listed files (a changed file outside them cannot be traced, as with a
   * full index), its git submodules (a change in one cannot be traced either) and the cones of the specs
   * coverage leaves to them (specsLeftToCones), computed beforehand.
   */
  partial?: {
    listed: ReadonlySet<string>;
    submodules: readonly string[];
    cones: ReadonlyMap<string, SpecCone>;
  };
}

/** The specs whose selection the import cones decide: coverage leaves some traceable change to them. */
export function specsLeftToCones(
  specFile: SpecFile,
  traceable: readonly ChangedFile[],
  coverage: CoverageView | undefined,
): Set<string> {
  return new Set(
    specFile.specs
      .filter((spec) => coverage === undefined || coverage.decide(spec.id, traceable).undecided.length > 0)
      .map((spec) => spec.id),
  );
}

export function affectedSpecs(input: AffectedInput): AffectedResult {
  const { specFile, index, changes } = input;
  const specFilePath = input.specFilePath ?? '.weave/specs.json';
  // A full index lists the submodules itself (the extension's live index); a partial one is given its listing's.
  const submodules = input.partial?.submodules ?? index.submodules;
  const { allReasons, ignored, traceable } = classifyChanges(
    changes,
    index,
    specFilePath,
    input.partial?.listed,
    submodules,
  );

  // Cones are only needed when some change is traceable; with an unknown-impact change every spec is selected.
  let coneMap: ReadonlyMap<string, SpecCone> | undefined;
  const coneOf = (id: string): SpecCone => {
    coneMap ??=
      input.partial?.cones ??
      specCones(specFile, index, withDefined({ workspaceDir: input.workspaceDir, resolved: input.resolved }));
    const cone = coneMap.get(id);
    // A partial index holds only the cones computed for it: selecting without one would not be safe.
    if (cone === undefined) throw new Error(`no import cone was computed for spec ${id}`);
    return cone;
  };
  const reasons = new Map<string, string[]>(specFile.specs.map((s) => [s.id, []]));
  const add = (id: string, reason: string): void => {
    const list = reasons.get(id)!;
    if (!list.includes(reason)) list.push(reason);
  };

  const coverageDecidedAll = new Set<string>();
  if (allReasons.length === 0 && traceable.length > 0) {
    for (const spec of specFile.specs) {
      const decided = addChangeReasons(spec.id, traceable, { input, coneOf, add });
      if (decided) coverageDecidedAll.add(spec.id);
    }
    addDependents(specFile, reasons, add);
  } else if (allReasons.length > 0) {
    for (const spec of specFile.specs) add(spec.id, 'every spec is selected: a change has unknown impact');
  }

  const affected = specFile.specs
    .filter((s) => reasons.get(s.id)!.length > 0)
    .map((s) => ({ id: s.id, reasons: reasons.get(s.id)! }));
  const unaffected = specFile.specs.filter((s) => reasons.get(s.id)!.length === 0).map((s) => s.id);
  const notSelected = unaffected.map((id) => ({
    id,
    reason: notSelectedReason(
      traceable,
      coverageDecidedAll.has(id),
      () => coneOf(id),
      input.resolved?.get(id) ?? [],
    ),
  }));
  return { all: allReasons.length > 0, allReasons, affected, unaffected, notSelected, ignored, changes };
}

/**
 * Why the traceable changes may affect one spec: coverage's reasons, then the import cone's for what coverage
 * left undecided. True when coverage decided every change (the cone is then neither needed nor computed).
 */
function addChangeReasons(
  id: string,
  traceable: ChangedFile[],
  {
    input,
    coneOf,
    add,
  }: { input: AffectedInput; coneOf: (id: string) => SpecCone; add: (id: string, reason: string) => void },
): boolean {
  const decision = input.coverage?.decide(id, traceable);
  for (const reason of decision?.reasons ?? []) add(id, reason);
  const staticChanges = decision?.undecided ?? traceable.map((change) => ({ change, why: undefined }));
  const because = (why: string | undefined): string => (why === undefined ? '' : ` (static: ${why})`);
  if (staticChanges.length === 0) return true;
  const cone = coneOf(id);
  if (cone.uncertain.length > 0) {
    add(
      id,
      `its import cone is incomplete (${cone.uncertain[0]!}), so any change may reach it${because(staticChanges[0]!.why)}`,
    );
  }
  for (const { change, why } of staticChanges) {
    for (const reason of reasonsFor(change, cone, input.resolved?.get(id) ?? [], input.index)) {
      add(id, reason + because(why));
    }
  }
  return false;
}

/** A spec whose dependency breaks turns `blocked`: it can change verdict too. */
function addDependents(
  specFile: SpecFile,
  reasons: ReadonlyMap<string, string[]>,
  add: (id: string, reason: string) => void,
): void {
  const dependents = dependentsMap(specFile);
  const queue = specFile.specs.map((s) => s.id).filter((id) => reasons.get(id)!.length > 0);
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const dependent of dependents.get(id) ?? []) {
      const fresh = reasons.get(dependent)!.length === 0;
      add(dependent, `it depends on ${id}, which is affected`);
      if (fresh) queue.push(dependent);
    }
  }
}

function dependentsMap(specFile: SpecFile): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const spec of specFile.specs) {
    for (const dep of spec.dependsOn) out.set(dep, [...(out.get(dep) ?? []), spec.id]);
  }
  return out;
}

/** Drops undefined values so optional properties stay absent under exactOptionalPropertyTypes. */
function withDefined<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
