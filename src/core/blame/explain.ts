// From the hunks that break a spec to what the user reads: each hunk's enclosing symbols, the specs it was made
// for (anchored there, executing it by recorded coverage, ranked by the attribution criteria), one sentence each.
import { specsExecuting } from '../coverage/coupling';
import { readCoverageStore } from '../coverage/store';
import type { CoverageStore } from '../coverage/types';
import type { SymbolDef } from '../index';
import { resolveAnchors, type IndexView, type ResolvedAnchor } from '../anchors/resolve';
import { specCones, type SpecCone } from '../selection/cones';
import { describeHunk, type DiffHunk } from '../git/hunks';
import type { SpecFile } from '../../shared/specSchema';
import {
  defaultAttributionCriteria,
  executedTheEdit,
  rankAttribution,
  type AttributionCandidate,
} from './attribution';

export interface BlamedHunk {
  /** Workspace-relative file. */
  file: string;
  location: string;
  /** 1-based first line of the hunk in the working tree, and its line count there (0: lines were deleted). */
  line: number;
  lineCount: number;
  kind: DiffHunk['kind'];
  /** `-`/`+` lines of the hunk. */
  diff: string;
  /** Innermost enclosing definitions of the changed lines in the working tree (qualified names). */
  symbols: string[];
  /**
   * The spec(s) the edit was made for: of the specs (other than the blamed one) anchored over it, those ranked
   * first by the attribution criteria (attribution.ts), which no criterion tells apart.
   */
  anchoredBy: string[];
  /** Every spec anchored over the edit, best first, with the anchor that covers it most specifically. */
  attribution: Array<{ specId: string; anchor: string; coneDistance: number | null }>;
  /** Specs (other than the blamed one) whose recorded tests executed those symbols (per-spec coverage). */
  executedBy: string[];
}

export interface AttributionInput {
  workspaceDir: string;
  specFile: SpecFile;
  index: IndexView;
  blamedId: string;
  /** The breaking hunks with their workspace-relative files. */
  hunks: Array<{ hunk: DiffHunk; file: string }>;
}

/** Each breaking hunk described and attributed to the specs it was made for. */
export async function attributeHunks(input: AttributionInput): Promise<BlamedHunk[]> {
  const { specFile, index, workspaceDir } = input;
  const { resolved } = resolveAnchors(specFile, index, { workspaceDir });
  const others = new Map([...resolved].filter(([id]) => id !== input.blamedId));
  const cones = specCones(specFile, index, { workspaceDir, resolved });
  const coverage = await readCoverageStore(workspaceDir);
  return input.hunks.map(({ hunk, file }) =>
    describeBlamed(hunk, file, {
      specFile,
      index,
      anchors: others,
      cones,
      coverage,
      blamedId: input.blamedId,
    }),
  );
}

interface AttributionContext {
  specFile: SpecFile;
  index: IndexView;
  /** Resolved anchors of every spec but the blamed one. */
  anchors: Map<string, ResolvedAnchor[]>;
  cones: Map<string, SpecCone>;
  /** Recorded per-spec coverage: a spec whose test executed the edited code is the first candidate. */
  coverage: CoverageStore;
  blamedId: string;
}

function describeBlamed(hunk: DiffHunk, file: string, context: AttributionContext): BlamedHunk {
  const symbols: SymbolDef[] = [];
  if (hunk.kind !== 'deleted' && !hunk.wholeFile) {
    const { first, last } = hunkLines(hunk);
    for (let line = first; line <= last; line++) {
      const s = context.index.enclosingSymbol(file, line);
      if (s && !symbols.some((x) => x.qualifiedName === s.qualifiedName)) symbols.push(s);
    }
  }
  const order = context.specFile.specs.map((s) => s.id);
  const names = symbols.map((s) => s.qualifiedName);
  const executedBy = specsExecuting(context.coverage, file, names, order).filter(
    (id) => id !== context.blamedId,
  );
  const { ranked, top } = rankAttribution({
    file,
    lines: hunk.wholeFile ? { first: 0, last: Infinity } : hunkLines(hunk),
    anchors: context.anchors,
    cones: context.cones,
    order,
    criteria: [executedTheEdit(new Set(executedBy)), ...defaultAttributionCriteria],
  });
  return {
    file,
    location: describeHunk({ ...hunk, file }),
    line: Math.max(1, hunk.newStart),
    lineCount: hunk.wholeFile ? 0 : hunk.newCount,
    kind: hunk.kind,
    diff: hunk.body.join('\n'),
    symbols: names,
    anchoredBy: top.map((c) => c.specId),
    attribution: ranked.map(describeCandidate),
    executedBy,
  };
}

function describeCandidate(c: AttributionCandidate): BlamedHunk['attribution'][number] {
  return {
    specId: c.specId,
    anchor: c.anchor.anchor,
    coneDistance: Number.isFinite(c.coneDistance) ? c.coneDistance : null,
  };
}

/** The 0-based lines a hunk touches in the new file (a pure deletion: the line it happened before). */
function hunkLines(hunk: DiffHunk): { first: number; last: number } {
  const first = Math.max(1, hunk.newStart) - 1;
  return { first, last: hunk.newCount === 0 ? first : hunk.newStart + hunk.newCount - 2 };
}

/**
 * Who the edit was for, by criteria in order: the specs whose tests execute the edited symbol (coverage), narrowed
 * to those anchored there when some are; else the specs anchored there.
 */
export function explain(h: BlamedHunk, specId: string): string {
  const what = h.symbols.length > 0 ? h.symbols.map((s) => `\`${s}\``).join(', ') : h.file;
  const quoted = (ids: string[]): string =>
    ids.length <= 3
      ? ids.map((s) => `\`${s}\``).join(', ')
      : `${ids
          .slice(0, 3)
          .map((s) => `\`${s}\``)
          .join(', ')} and ${ids.length - 3} more`;
  const both = h.executedBy.filter((id) => h.anchoredBy.includes(id));
  const madeFor =
    both.length > 0
      ? `, made for ${quoted(both)} (${both.length === 1 ? 'its test executes' : 'their tests execute'} it),`
      : h.executedBy.length > 0
        ? `, which ${quoted(h.executedBy)} also execute${h.executedBy.length === 1 ? 's' : ''},`
        : h.anchoredBy.length > 0
          ? `, made for ${quoted(h.anchoredBy)},`
          : '';
  return `the edit to ${what} (${h.location})${madeFor} breaks \`${specId}\``;
}
