// Tamper evidence for contained runs. Code under test runs with write access to its checkout, so it can rewrite
// its own test, the spec file, or drop a `conftest.py` that flips outcomes — and then the verdict would lie.
// The guard records the protected set of a pristine checkout (content kept, it is small) and, whenever asked,
// compares the checkout against it, restores every protected file, removes protected files that appeared, and
// reports what differed. Weave asks before and after every contained spec run (runSpecs' containment).
//
// The protected set:
//  - each spec's `test.files`;
//  - `.weave/**` (but not Weave's own runs/ and cache/);
//  - test-support files by name, anywhere in the tree, including ones that did not exist before: pytest's and
//    Python's auto-loaded files (conftest.py, pytest.ini, .pytest.ini, tox.ini, setup.cfg, sitecustomize.py,
//    usercustomize.py), JS test-runner configs (jest/vitest/mocha/ava configs) and `.npmrc` (`node-options=`);
//  - the existing helper files in the test folders that hold the spec test files (test/, tests/, __tests__/,
//    spec/): fixtures and helpers a test imports. New files there are allowed (an agent may add its own tests).
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SpecFile } from '../../shared/specSchema';

const SUPPORT_FILE_NAMES = new Set([
  'conftest.py',
  'pytest.ini',
  '.pytest.ini',
  'tox.ini',
  'setup.cfg',
  'noxfile.py',
  'sitecustomize.py',
  'usercustomize.py',
  '.npmrc',
  '.mocharc',
  '.taprc',
]);
const SUPPORT_FILE_PATTERN =
  /^(jest|vitest|vitest\.workspace|ava|playwright|karma)\.config\.[cm]?[jt]s$|^\.mocharc\.(js|cjs|json|jsonc|ya?ml)$|^jest\.config\.json$/;
const TEST_FOLDER_NAMES = new Set(['test', 'tests', '__tests__', 'spec', 'specs']);
/** Never walked: dependencies, repositories, caches the runners write themselves. */
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  '.git',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '__snapshots__',
  '.tox',
  '.nox',
  'dist',
  'build',
  'coverage',
]);

export type TamperChange = 'changed' | 'created' | 'deleted';

export interface TamperedFile {
  /** Workspace-relative, '/'-separated. */
  path: string;
  change: TamperChange;
}

export function isSupportFileName(name: string): boolean {
  return SUPPORT_FILE_NAMES.has(name) || SUPPORT_FILE_PATTERN.test(name);
}

/** Whether a workspace-relative path is in the protected set for these specs (patch checks use this). */
export function isProtectedPath(relativePath: string, specFile: SpecFile): boolean {
  const rel = normalise(relativePath);
  if (testFilesOf(specFile).has(rel)) return true;
  if (isWeaveStatePath(rel)) return true;
  if (isSupportFileName(path.posix.basename(rel))) return true;
  return testFolders(specFile).some((folder) => rel.startsWith(`${folder}/`) && !looksLikeTestFile(rel));
}

export class TamperGuard {
  private constructor(
    private readonly workspaceDir: string,
    private readonly specFile: SpecFile,
    /** Workspace-relative path → pristine content (undefined: did not exist). */
    private readonly pristine: Map<string, Buffer | undefined>,
  ) {}

  static async create(workspaceDir: string, specFile: SpecFile): Promise<TamperGuard> {
    const pristine = new Map<string, Buffer | undefined>();
    for (const rel of await protectedPaths(workspaceDir, specFile)) {
      pristine.set(rel, await readOptional(path.join(workspaceDir, rel)));
    }
    for (const rel of testFilesOf(specFile)) {
      if (!pristine.has(rel)) pristine.set(rel, await readOptional(path.join(workspaceDir, rel)));
    }
    return new TamperGuard(workspaceDir, specFile, pristine);
  }

  /** The protected files as they were when the guard was created (the spec test files among them). */
  pristineContent(rel: string): Buffer | undefined {
    return this.pristine.get(normalise(rel));
  }

