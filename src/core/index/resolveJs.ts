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
// What the manifests say (names, dependencies, the nearest package.json) comes from jsPackages.ts, where a path
// or a manifest target lands among the files from jsTargets.ts.
import { builtinModules } from 'node:module';
import { packageManifests, type ManifestSource, type PackageManifests } from './jsPackages';
import { jsTargets, unique, type JsTargets } from './jsTargets';
import { workspaceDirname, workspaceJoin, type ModuleResolution } from './moduleResolution';
import { exportLeaves, splitPackageSpecifier } from './packageEntries';

export interface JsResolverContext extends ManifestSource {
  /** Whether `node_modules/<name>` exists in `dir` or a folder above it (on disk). */
  isInstalled(dir: string, name: string): boolean;
}

const builtins = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]!]));

/** What the specifier kinds below resolve against. */
interface JsLookup {
  ctx: JsResolverContext;
  manifests: PackageManifests;
  targets: JsTargets;
}

export function createJsResolver(ctx: JsResolverContext): (file: string, spec: string) => ModuleResolution {
  const manifests = packageManifests(ctx);
  const lookup: JsLookup = { ctx, manifests, targets: jsTargets((f) => ctx.has(f), manifests.manifest) };
  const resolve = (file: string, spec: string): ModuleResolution => {
    if (spec.startsWith('node:') || builtins.has(spec) || builtins.has(spec.split('/')[0]!)) {
      return { kind: 'external' };
    }
    if (isPathSpecifier(spec)) return resolvePath(lookup.targets, file, spec);
    if (spec.startsWith('#')) return resolvePackageImport(lookup, file, spec);
    return resolvePackage(lookup, file, spec);
  };
  return (file, spec) => forLoaderOf(file, resolve(file, spec));
}

/** `./x`, `../x`, `.`, `/x`: a file, else a folder, inside the workspace. */
function resolvePath(targets: JsTargets, file: string, spec: string): ModuleResolution {
  const base = spec.startsWith('/')
    ? workspaceJoin('', spec.slice(1))
    : workspaceJoin(workspaceDirname(file), spec);
  if (base === '..' || base.startsWith('../')) {
    return { kind: 'untraceable', reason: `'${spec}' leads out of the workspace` };
  }
  const asPath = targets.asFile(base);
  if (asPath !== undefined) return { kind: 'files', files: [asPath] };
  const folder = targets.asFolder(base);
  if (folder !== undefined) return folder;
  return {
    kind: 'untraceable',
    reason: `no file or folder ${base || '.'} in the workspace for '${spec}'`,
  };
}

/** `#internal`: what the nearest package.json's `imports` maps it to. */
function resolvePackageImport(
  { manifests, targets }: JsLookup,
  file: string,
  spec: string,
): ModuleResolution {
  const manifest = manifests.nearestPackageJson(file);
  const pkg = manifest === undefined ? undefined : manifests.manifest(manifest);
  const entries = exportLeaves(pkg?.imports, spec).map((l) => l.target);
  const found = unique(
    entries.filter((e) => e.startsWith('.')).map((e) => targets.target(workspaceDirname(manifest ?? ''), e)),
  );
  if (found.length > 0) return { kind: 'files', files: found };
  // `"imports": {"#dep": "dep"}` maps to a package, not a file.
  if (entries.some((e) => !e.startsWith('.'))) return { kind: 'external' };
  return {
    kind: 'untraceable',
    reason: `no package.json "imports" entry resolves '${spec}' to a workspace file`,
  };
}

/** A bare name: a workspace package's entry, else external when installed or declared. */
function resolvePackage({ ctx, manifests, targets }: JsLookup, file: string, spec: string): ModuleResolution {
  const { name, subpath } = splitPackageSpecifier(spec);
  const dirs = manifests.workspacePackageDirs(name);
  if (dirs.length > 0) {
    const results = dirs.map((d) => targets.packageEntry(d, subpath, spec));
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
  if (ctx.isInstalled(workspaceDirname(file), name) || manifests.isDeclared(file, name)) {
    return { kind: 'external' };
  }
  return {
    kind: 'untraceable',
    reason: `'${spec}' is neither a workspace file nor an installed or declared package (an alias, or a missing dependency)`,
  };
}

/** An entry for the loader the importing file is known to be (`.mjs` imports, `.cjs` requires) is certain. */
function forLoaderOf(file: string, result: ModuleResolution): ModuleResolution {
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
}

function isPathSpecifier(spec: string): boolean {
  return (
    spec === '.' || spec === '..' || spec.startsWith('./') || spec.startsWith('../') || spec.startsWith('/')
  );
}
