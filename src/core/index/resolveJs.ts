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
// What the manifests say (names, dependencies, the nearest package.json) comes from jsPackages.ts.
import { builtinModules } from 'node:module';
import path from 'node:path/posix';
import { packageManifests, type ManifestSource } from './jsPackages';
import { workspaceDirname, workspaceJoin, type ModuleResolution } from './moduleResolution';
import { exportLeaves, splitPackageSpecifier, type Leaf } from './packageEntries';

export interface JsResolverContext extends ManifestSource {
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

export function createJsResolver(ctx: JsResolverContext): (file: string, spec: string) => ModuleResolution {
  const {
    manifest: packageJson,
    workspacePackageDirs,
    nearestPackageJson,
    isDeclared,
  } = packageManifests(ctx);

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
      const candidate = workspaceJoin(dir, `index${e}`);
      if (ctx.has(candidate)) return candidate;
    }
    return undefined;
  };
  /** A package.json target (`./lib/index.js`, `lib`), resolved the lenient way main is. */
  const target = (dir: string, entry: string): string | undefined => {
    const base = workspaceJoin(dir, entry);
    if (base === '..' || base.startsWith('../')) return undefined;
    return asFile(base) ?? asIndex(base);
  };

  /** A folder: what its package.json's main and exports["."] name (both: bundlers differ), else index.*. */
  const asFolder = (dir: string): ModuleResolution | undefined => {
    const manifest = workspaceJoin(dir, 'package.json');
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

  const packageEntry = (dir: string, subpath: string, spec: string): ModuleResolution => {
    const manifest = workspaceJoin(dir, 'package.json');
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
  const filesOf = (dir: string, manifest: string, leaves: Leaf[]): ModuleResolution | undefined => {
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

  const resolve = (file: string, spec: string): ModuleResolution => {
    if (spec.startsWith('node:') || builtins.has(spec) || builtins.has(spec.split('/')[0]!)) {
      return { kind: 'external' };
    }
    if (isPathSpecifier(spec)) {
      const base = spec.startsWith('/')
        ? workspaceJoin('', spec.slice(1))
        : workspaceJoin(workspaceDirname(file), spec);
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
        entries.filter((e) => e.startsWith('.')).map((e) => target(workspaceDirname(manifest ?? ''), e)),
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
    const dirs = workspacePackageDirs(name);
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
    if (ctx.isInstalled(workspaceDirname(file), name) || isDeclared(file, name)) return { kind: 'external' };
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
