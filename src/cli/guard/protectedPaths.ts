// What `weave guard` protects: the sandbox's protected set (src/core/sandbox/protectedFiles.ts, ARCHITECTURE.md
// "Containment": spec test files, `.weave/**`, runner configs and auto-loaded files, existing helpers in the
// test folders), asked through the same function, plus all of `.weave/` (run records included: a forged
// baseline would hide a break). Paths are compared after resolving symlinks and `..`, so `ln -s` tricks and
// `a/../test/x.js` are seen through; a folder or a glob counts when it covers a protected file.
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isProtectedPath, isSupportFileName, SKIPPED_FOLDERS } from '../../core/sandbox/protectedNames';
import { cachedLoadedSet } from '../../core/sandbox/loadedSetCache';
import type { LoadedSet } from '../../core/sandbox/commandLoads/loadedSet';
import { SPEC_FILE_RELATIVE_PATH } from '../../core/specFileLocation';
import { weaveStateDir } from '../../core/stateDir';
import type { SpecFile } from '../../shared/specSchema';
import { guardSpecFile } from './cachedSpecFile';

export interface ProtectedSet {
  workspaceDir: string;
  /** Real paths of the spec test files, with the spec ids that own them. */
  files: Map<string, string[]>;
  /** Real path of `.weave/`. */
  weaveDir: string;
  /** The specs, for the sandbox's rules (absent when the spec file is invalid). */
  specFile?: SpecFile;
  /** What the specs' commands and tests load (the sandbox's protectionScope), when the spec file is valid. */
  loaded?: LoadedSet;
  /** Why the test files are unknown (an invalid spec file): `.weave/**` is still protected. */
  specProblem?: string;
}

