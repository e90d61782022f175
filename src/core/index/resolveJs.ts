// JavaScript/TypeScript module resolution against the workspace's file list, the way Node and the TypeScript
// compiler find files, so that a test's import cone is complete:
// - relative and root-absolute paths: `./x` → x.ts/.tsx/.d.ts/.js/.jsx/.mjs/.cjs/.mts/.cts/.json, `./x.js` also
//   → x.ts/x.tsx (TypeScript's ESM convention); a folder (`..`, `../`, `.`, `../..`, `./lib`) → its
//   package.json `main` and `exports["."]`, then its index.*;
// - the package's own name (`require('mylib')` from mylib's tests) and other workspace packages → their
//   package.json `exports` (string, subpath map, conditions) or `main`; `#internal` → the nearest `imports`;
// - Node built-ins and installed or declared packages are external: nothing in the workspace to follow.
// Anything else cannot be traced (a path alias, a missing build output): it is reported with the reason, never
// silently dropped, so that selection can be conservative about it.
import { builtinModules } from 'node:module';
import path from 'node:path/posix';
import { exportLeaves, splitPackageSpecifier, type Leaf } from './packageEntries';

export type JsResolution =
  /**
   * `conditional`: files only some loaders take (package.json exports' "import" target of a folder a file may
   * `require`), with the entry, so that an explanation says "may load" rather than claim an import chain.
   */
  | { kind: 'files'; files: string[]; conditional?: Record<string, string> }
  | { kind: 'external' }
  | { kind: 'untraceable'; reason: string };

export interface JsResolverContext {
  has(file: string): boolean;
  /** Parsed JSON of a workspace file (package.json), or undefined when missing or invalid. */
  readJson(file: string): unknown;
  /** Every workspace package.json (outside node_modules). */
  packageJsonFiles(): string[];
  /** Whether `node_modules/<name>` exists in `dir` or a folder above it (on disk). */
  isInstalled(dir: string, name: string): boolean;
}

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
const builtins = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]!]));

interface PackageJson {
  name?: unknown;
  main?: unknown;
  module?: unknown;
  exports?: unknown;
  imports?: unknown;
  dependencies?: unknown;
  devDependencies?: unknown;
  peerDependencies?: unknown;
  optionalDependencies?: unknown;
}

