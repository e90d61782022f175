// Which specs a change can affect. Recorded per-spec coverage decides first (src/core/coverage/select.ts: a hunk
// in a function a spec executed selects it); what it cannot decide falls to the static rule: a spec is affected
// when a changed file is one of its anchor files, one of its test files, or in the import cone of either. Safety first: whatever Weave cannot trace (a config file, a
// lockfile, a file with no grammar, a deleted file, the spec file itself) selects ALL specs, and every selected
// spec carries the reason it was selected. A spec that could break must never be left out.
import path from 'node:path';
import type { SpecProblem } from '../spec/problems';
import type { SpecFile } from '../../shared/specSchema';
import { loadCoverageView } from '../coverage/base';
import type { CoverageView } from '../coverage/select';
import { type IndexView, type ResolvedAnchor } from '../anchors/resolve';
import { classifyChanges } from './changeKinds';
import { changedFilesFromList, changedFilesSince, type ChangedFile } from './changes';
import { importChain, specCones, type SpecCone } from './cones';
import { loadAnchoredWorkspaceFor } from '../anchors/anchoredWorkspace';
import { openGrowingIndex } from '../index/partialIndex';
import { lazySpecCones } from './lazyCones';

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
   * full index) and the cones of the specs coverage leaves to them (specsLeftToCones), computed beforehand.
   */
  partial?: { listed: ReadonlySet<string>; cones: ReadonlyMap<string, SpecCone> };
}

/** The specs whose selection the import cones decide: coverage leaves some traceable change to them. */
function specsLeftToCones(
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
  const { allReasons, ignored, traceable } = classifyChanges(
    changes,
    index,
    specFilePath,
    input.partial?.listed,
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
      const decision = input.coverage?.decide(spec.id, traceable);
      for (const reason of decision?.reasons ?? []) add(spec.id, reason);
      const staticChanges = decision?.undecided ?? traceable.map((change) => ({ change, why: undefined }));
      const because = (why: string | undefined): string => (why === undefined ? '' : ` (static: ${why})`);
      // Coverage decided every change for this spec: its import cone is not needed (nor computed).
      if (staticChanges.length === 0) {
        coverageDecidedAll.add(spec.id);
        continue;
      }
      const cone = coneOf(spec.id);
      if (cone.uncertain.length > 0) {
        add(
          spec.id,
          `its import cone is incomplete (${cone.uncertain[0]!}), so any change may reach it${because(staticChanges[0]!.why)}`,
        );
      }
      for (const { change, why } of staticChanges) {
        for (const reason of reasonsFor(change, cone, input.resolved?.get(spec.id) ?? [], index)) {
          add(spec.id, reason + because(why));
        }
      }
    }
    // A spec whose dependency breaks turns `blocked`: it can change verdict too.
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
  } else if (allReasons.length > 0) {
    for (const spec of specFile.specs) add(spec.id, 'every spec is selected: a change has unknown impact');
  }

  const affected = specFile.specs
    .filter((s) => reasons.get(s.id)!.length > 0)
    .map((s) => ({ id: s.id, reasons: reasons.get(s.id)! }));
  const unaffected = specFile.specs.filter((s) => reasons.get(s.id)!.length === 0).map((s) => s.id);
  const changedList = summarizeFiles(traceable.map((c) => c.path));
  const notSelected = unaffected.map((id) => {
    if (traceable.length === 0)
      return { id, reason: "no change can affect a spec (only Weave's own state changed)" };
    if (coverageDecidedAll.has(id)) {
      return {
        id,
        reason: `its recorded test run executed none of the changed code (${changedList}: per-spec coverage), and it depends on no affected spec`,
      };
    }
    const cone = coneOf(id);
    const anchorFiles = new Set((input.resolved?.get(id) ?? []).map((a) => a.file));
    return {
      id,
      reason:
        `no changed file (${changedList}) is among its test files, its ${plural(anchorFiles.size, 'anchored file')} ` +
        `or the ${plural(cone.parent.size, 'file')} of its import cone, and it depends on no affected spec`,
    };
  });
  return { all: allReasons.length > 0, allReasons, affected, unaffected, notSelected, ignored, changes };
}

function reasonsFor(
  change: ChangedFile,
  cone: SpecCone,
  anchors: ResolvedAnchor[],
  index: IndexView,
): string[] {
  const out: string[] = [];
  const file = change.path;
  const symbols = changedSymbolNames(change, index);
  const what = symbols.length > 0 ? `${file} (${symbols.join(', ')})` : file;
  for (const anchor of anchors.filter((a) => a.file === file)) {
    const touched =
      anchor.symbol !== undefined &&
      change.lines?.some((l) => l.start - 1 <= anchor.range.end.line && l.end - 1 >= anchor.range.start.line);
    out.push(
      touched
        ? `its anchored symbol ${anchor.symbol} changed (${file})`
        : `${what} is anchored by ${anchor.anchor}`,
    );
  }
  const rootWhy = cone.roots.get(file);
  const chain = cone.parent.has(file) ? importChain(cone, file).reverse() : [];
  const start = cone.roots.get(chain[0] ?? '') ?? '';
  if (rootWhy !== undefined && !rootWhy.startsWith('anchor ')) out.push(`${what} is its ${rootWhy}`);
  else if (chain.length > 1 && !start.startsWith('anchor ')) {
    out.push(`${what} is in its import cone (${formatChain(cone, chain)})`);
  } else if (chain.length > 1) {
    out.push(`${what} is imported by its ${start} (${formatChain(cone, chain)})`);
  }
  return out;
}