/** The nearest folder at or above `start` holding `.weave/specs.json`, or undefined. */
export function findWorkspace(start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    if (existsSync(path.join(dir, SPEC_FILE_RELATIVE_PATH))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export async function loadProtectedSet(workspaceDir: string): Promise<ProtectedSet> {
  const root = realPath(workspaceDir);
  const files = new Map<string, string[]>();
  const loaded = await guardSpecFile(root);
  if (loaded.ok) {
    for (const spec of loaded.specFile.specs) {
      const cwd = path.resolve(root, spec.test.cwd ?? loaded.specFile.defaults.cwd);
      for (const file of spec.test.files) {
        // test.files are workspace-relative (spec/load.ts); a cwd-relative reading is protected too, to be safe.
        for (const candidate of new Set([path.resolve(root, file), path.resolve(cwd, file)])) {
          const real = realPath(candidate);
          files.set(real, [...(files.get(real) ?? []), spec.id]);
        }
      }
    }
  }
  return {
    workspaceDir: root,
    files,
    weaveDir: realPath(path.join(root, '.weave')),
    ...(loaded.ok
      ? {
          specFile: loaded.specFile,
          // Kept between events while nothing it was derived from changes (loadedSetCache.ts).
          loaded: await cachedLoadedSet(root, loaded.specFile),
        }
      : { specProblem: `${loaded.file} is invalid, so only .weave/ is protected` }),
  };
}

/**
 * The real path of `p` even when it does not exist yet: the deepest existing ancestor is resolved (symlinks
 * included) and the rest appended, so a file about to be created through a symlinked folder is still caught.
 */
export function realPath(p: string): string {
  const absolute = path.resolve(p);
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

export interface ProtectedHit {
  /** The path as the agent wrote it. */
  given: string;
  /** What it is: "the test file of spec cache-hit", "Weave's own state (.weave/)". */
  what: string;
}

/**
 * How a folder counts: `any` — a folder holding a protected file is hit, the workspace itself and its parents
 * included (`rm -rf .`); `inside` — only folders strictly inside the workspace (a command the guard does not
 * know, given `.`, is not assumed to rewrite the whole tree).
 */
export type FolderRule = 'any' | 'inside';

/** Why `given` (absolute or relative to `cwd`; a glob or a folder counts when it covers a protected file). */
export function protectedHit(
  set: ProtectedSet,
  given: string,
  cwd: string,
  folders: FolderRule = 'any',
): ProtectedHit | undefined {
  if (given === '') return undefined;
  const target = realPath(path.resolve(cwd, expandHome(given)));
  if (/[*?[{]/.test(given)) return globHit(set, given, target);
  const what = protectedFileWhat(set, target);
  if (what) return { given, what };
  const rel = path.relative(set.workspaceDir, target);
  const holdsWorkspace = rel === '' || rel.startsWith('..') || path.isAbsolute(rel);
  if (holdsWorkspace) {
    if (folders === 'inside' || !inside(set.workspaceDir, target)) return undefined;
    return { given, what: 'a folder holding the whole workspace (spec tests and .weave/ included)' };
  }
  if (!isDirectory(target)) return undefined;
  const held = firstProtectedIn(set, target);
  return held ? { given, what: `a folder holding ${held}` } : undefined;
}

/** What a single file is in the protected set, or undefined. */
export function protectedFileWhat(set: ProtectedSet, file: string): string | undefined {
  if (inside(file, set.weaveDir)) return "Weave's spec file and run state (.weave/)";
  if (inside(file, realPath(weaveStateDir()))) return "Weave's state (the agent session's record)";
  const specs = set.files.get(file);
  if (specs) return `the test file ${path.relative(set.workspaceDir, file)} of spec ${specs.join(', ')}`;
  const rel = path.relative(set.workspaceDir, file).split(path.sep).join('/');
  if (rel.startsWith('..') || path.isAbsolute(rel) || !set.specFile) return undefined;
  if (rel.split('/').some((part) => SKIPPED_FOLDERS.has(part))) return undefined;
  if (!isProtectedPath(rel, set.specFile, set.loaded)) return undefined;
  if (isSupportFileName(path.posix.basename(rel)))
    return `${rel}, a test-runner configuration or auto-loaded file the spec tests depend on`;
  // The sandbox's remaining by-name rule: files in the spec tests' folders that are not tests. Existing ones are
  // helpers the tests import; a new file there is the agent's own.
  if (isProtectedPath(rel, set.specFile) && existsSync(file))
    return `${rel}, an existing helper in the spec tests' folder`;
  const loadedWhy = set.loaded?.files.get(rel);
  return loadedWhy === undefined ? undefined : `${rel}, which the specs load: ${loadedWhy}`;
}

/** Names of files an interpreter's code may mean without a folder: the spec tests' and the runners' own. */
export function protectedBasenames(set: ProtectedSet): Set<string> {
  return new Set([...set.files.keys()].map((f) => path.basename(f)));
}

const MAX_WALK_ENTRIES = 20_000;

/** The first protected file under `dir` (spec tests first, then a bounded walk), described. */
function firstProtectedIn(set: ProtectedSet, dir: string): string | undefined {
  if (inside(set.weaveDir, dir)) return '.weave/';
  for (const [file] of set.files) if (inside(file, dir)) return protectedFileWhat(set, file);
  let seen = 0;
  const walk = (current: string): string | undefined => {
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return undefined;
    }
    for (const entry of entries) {
      if (++seen > MAX_WALK_ENTRIES)
        return `more than ${MAX_WALK_ENTRIES} files (too many to rule out a protected one)`;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (SKIPPED_FOLDERS.has(entry.name)) continue;
        const found = walk(full);
        if (found) return found;
      } else {
        const what = protectedFileWhat(set, full);
        if (what) return what;
      }
    }
    return undefined;
  };
  return walk(dir);
}

function globHit(set: ProtectedSet, given: string, pattern: string): ProtectedHit | undefined {
  // Walk from the glob's fixed prefix and match what is there, plus the spec tests (which may not exist yet).
  const fixed = pattern.split(path.sep);
  const firstGlob = fixed.findIndex((part) => /[*?[{]/.test(part));
  const base = fixed.slice(0, firstGlob).join(path.sep) || path.sep;
  for (const [file] of set.files)
    if (path.matchesGlob(file, pattern))
      return { given, what: `a pattern matching ${protectedFileWhat(set, file)}` };
  if (path.matchesGlob(path.join(set.weaveDir, 'specs.json'), pattern))
    return { given, what: 'a pattern matching .weave/specs.json' };
  let seen = 0;
  const walk = (current: string): ProtectedHit | undefined => {
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return undefined;
    }
    for (const entry of entries) {
      if (++seen > MAX_WALK_ENTRIES) return undefined;
      const full = path.join(current, entry.name);
      const matches = path.matchesGlob(full, pattern);
      const what = matches
        ? entry.isDirectory()
          ? firstProtectedIn(set, full)
          : protectedFileWhat(set, full)
        : undefined;
      if (what) return { given, what: `a pattern matching ${what}` };
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name) && pattern.includes('**')) {
        const found = walk(full);
        if (found) return found;
      } else if (
        entry.isDirectory() &&
        !SKIPPED_FOLDERS.has(entry.name) &&
        depthOf(full) < depthOf(pattern)
      ) {
        const found = walk(full);
        if (found) return found;
      }
    }
    return undefined;
  };
  return inside(base, set.workspaceDir) || inside(set.workspaceDir, base) ? walk(base) : undefined;
}

function depthOf(p: string): number {
  return p.split(path.sep).length;
}

function inside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(process.env.HOME ?? '~', p.slice(1)) : p;
}