  /** Compares the checkout with the pristine protected set, puts it back, and says what differed. */
  async inspectAndRestore(): Promise<TamperedFile[]> {
    const differences: TamperedFile[] = [];
    const now = new Set(await protectedPaths(this.workspaceDir, this.specFile));
    for (const rel of now) if (!this.pristine.has(rel)) differences.push({ path: rel, change: 'created' });
    for (const [rel, before] of this.pristine) {
      const after = await readOptional(path.join(this.workspaceDir, rel));
      if (before === undefined && after !== undefined) differences.push({ path: rel, change: 'created' });
      else if (before !== undefined && after === undefined)
        differences.push({ path: rel, change: 'deleted' });
      else if (before !== undefined && after !== undefined && digest(before) !== digest(after))
        differences.push({ path: rel, change: 'changed' });
    }
    for (const d of differences) await this.restore(d.path);
    return differences.sort((a, b) => a.path.localeCompare(b.path));
  }

  /** Which of `specIds` a set of differences concerns: a spec's own test file → that spec; the rest → all. */
  affectedSpecs(differences: readonly TamperedFile[], specIds: readonly string[]): string[] {
    const owners = new Map<string, string[]>();
    for (const spec of this.specFile.specs) {
      for (const f of spec.test.files)
        owners.set(normalise(f), [...(owners.get(normalise(f)) ?? []), spec.id]);
    }
    const hit = new Set<string>();
    for (const d of differences) {
      const owned = owners.get(d.path);
      for (const id of owned ?? specIds) if (specIds.includes(id)) hit.add(id);
    }
    return specIds.filter((id) => hit.has(id));
  }

  private async restore(rel: string): Promise<void> {
    const file = path.join(this.workspaceDir, rel);
    const content = this.pristine.get(rel);
    // A symlink planted where a protected file was must go, not be written through.
    await fs.rm(file, { force: true, recursive: true });
    if (content === undefined) return;
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
  }
}

export function describeTampering(differences: readonly TamperedFile[]): string {
  const list = differences.map((d) => `${d.path} (${d.change})`).join(', ');
  return `protected files were modified: ${list} — restored; a run that changes them cannot pass`;
}

/**
 * The protected files that exist in a tree besides the spec test files themselves (`.weave/**`, support files,
 * helpers in the test folders), workspace-relative. Export ships them in the task, so that every verifier
 * restores what the sandbox protects.
 */
export async function protectedPaths(workspaceDir: string, specFile: SpecFile): Promise<string[]> {
  const found = new Set<string>();
  const folders = testFolders(specFile);
  const walk = async (dirRel: string): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(path.join(workspaceDir, dirRel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (SKIPPED_FOLDERS.has(entry.name)) continue;
        if (rel === '.weave/runs' || rel === '.weave/cache') continue;
        await walk(rel);
      } else if (
        isWeaveStatePath(rel) ||
        isSupportFileName(entry.name) ||
        folders.some((f) => rel.startsWith(`${f}/`) && !looksLikeTestFile(rel))
      ) {
        found.add(rel);
      }
    }
  };
  await walk('');
  return [...found];
}

function testFilesOf(specFile: SpecFile): Set<string> {
  return new Set(specFile.specs.flatMap((s) => s.test.files.map(normalise)));
}

/** The nearest enclosing test folder of each spec test file (test/, tests/, __tests__/, spec/). */
function testFolders(specFile: SpecFile): string[] {
  const folders = new Set<string>();
  for (const file of testFilesOf(specFile)) {
    const parts = file.split('/').slice(0, -1);
    for (let i = parts.length; i > 0; i--) {
      if (TEST_FOLDER_NAMES.has(parts[i - 1] as string)) {
        folders.add(parts.slice(0, i).join('/'));
        break;
      }
    }
  }
  return [...folders];
}

function looksLikeTestFile(rel: string): boolean {
  const name = path.posix.basename(rel);
  return /(^test_.*\.py$)|(_test\.(py|go)$)|(\.(test|spec)\.[cm]?[jt]sx?$)/.test(name);
}

function isWeaveStatePath(rel: string): boolean {
  return rel.startsWith('.weave/') && !rel.startsWith('.weave/runs/') && !rel.startsWith('.weave/cache/');
}

function normalise(p: string): string {
  return path.posix.normalize(p.replace(/\\/g, '/')).replace(/^(\.\/)+/, '');
}

function digest(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

async function readOptional(file: string): Promise<Buffer | undefined> {
  try {
    const stat = await fs.lstat(file);
    if (stat.isSymbolicLink()) return Buffer.from(`symlink:${await fs.readlink(file)}`);
    return stat.isFile() ? await fs.readFile(file) : undefined;
  } catch {
    return undefined;
  }
}