export function createJsResolver(ctx: JsResolverContext): (file: string, spec: string) => JsResolution {
  let packagesByName: Map<string, string[]> | undefined;
  const workspacePackages = (name: string): string[] => {
    if (!packagesByName) {
      packagesByName = new Map();
      for (const f of ctx.packageJsonFiles()) {
        const pkg = packageJson(f);
        if (typeof pkg?.name !== 'string') continue;
        const dir = dirOf(f);
        packagesByName.set(pkg.name, [...(packagesByName.get(pkg.name) ?? []), dir]);
      }
    }
    return packagesByName.get(name) ?? [];
  };
  const packageJson = (file: string): PackageJson | undefined => {
    const value = ctx.readJson(file);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as PackageJson)
      : undefined;
  };

  /** `base` as a file: exact, with an extension, or the TypeScript source of a `.js` specifier. */
  const asFile = (base: string): string | undefined => {
    if (base !== '' && ctx.has(base)) return base;
    for (const e of sourceExtensions) if (ctx.has(base + e)) return base + e;
    const ext = path.extname(base);
    for (const alt of jsToTs[ext] ?? []) {
      const candidate = base.slice(0, -ext.length) + alt;
      if (ctx.has(candidate)) return candidate;
    }
    return undefined;
  };
  const asIndex = (dir: string): string | undefined => {
    for (const e of sourceExtensions) {
      const candidate = join(dir, `index${e}`);
      if (ctx.has(candidate)) return candidate;
    }
    return undefined;
  };
  /** A package.json target (`./lib/index.js`, `lib`), resolved the lenient way main is. */
  const target = (dir: string, entry: string): string | undefined => {
    const base = join(dir, entry);
    if (base === '..' || base.startsWith('../')) return undefined;
    return asFile(base) ?? asIndex(base);
  };

  /** A folder: what its package.json's main and exports["."] name (both: bundlers differ), else index.*. */
  const asFolder = (dir: string): JsResolution | undefined => {
    const manifest = join(dir, 'package.json');
    if (ctx.has(manifest)) {
      const pkg = packageJson(manifest);
      const leaves: Leaf[] = [
        ...stringsOf(pkg?.main).map((t) => ({ target: t })),
        ...stringsOf(pkg?.module).map((t) => ({ target: t, condition: 'module' })),
        ...exportLeaves(pkg?.exports, '.'),
      ];
      const entries = leaves.map((l) => l.target);
      const found = filesOf(dir, manifest, leaves);
      if (found !== undefined) return found;
      const index = asIndex(dir);
      if (index !== undefined) return { kind: 'files', files: [index] };
      if (entries.length > 0) {
        return {
          kind: 'untraceable',
          reason: `${manifest} names ${entries.join(', ')}, which is not in the workspace (a build output?)`,
        };
      }
      return undefined;
    }
    const index = asIndex(dir);
    return index === undefined ? undefined : { kind: 'files', files: [index] };
  };

  const packageEntry = (dir: string, subpath: string, spec: string): JsResolution => {
    const manifest = join(dir, 'package.json');
    const pkg = packageJson(manifest);
    if (pkg?.exports !== undefined) {
      const leaves = exportLeaves(pkg.exports, subpath);
      const entries = leaves.map((l) => l.target);
      const found = filesOf(dir, manifest, leaves);
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
      const found = target(dir, subpath);
      return found !== undefined
        ? { kind: 'files', files: [found] }
        : {
            kind: 'untraceable',
            reason: `'${spec}' names no file in the workspace package at ${dir || '.'}`,
          };
    }
    return (
      asFolder(dir) ?? {
        kind: 'untraceable',
        reason: `the workspace package at ${dir || '.'} has no main or index file`,
      }
    );
  };

  /** The files leaves resolve to; a file only conditional leaves reach is marked with its condition. */
  const filesOf = (dir: string, manifest: string, leaves: Leaf[]): JsResolution | undefined => {
    const always = new Set<string>();
    const conditional: Record<string, string> = {};
    for (const leaf of leaves) {
      const file = target(dir, leaf.target);
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
  };

  const nearestPackageJson = (file: string): string | undefined => {
    for (let dir = dirOf(file); ; dir = dirOf(dir)) {
      const manifest = join(dir, 'package.json');
      if (ctx.has(manifest)) return manifest;
      if (dir === '') return undefined;
    }
  };
  const isDeclared = (file: string, name: string): boolean => {
    for (let dir = dirOf(file); ; dir = dirOf(dir)) {
      const pkg = ctx.has(join(dir, 'package.json')) ? packageJson(join(dir, 'package.json')) : undefined;
      if (pkg) {
        for (const deps of [
          pkg.dependencies,
          pkg.devDependencies,
          pkg.peerDependencies,
          pkg.optionalDependencies,
        ]) {
          if (deps !== null && typeof deps === 'object' && Object.hasOwn(deps, name)) return true;
        }
      }
      if (dir === '') return false;
    }
  };

  const resolve = (file: string, spec: string): JsResolution => {
    if (spec.startsWith('node:') || builtins.has(spec) || builtins.has(spec.split('/')[0]!)) {
      return { kind: 'external' };
    }
    if (isPathSpecifier(spec)) {
      const base = spec.startsWith('/') ? join('', spec.slice(1)) : join(dirOf(file), spec);
      if (base === '..' || base.startsWith('../')) {
        return { kind: 'untraceable', reason: `'${spec}' leads out of the workspace` };
      }
      const asPath = asFile(base);
      if (asPath !== undefined) return { kind: 'files', files: [asPath] };
      const folder = asFolder(base);
      if (folder !== undefined) return folder;
      return {
        kind: 'untraceable',
        reason: `no file or folder ${base || '.'} in the workspace for '${spec}'`,
      };
    }
    if (spec.startsWith('#')) {
      const manifest = nearestPackageJson(file);
      const pkg = manifest === undefined ? undefined : packageJson(manifest);
      const entries = exportLeaves(pkg?.imports, spec).map((l) => l.target);
      const found = unique(
        entries.filter((e) => e.startsWith('.')).map((e) => target(dirOf(manifest ?? ''), e)),
      );
      if (found.length > 0) return { kind: 'files', files: found };
      // `"imports": {"#dep": "dep"}` maps to a package, not a file.
      if (entries.some((e) => !e.startsWith('.'))) return { kind: 'external' };
      return {
        kind: 'untraceable',
        reason: `no package.json "imports" entry resolves '${spec}' to a workspace file`,
      };
    }
    const { name, subpath } = splitPackageSpecifier(spec);
    const dirs = workspacePackages(name);
    if (dirs.length > 0) {
      const results = dirs.map((d) => packageEntry(d, subpath, spec));
      const found = results.filter((r) => r.kind === 'files');
      if (found.length > 0) {
        const conditional = Object.assign({}, ...found.map((r) => r.conditional ?? {})) as Record<
          string,
          string
        >;
        return { kind: 'files', files: unique(found.flatMap((r) => r.files)), conditional };
      }
      return results.find((r) => r.kind === 'untraceable') ?? { kind: 'external' };
    }
    if (ctx.isInstalled(dirOf(file), name) || isDeclared(file, name)) return { kind: 'external' };
    return {
      kind: 'untraceable',
      reason: `'${spec}' is neither a workspace file nor an installed or declared package (an alias, or a missing dependency)`,
    };
  };

  // An entry for the loader the importing file is known to be (`.mjs` imports, `.cjs` requires) is certain.
  return (file, spec) => {
    const result = resolve(file, spec);
    if (result.kind !== 'files' || result.conditional === undefined) return result;
    const own = /\.m[jt]s$/.test(file) ? 'import' : /\.c[jt]s$/.test(file) ? 'require' : undefined;
    const conditional = Object.fromEntries(
      Object.entries(result.conditional).filter(
        ([, entry]) => own === undefined || !entry.endsWith(`"${own}" entry`),
      ),
    );
    return Object.keys(conditional).length > 0
      ? { kind: 'files', files: result.files, conditional }
      : { kind: 'files', files: result.files };
  };
}
function isPathSpecifier(spec: string): boolean {
  return (
    spec === '.' || spec === '..' || spec.startsWith('./') || spec.startsWith('../') || spec.startsWith('/')
  );
}

function stringsOf(value: unknown): string[] {
  return typeof value === 'string' && value.trim() !== '' ? [value] : [];
}

function unique(items: Array<string | undefined>): string[] {
  return [...new Set(items.filter((x): x is string => x !== undefined))].sort();
}

/** Workspace-relative join with '' for the root ('test' + '..' → ''). */
function join(dir: string, rel: string): string {
  const joined = path.normalize(path.join(dir === '' ? '.' : dir, rel));
  const trimmed = joined.replace(/\/$/, '');
  return trimmed === '.' ? '' : trimmed.replace(/^\.\//, '');
}

function dirOf(file: string): string {
  const dir = path.dirname(file);
  return dir === '.' ? '' : dir;
}
