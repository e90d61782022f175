// The files a spec's test can load: its roots (test.files, paths named in its test command, anchor files) and
// everything they import, transitively ("the import cone"). Affected-spec selection and static coupling both
// read it. Where the import graph cannot be trusted (an unresolved relative import, a test file Weave cannot
// find) the cone is marked uncertain, and selection treats the spec as affected by any change: safety first.
import fs from 'node:fs';
import path from 'node:path';
import type { Spec, SpecFile } from '../spec/schema';
import type { FileIndex } from '../index/types';
import { normalizeWorkspacePath, type IndexView, type ResolvedAnchor } from './anchors';

export interface SpecCone {
  id: string;
  /** Where the walk started, with why each root is one. */
  roots: Map<string, string>;
  /** Every file in the cone → the file that pulled it in (undefined for a root). */
  parent: Map<string, string | undefined>;
  /** Why the cone may be incomplete; non-empty means "affected by any change". */
  uncertain: string[];
}

export interface ConeOptions {
  workspaceDir?: string;
  /** Anchors as resolveAnchors returned them: their files join the roots. */
  resolved?: Map<string, ResolvedAnchor[]>;
}

export function specCones(
  specFile: SpecFile,
  index: IndexView,
  options: ConeOptions = {},
): Map<string, SpecCone> {
  const cones = new Map<string, SpecCone>();
  const resolver = new ImportResolver(index, options.workspaceDir);
  for (const spec of specFile.specs) {
    cones.set(spec.id, coneOf(spec, specFile, index, resolver, options));
  }
  return cones;
}

function coneOf(
  spec: Spec,
  specFile: SpecFile,
  index: IndexView,
  resolver: ImportResolver,
  options: ConeOptions,
): SpecCone {
  const roots = new Map<string, string>();
  const uncertain: string[] = [];
  const testCwd = normalizeWorkspacePath(spec.test.cwd ?? specFile.defaults.cwd);

  for (const entry of spec.test.files) {
    const files = expandEntry(normalizeWorkspacePath(entry), index, options.workspaceDir);
    if (files.length === 0) uncertain.push(`its test file ${entry} was not found`);
    for (const f of files) if (!roots.has(f)) roots.set(f, `test file ${entry}`);
  }
  for (const token of commandPathTokens(spec.test.command)) {
    const rel = normalizeWorkspacePath(path.posix.join(testCwd, token));
    if (rel.startsWith('..')) continue;
    for (const f of expandEntry(rel, index, options.workspaceDir)) {
      if (!roots.has(f)) roots.set(f, `named in its test command (${token})`);
    }
  }
  if (roots.size === 0) {
    uncertain.push('it declares no test.files and its test command names no workspace file');
  }
  for (const root of roots.keys()) {
    // A test Weave cannot parse (a shell script, a data-driven runner file) may load anything.
    if (!index.files.has(root))
      uncertain.push(`its test file ${root} has no grammar, so what it loads is unknown`);
  }
  for (const anchor of options.resolved?.get(spec.id) ?? []) {
    if (!roots.has(anchor.file)) roots.set(anchor.file, `anchor ${anchor.anchor}`);
  }

  const parent = new Map<string, string | undefined>();
  const queue: string[] = [];
  for (const r of roots.keys()) {
    parent.set(r, undefined);
    queue.push(r);
  }
  while (queue.length > 0) {
    const file = queue.shift()!;
    const { files, unresolved } = resolver.dependenciesOf(file);
    for (const u of unresolved)
      uncertain.push(`${file} imports '${u}', which Weave could not resolve to a file`);
    for (const dep of files) {
      if (!parent.has(dep)) {
        parent.set(dep, file);
        queue.push(dep);
      }
    }
  }
  return { id: spec.id, roots, parent, uncertain };
}

/** "test/a.test.js ← src/client.js ← src/cache.js": how a file entered the cone. */
export function importChain(cone: SpecCone, file: string): string[] {
  const chain: string[] = [];
  let at: string | undefined = file;
  while (at !== undefined && chain.length < 64) {
    chain.push(at);
    at = cone.parent.get(at);
  }
  return chain;
}