/** `test/a.test.js → index.mjs (through package.json "import" entry)`: each step as the cone took it. */
function formatChain(cone: SpecCone, chain: string[]): string {
  return chain
    .map((f) => {
      const note = cone.conditional?.get(f);
      return note === undefined ? f : `${f} (if loaded through the ${note})`;
    })
    .join(' → ');
}

function summarizeFiles(files: string[]): string {
  return files.length <= 3
    ? files.join(', ')
    : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function changedSymbolNames(change: ChangedFile, index: IndexView): string[] {
  if (change.lines === undefined) return [];
  const names = new Set<string>();
  for (const span of change.lines) {
    for (let line = span.start - 1; line <= span.end - 1 && line < span.start + 200; line++) {
      const s = index.enclosingSymbol(change.path, line);
      if (s) names.add(s.qualifiedName);
    }
  }
  return [...names].slice(0, 6);
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

export interface SelectAffectedOptions {
  workspaceDir: string;
  /** Changes since this git ref (committed, staged, unstaged and untracked). Default `HEAD`. */
  since?: string;
  /** Or exactly these workspace-relative files. */
  files?: string[];
  signal?: AbortSignal;
  /** Use recorded per-spec coverage first (default true); false: the static import cones only. */
  useCoverage?: boolean;
}

/** Loads the workspace, finds the changes and selects the affected specs (throws ChangeInputError on bad input). */
export interface SelectedAffected extends AffectedResult {
  /** `--files` or `changes since REF`. */
  source: string;
  specCount: number;
  /** Anchors that did not resolve (printed as warnings: selection still covers those specs' tests). */
  anchorProblems: SpecProblem[];
  /** Where recorded coverage came from, when selection used it. */
  coverage?: string;
  /** What selection parsed: the anchored and changed files and what the cones it needed reach. */
  parsed: { files: number; bytes: number };
}

export async function selectAffected(options: SelectAffectedOptions): Promise<SelectedAffected> {
  const workspaceDir = path.resolve(options.workspaceDir);
  const changes =
    options.files !== undefined
      ? changedFilesFromList(workspaceDir, options.files)
      : await changedFilesSince(workspaceDir, options.since ?? 'HEAD');
  // The cost follows the change: the anchored and changed files are parsed (to resolve anchors and map hunks
  // to definitions), and beyond them only the files the import cones of the specs coverage cannot decide
  // reach; a change whose impact is unknown (every spec is then selected) needs no cone at all.
  const signal = options.signal ? { signal: options.signal } : {};
  const ws = await loadAnchoredWorkspaceFor(
    workspaceDir,
    changes.map((c) => c.path),
    signal,
  );
  const coverage =
    options.useCoverage === false
      ? undefined
      : await loadCoverageView({
          workspaceDir: ws.workspaceDir,
          index: ws.index,
          ...(options.files !== undefined
            ? { files: changes.map((c) => c.path) }
            : { since: options.since ?? 'HEAD' }),
        });
  const listed = new Set(ws.listed);
  const { allReasons, traceable } = classifyChanges(changes, ws.index, ws.specFilePath, listed);
  const leftToCones =
    allReasons.length === 0 && traceable.length > 0
      ? specsLeftToCones(ws.specFile, traceable, coverage)
      : new Set<string>();
  let cones = new Map<string, SpecCone>();
  if (leftToCones.size > 0) {
    options.signal?.throwIfAborted();
    const growing = await openGrowingIndex(ws.workspaceDir, { index: ws.index, listed: ws.listed ?? [] });
    try {
      cones = await lazySpecCones(ws.specFile, growing, leftToCones, {
        workspaceDir: ws.workspaceDir,
        resolved: ws.resolved,
      });
    } finally {
      growing.dispose();
    }
  }
  const result = affectedSpecs({
    specFile: ws.specFile,
    index: ws.index,
    changes,
    resolved: ws.resolved,
    workspaceDir: ws.workspaceDir,
    specFilePath: ws.specFilePath,
    ...(coverage ? { coverage } : {}),
    partial: { listed, cones },
  });
  const source = options.files !== undefined ? '--files' : `changes since ${options.since ?? 'HEAD'}`;
  return {
    ...result,
    source,
    specCount: ws.specFile.specs.length,
    anchorProblems: ws.anchorProblems,
    ...(coverage ? { coverage: coverage.describe() } : {}),
    parsed: { files: ws.index.files.size, bytes: ws.index.stats.bytes },
  };
}

/** The ids `weave check --affected` runs: every spec a change can affect, in spec-file order. */
export async function affectedSpecIds(options: SelectAffectedOptions): Promise<string[]> {
  return (await selectAffected(options)).affected.map((s) => s.id);
}
