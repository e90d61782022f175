// The files a spec's test can load: its roots (test.files, paths named in its test command, anchor files) and
// everything they import, transitively ("the import cone"). Affected-spec selection and static coupling both
// read it. Where the import graph cannot be trusted (an import Weave cannot trace — a relative path naming no
// file, a package that is neither in the workspace nor installed — or a test file Weave cannot find) the cone
// is marked uncertain with the reason, and selection treats the spec as affected by any change: safety first.
import fs from 'node:fs';
import path from 'node:path';
import type { Spec, SpecFile } from '../../shared/specSchema';
import { isConfigFile } from './changeKinds';
import { ConeImportResolver } from './coneImports';
import type { IndexView, ResolvedAnchor } from '../anchors/resolve';
import { normalizeWorkspacePath } from '../workspacePath';

export interface SpecCone {
  id: string;
  /** Where the walk started, with why each root is one. */
  roots: Map<string, string>;
  /** Every file in the cone → the file that pulled it in (undefined for a root). */
  parent: Map<string, string | undefined>;
  /** Why the cone may be incomplete; non-empty means "affected by any change". */
  uncertain: string[];
  /**
   * Files that joined the cone through an entry only some loaders take (package.json exports "import" of a
   * folder the parent may `require`) → that entry: the chain to them is "may load", not certain.
   */
  conditional?: Map<string, string>;
}

export interface ConeOptions {
  workspaceDir?: string;
  /** Anchors as resolveAnchors returned them: their files join the roots. */
  resolved?: Map<string, ResolvedAnchor[]>;
  /**
   * Every file the workspace lists, for a partial index (lazyCones.ts): imports resolve against it. Default:
   * the index's files and skipped files (a full index lists them all).
   */
  listed?: readonly string[];
  /** The workspace's git submodules (default: the index's): importing one makes a cone incomplete. */
  submodules?: readonly string[];
  /** Only these specs' cones (default every spec's). */
  specIds?: ReadonlySet<string>;
}

export function specCones(
  specFile: SpecFile,
  index: IndexView,
  options: ConeOptions = {},
): Map<string, SpecCone> {
  const cones = new Map<string, SpecCone>();
  const resolver = new ConeImportResolver(index, {
    workspaceDir: options.workspaceDir,
    listed: options.listed,
    submodules: options.submodules ?? index.submodules,
  });
  const known = knownFiles(
    index.files.keys(),
    index.skipped.map((s) => s.path),
  );
  for (const spec of specFile.specs) {
    if (options.specIds && !options.specIds.has(spec.id)) continue;
    cones.set(spec.id, coneOf(spec, specFile, index, known, resolver, options));
  }
  return cones;
}

/** What a cone's roots are found among: what is known of the workspace's files. */
export interface KnownFiles {
  /** Files with a grammar (a full index's files; for a partial one, the listed files with a grammar). */
  files: readonly string[];
  has(file: string): boolean;
  /** Files listed but not indexed (too large, binary, no grammar). */
  skipped: ReadonlySet<string>;
}

export function knownFiles(files: Iterable<string>, skipped: Iterable<string>): KnownFiles {
  const list = [...files];
  const set = new Set(list);
  return { files: list, has: (f) => set.has(f), skipped: new Set(skipped) };
}

/** A spec's roots (test files, paths its command names, anchor files) and why its cone is uncertain already. */
export function coneRoots(
  spec: Spec,
  specFile: SpecFile,
  known: KnownFiles,
  options: ConeOptions,
): { roots: Map<string, string>; uncertain: string[] } {
  const roots = new Map<string, string>();
  const uncertain: string[] = [];
  const testCwd = normalizeWorkspacePath(spec.test.cwd ?? specFile.defaults.cwd);
  for (const entry of spec.test.files) {
    const files = expandEntry(normalizeWorkspacePath(entry), known, options.workspaceDir);
    if (files.length === 0) uncertain.push(`its test file ${entry} was not found`);
    for (const f of files) if (!roots.has(f)) roots.set(f, `test file ${entry}`);
  }
  for (const token of commandPathTokens(spec.test.command)) {
    const rel = normalizeWorkspacePath(path.posix.join(testCwd, token));
    if (rel.startsWith('..')) continue;
    for (const f of expandEntry(rel, known, options.workspaceDir)) {
      if (!roots.has(f)) roots.set(f, `named in its test command (${token})`);
    }
  }
  if (roots.size === 0) {
    uncertain.push('it declares no test.files and its test command names no workspace file');
  }
  for (const anchor of options.resolved?.get(spec.id) ?? []) {
    if (!roots.has(anchor.file)) roots.set(anchor.file, `anchor ${anchor.anchor}`);
  }
  return { roots, uncertain };
}

