// The words of affected-spec selection: why a change selects a spec (its anchored symbol changed, the file is
// one of its roots, the import chain that reaches it) and why leaving a spec out is safe. affected.ts decides
// which specs are selected; this module only explains the decision, so the wording can change without
// touching the policy.
import type { IndexView, ResolvedAnchor } from '../anchors/resolve';
import type { ChangedFile } from '../git/changes';
import { importChain, type SpecCone } from './cones';

/**
 * Why leaving a spec out is safe: no change can affect any spec, recorded coverage decided every change for it,
 * or no changed file is among its roots or in its import cone (`cone` is only asked for in that last case).
 */
export function notSelectedReason(
  traceable: readonly ChangedFile[],
  decidedByCoverage: boolean,
  cone: () => SpecCone,
  anchors: readonly ResolvedAnchor[],
): string {
  if (traceable.length === 0) return "no change can affect a spec (only Weave's own state changed)";
  const changedList = summarizeFiles(traceable.map((c) => c.path));
  if (decidedByCoverage) {
    return `its recorded test run executed none of the changed code (${changedList}: per-spec coverage), and it depends on no affected spec`;
  }
  const anchorFiles = new Set(anchors.map((a) => a.file));
  return (
    `no changed file (${changedList}) is among its test files, its ${plural(anchorFiles.size, 'anchored file')} ` +
    `or the ${plural(cone().parent.size, 'file')} of its import cone, and it depends on no affected spec`
  );
}

/** Why `change` selects the spec with this cone and these anchors; none when it does not reach the spec. */
export function reasonsFor(
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