/** A file, a directory (every indexed file under it) or a simple glob (`test/*.test.js`, `test/**`). */
function expandEntry(rel: string, index: IndexView, workspaceDir: string | undefined): string[] {
  if (/[*?[]/.test(rel)) {
    const re = globToRegExp(rel);
    return [...index.files.keys()].filter((f) => re.test(f)).sort();
  }
  if (index.files.has(rel)) return [rel];
  const under = rel === '' ? '' : `${rel}/`;
  const inDir = [...index.files.keys()].filter((f) => f.startsWith(under)).sort();
  if (inDir.length > 0 && rel !== '') return inDir;
  if (index.skipped.some((s) => s.path === rel)) return [rel];
  if (workspaceDir !== undefined && rel !== '') {
    try {
      if (fs.statSync(path.join(workspaceDir, rel)).isFile()) return [rel];
    } catch {
      // Not on disk either.
    }
  }
  return [];
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Words of a shell command that look like paths (`node --test test/a.test.js` → `test/a.test.js`). */
function commandPathTokens(command: string): string[] {
  return command
    .split(/[\s;&|()<>]+/)
    .map((t) => t.replace(/^['"]|['"]$/g, ''))
    .filter((t) => t !== '' && !t.startsWith('-') && !t.includes('=') && !t.startsWith('$'))
    .filter((t) => t.includes('/') || /\.[a-z]{1,5}$/i.test(t));
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json', '.node'];

/**
 * Follows a file's imports. The index resolves what it can; for the rest we look at the specifiers ourselves:
 * a relative one that exists on disk (a JSON file, a file with no grammar) joins the cone as a leaf, one that
 * exists nowhere makes the cone uncertain. Languages that load files implicitly get those files too: Python's
 * package `__init__.py` and pytest's `conftest.py`, and the other files of a Go or Java package.
 */
class ImportResolver {
  private readonly cache = new Map<string, { files: string[]; unresolved: string[] }>();
  /** Dotted module name (and every dotted suffix of it) → files: `slugkit.core` → src/slugkit/core.py. */
  private readonly pythonModules: Map<string, string[]>;

  constructor(
    private readonly index: IndexView,
    private readonly workspaceDir: string | undefined,
  ) {
    this.pythonModules = new Map();
    for (const f of index.files.values()) {
      if (f.language !== 'python') continue;
      const dotted = f.path
        .replace(/\/__init__\.py$/, '')
        .replace(/\.py$/, '')
        .split('/');
      // Register every suffix so `slugkit.core` finds src/slugkit/core.py (src layout) as well as slugkit/core.py.
      for (let i = 0; i < dotted.length; i++) {
        const key = dotted.slice(i).join('.');
        this.pythonModules.set(key, [...(this.pythonModules.get(key) ?? []), f.path]);
      }
    }
  }

  dependenciesOf(file: string): { files: string[]; unresolved: string[] } {
    const hit = this.cache.get(file);
    if (hit) return hit;
    const info = this.index.files.get(file);
    const result = info ? this.compute(info) : { files: [], unresolved: [] };
    this.cache.set(file, result);
    return result;
  }

  private compute(info: FileIndex): { files: string[]; unresolved: string[] } {
    const files = new Set(info.imports.map(normalizeWorkspacePath));
    const unresolved: string[] = [];
    const dir = path.posix.dirname(info.path);
    const fromDir = dir === '.' ? '' : dir;
    for (const spec of info.importSpecifiers) {
      if (info.language === 'python') {
        for (const f of this.pythonTargets(spec, fromDir)) files.add(f);
        if (spec.startsWith('.') && this.pythonTargets(spec, fromDir).length === 0) unresolved.push(spec);
        continue;
      }
      if (!isRelativeSpecifier(spec)) continue;
      // A root-absolute specifier ('/lib/x') is taken as workspace-rooted, as the index does.
      const base = normalizeWorkspacePath(
        spec.startsWith('/') ? spec.slice(1) : path.posix.join(fromDir, spec),
      );
      if (base.startsWith('..')) {
        unresolved.push(spec);
        continue;
      }
      if ([...files].some((f) => resolvesTo(base, f))) continue;
      const onDisk = this.findOnDisk(base);
      if (onDisk !== undefined) files.add(onDisk);
      else unresolved.push(spec);
    }
    for (const f of this.implicitFiles(info, fromDir)) files.add(f);
    files.delete(info.path);
    return { files: [...files].sort(), unresolved };
  }

  private pythonTargets(spec: string, fromDir: string): string[] {
    const dots = /^\.*/.exec(spec)![0].length;
    const rest = spec.slice(dots);
    if (dots > 0) {
      let base = fromDir;
      for (let i = 1; i < dots; i++) base = path.posix.dirname(base) === '.' ? '' : path.posix.dirname(base);
      const prefix = base === '' ? '' : `${base}/`;
      if (rest === '') {
        // `from . import x`: x may be any module of the package.
        return [...this.index.files.keys()].filter(
          (f) => f.startsWith(prefix) && f.endsWith('.py') && !f.slice(prefix.length).includes('/'),
        );
      }
      // `.core.slugify` (from .core import slugify): the longest prefix that is a module, else the package.
      const parts = rest.split('.');
      for (let i = parts.length; i >= 1; i--) {
        const target = `${prefix}${parts.slice(0, i).join('/')}`;
        const found = [`${target}.py`, `${target}/__init__.py`].filter((f) => this.index.files.has(f));
        if (found.length > 0) return found;
      }
      return [`${prefix}__init__.py`].filter((f) => this.index.files.has(f));
    }
    // `import a.b.c` / `from a.b import c`: the module and every package on the way, and `c` as a submodule.
    const out: string[] = [];
    const parts = rest.split('.');
    for (let i = parts.length; i >= 1; i--) {
      out.push(...(this.pythonModules.get(parts.slice(0, i).join('.')) ?? []));
    }
    for (const asPackage of this.pythonModules.get(rest) ?? []) {
      if (!asPackage.endsWith('__init__.py')) continue;
      const pkgDir = path.posix.dirname(asPackage);
      for (const f of this.index.files.keys()) {
        if (f.startsWith(`${pkgDir}/`) && f.endsWith('.py') && !f.slice(pkgDir.length + 1).includes('/'))
          out.push(f);
      }
    }
    return out;
  }

  private implicitFiles(info: FileIndex, fromDir: string): string[] {
    const out: string[] = [];
    if (info.language === 'python') {
      // Importing a.b.c runs a/__init__.py and a/b/__init__.py; pytest loads every conftest.py above a test.
      for (let d = fromDir; ; d = path.posix.dirname(d) === '.' ? '' : path.posix.dirname(d)) {
        const prefix = d === '' ? '' : `${d}/`;
        for (const name of ['__init__.py', 'conftest.py']) {
          if (this.index.files.has(`${prefix}${name}`)) out.push(`${prefix}${name}`);
        }
        if (d === '') break;
      }
    }
    if (info.language === 'go' || info.language === 'java') {
      const ext = info.language === 'go' ? '.go' : '.java';
      const prefix = fromDir === '' ? '' : `${fromDir}/`;
      for (const f of this.index.files.keys()) {
        if (f.startsWith(prefix) && f.endsWith(ext) && !f.slice(prefix.length).includes('/')) out.push(f);
      }
    }
    return out;
  }

  private findOnDisk(base: string): string | undefined {
    if (this.workspaceDir === undefined) return undefined;
    const candidates = [
      base,
      ...SOURCE_EXTENSIONS.map((e) => base + e),
      ...SOURCE_EXTENSIONS.map((e) => `${base}/index${e}`),
    ];
    for (const c of candidates) {
      if (this.index.files.has(c)) return c;
      try {
        if (fs.statSync(path.join(this.workspaceDir, c)).isFile()) return c;
      } catch {
        // Try the next candidate.
      }
    }
    return undefined;
  }
}

function isRelativeSpecifier(spec: string): boolean {
  return (
    spec === '.' || spec === '..' || spec.startsWith('./') || spec.startsWith('../') || spec.startsWith('/')
  );
}

/** Does `./cache` (base `src/cache`) name `src/cache.js`, `src/cache/index.ts`, or `src/cache.ts` for `./cache.js`? */
function resolvesTo(base: string, file: string): boolean {
  const stripExt = (p: string): string => p.replace(/\.(m|c)?(j|t)sx?$/, '');
  const b = stripExt(base);
  const f = stripExt(file);
  return file === base || f === b || f === `${b}/index`;
}