function coneOf(
  spec: Spec,
  specFile: SpecFile,
  index: IndexView,
  known: KnownFiles,
  resolver: ConeImportResolver,
  options: ConeOptions,
): SpecCone {
  const { roots, uncertain } = coneRoots(spec, specFile, known, options);
  // A data file listed in test.files (a JSON fixture, listed to protect it) loads nothing, so it stays a root
  // (a change to it still reaches the spec) without making the cone incomplete, as long as the spec has a test
  // Weave can parse: data alone says nothing about what the command runs.
  const testRoots = [...roots].filter(([, why]) => !why.startsWith('anchor '));
  const hasCode = testRoots.some(([root]) => index.files.has(root));
  for (const [root, why] of testRoots) {
    if (index.files.has(root)) continue;
    if (hasCode && why.startsWith('test file ') && isDataFile(root)) continue;
    // A test Weave cannot parse (a shell script, a data-driven runner file) may load anything.
    uncertain.push(
      why.startsWith('named in its test command')
        ? // An argument of the command (a config file, a script), not a test file the spec lists.
          `its test command names ${root}, which Weave has no grammar for, so what the command loads is unknown`
        : `its test file ${root} has no grammar, so what it loads is unknown`,
    );
  }

  // The test's own roots are walked first, so that a file reachable from the test is explained by the chain
  // the test loads it through, not by an anchor file that happens to import it.
  const parent = new Map<string, string | undefined>();
  const conditional = new Map<string, string>();
  const walk = (starts: string[]): void => {
    const queue = starts.filter((r) => !parent.has(r));
    for (const r of queue) parent.set(r, undefined);
    while (queue.length > 0) {
      const file = queue.shift()!;
      const { files, unresolved, conditional: notes } = resolver.dependenciesOf(file);
      for (const u of unresolved) {
        uncertain.push(`${file} imports '${u.specifier}', which Weave cannot trace: ${u.reason}`);
      }
      for (const dep of files) {
        const note = notes[dep];
        if (!parent.has(dep)) {
          parent.set(dep, file);
          if (note !== undefined) conditional.set(dep, note);
          queue.push(dep);
        } else if (note === undefined && conditional.has(dep) && !chainOf(parent, file).includes(dep)) {
          // A certain import beats a conditional one as the explanation, even if its chain is longer.
          parent.set(dep, file);
          conditional.delete(dep);
        }
      }
    }
  };
  const rootList = [...roots];
  walk(rootList.filter(([, why]) => !why.startsWith('anchor ')).map(([f]) => f));
  walk(rootList.filter(([, why]) => why.startsWith('anchor ')).map(([f]) => f));
  return { id: spec.id, roots, parent, uncertain, conditional };
}

/**
 * Fixtures and expected outputs a test reads: they load no code. Tool configuration is not data (a
 * `jest.config.json`, a `.mocharc.json` names setup files that run), so a name with `config` in it is not data.
 */
const dataExtensions = new Set([
  '.json',
  '.json5',
  '.jsonc',
  '.yaml',
  '.yml',
  '.toml',
  '.txt',
  '.csv',
  '.tsv',
  '.xml',
  '.snap',
  '.md',
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
]);
function isDataFile(file: string): boolean {
  const name = path.posix.basename(file);
  return (
    dataExtensions.has(path.posix.extname(name).toLowerCase()) && !isConfigFile(file) && !/config/i.test(name)
  );
}

/** "test/a.test.js ← src/client.js ← src/cache.js": how a file entered the cone. */
export function importChain(cone: SpecCone, file: string): string[] {
  return chainOf(cone.parent, file);
}

function chainOf(parent: Map<string, string | undefined>, file: string): string[] {
  const chain: string[] = [];
  let at: string | undefined = file;
  while (at !== undefined && chain.length < 64) {
    chain.push(at);
    at = parent.get(at);
  }
  return chain;
}

/** A file, a directory (every indexed file under it) or a simple glob (`test/*.test.js`, `test/**`). */
function expandEntry(rel: string, known: KnownFiles, workspaceDir: string | undefined): string[] {
  if (/[*?[]/.test(rel)) {
    const re = globToRegExp(rel);
    return known.files.filter((f) => re.test(f)).sort();
  }
  if (known.has(rel)) return [rel];
  const under = rel === '' ? '' : `${rel}/`;
  const inDir = known.files.filter((f) => f.startsWith(under)).sort();
  if (inDir.length > 0 && rel !== '') return inDir;
  if (known.skipped.has(rel)) return [rel];
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
