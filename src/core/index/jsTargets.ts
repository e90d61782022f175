// Where a JavaScript/TypeScript path lands among the workspace's files, the way Node and the TypeScript compiler
// look: a file with or without its extension (`./x.js` also → x.ts/x.tsx), a folder through its package.json
// (main, module, exports["."]) or its index.*, and a workspace package's entry for a subpath. resolveJs.ts decides
// which kind of specifier it has; this module only answers what a path or a manifest target names on disk.
import path from 'node:path/posix';
import type { PackageJson } from './jsPackages';
import { workspaceJoin, type ModuleResolution } from './moduleResolution';
import { exportLeaves, type Leaf } from './packageEntries';

const sourceExtensions = [
  '.ts',
  '.tsx',
  '.d.ts',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.mts',
  '.cts',
  '.json',
  '.node',
];
const jsToTs: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

export interface JsTargets {
  /** `base` as a file: exact, with an extension, or the TypeScript source of a `.js` specifier. */
  asFile(base: string): string | undefined;
  /** A folder: what its package.json's main and exports["."] name (both: bundlers differ), else index.*. */
  asFolder(dir: string): ModuleResolution | undefined;
  /** A package.json target (`./lib/index.js`, `lib`), resolved the lenient way main is. */
  target(dir: string, entry: string): string | undefined;
  /** The entry of the workspace package at `dir` for `subpath` ('.' or './x'), `spec` being what was imported. */
  packageEntry(dir: string, subpath: string, spec: string): ModuleResolution;
}

/** The workspace as these lookups see it: its files and its parsed package.json files. */
interface Lookup {
  has: (file: string) => boolean;
  packageJson: (file: string) => PackageJson | undefined;
}

export function jsTargets(
  has: (file: string) => boolean,
  packageJson: (file: string) => PackageJson | undefined,
): JsTargets {
  const w: Lookup = { has, packageJson };
  return {
    asFile: (base) => asFile(w, base),
    asFolder: (dir) => asFolder(w, dir),
    target: (dir, entry) => target(w, dir, entry),
    packageEntry: (dir, subpath, spec) => packageEntry(w, dir, subpath, spec),
  };
}

function asFile({ has }: Lookup, base: string): string | undefined {
  if (base !== '' && has(base)) return base;
  for (const e of sourceExtensions) if (has(base + e)) return base + e;
  const ext = path.extname(base);
  for (const alt of jsToTs[ext] ?? []) {
    const candidate = base.slice(0, -ext.length) + alt;
    if (has(candidate)) return candidate;
  }
  return undefined;
}

function asIndex({ has }: Lookup, dir: string): string | undefined {
  for (const e of sourceExtensions) {
    const candidate = workspaceJoin(dir, `index${e}`);
    if (has(candidate)) return candidate;
  }
  return undefined;
}

function target(w: Lookup, dir: string, entry: string): string | undefined {
  const base = workspaceJoin(dir, entry);
  if (base === '..' || base.startsWith('../')) return undefined;
  return asFile(w, base) ?? asIndex(w, base);
}

/** The files leaves resolve to; a file only conditional leaves reach is marked with its condition. */
function filesOf(w: Lookup, dir: string, manifest: string, leaves: Leaf[]): ModuleResolution | undefined {
  const always = new Set<string>();
  const conditional: Record<string, string> = {};
  for (const leaf of leaves) {
    const file = target(w, dir, leaf.target);
    if (file === undefined) continue;
    if (leaf.condition === undefined) always.add(file);
    else conditional[file] ??= `${manifest} "${leaf.condition}" entry`;
  }
  for (const file of always) delete conditional[file];
  const files = unique([...always, ...Object.keys(conditional)]);
  if (files.length === 0) return undefined;
  return Object.keys(conditional).length > 0
    ? { kind: 'files', files, conditional }
    : { kind: 'files', files };
}

function asFolder(w: Lookup, dir: string): ModuleResolution | undefined {
  const manifest = workspaceJoin(dir, 'package.json');
  if (w.has(manifest)) {
    const pkg = w.packageJson(manifest);
    const leaves: Leaf[] = [
      ...stringsOf(pkg?.main).map((t) => ({ target: t })),
      ...stringsOf(pkg?.module).map((t) => ({ target: t, condition: 'module' })),
      ...exportLeaves(pkg?.exports, '.'),
    ];
    const entries = leaves.map((l) => l.target);
    const found = filesOf(w, dir, manifest, leaves);
    if (found !== undefined) return found;
    const index = asIndex(w, dir);
    if (index !== undefined) return { kind: 'files', files: [index] };
    if (entries.length > 0) {
      return {
        kind: 'untraceable',
        reason: `${manifest} names ${entries.join(', ')}, which is not in the workspace (a build output?)`,
      };
    }
    return undefined;
  }
  const index = asIndex(w, dir);
  return index === undefined ? undefined : { kind: 'files', files: [index] };
}

function packageEntry(w: Lookup, dir: string, subpath: string, spec: string): ModuleResolution {
  const manifest = workspaceJoin(dir, 'package.json');
  const pkg = w.packageJson(manifest);
  if (pkg?.exports !== undefined) {
    const leaves = exportLeaves(pkg.exports, subpath);
    const entries = leaves.map((l) => l.target);
    const found = filesOf(w, dir, manifest, leaves);
    if (found !== undefined) return found;
    return {
      kind: 'untraceable',
      reason:
        entries.length === 0
          ? `${manifest} exports no '${subpath}' entry for '${spec}'`
          : `${manifest} exports '${subpath}' as ${entries.join(', ')}, which is not in the workspace (a build output?)`,
    };
  }
  if (subpath !== '.') {
    const found = target(w, dir, subpath);
    return found !== undefined
      ? { kind: 'files', files: [found] }
      : {
          kind: 'untraceable',
          reason: `'${spec}' names no file in the workspace package at ${dir || '.'}`,
        };
  }
  return (
    asFolder(w, dir) ?? {
      kind: 'untraceable',
      reason: `the workspace package at ${dir || '.'} has no main or index file`,
    }
  );
}

function stringsOf(value: unknown): string[] {
  return typeof value === 'string' && value.trim() !== '' ? [value] : [];
}

/** Sorted, without duplicates or holes. */
export function unique(items: Array<string | undefined>): string[] {
  return [...new Set(items.filter((x): x is string => x !== undefined))].sort();
}
