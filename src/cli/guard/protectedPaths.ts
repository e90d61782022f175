// What `weave guard` protects: every spec's `test.files` and everything under `.weave/` (ARCHITECTURE.md, "Containment").
// Paths are compared after resolving symlinks and `..`, so `ln -s` tricks and `a/../test/x.js` are seen through.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { loadSpecFile, SPEC_FILE_RELATIVE_PATH } from '../../core/spec/load';

export interface ProtectedSet {
  workspaceDir: string;
  /** Real paths of the spec test files, with the spec ids that own them. */
  files: Map<string, string[]>;
  /** Real path of `.weave/`. */
  weaveDir: string;
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
  const loaded = await loadSpecFile(root);
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
    ...(loaded.ok ? {} : { specProblem: `${loaded.file} is invalid, so only .weave/ is protected` }),
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

/** Why `given` (absolute or relative to `cwd`; a glob or a folder counts when it covers a protected file). */
export function protectedHit(set: ProtectedSet, given: string, cwd: string): ProtectedHit | undefined {
  if (given === '') return undefined;
  const target = realPath(path.resolve(cwd, expandHome(given)));
  const inside = (child: string, parent: string): boolean => {
    const rel = path.relative(parent, child);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  if (inside(target, set.weaveDir)) return { given, what: "Weave's spec file and run state (.weave/)" };
  const isGlob = /[*?[{]/.test(given);
  for (const [file, specs] of set.files) {
    const owners = `the test file ${path.relative(set.workspaceDir, file)} of spec ${specs.join(', ')}`;
    if (file === target) return { given, what: owners };
    // A folder that holds a protected file (rm -r test/, mv test old-test).
    if (inside(file, target)) return { given, what: `a folder holding ${owners}` };
    if (isGlob && path.matchesGlob(file, target)) return { given, what: `a pattern matching ${owners}` };
  }
  if (isGlob && path.matchesGlob(path.join(set.weaveDir, 'specs.json'), target))
    return { given, what: 'a pattern matching .weave/specs.json' };
  return undefined;
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(process.env.HOME ?? '~', p.slice(1)) : p;
}
