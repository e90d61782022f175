// Tamper evidence for contained runs. Code under test runs with write access to its checkout, so it can rewrite
// its own test, the spec file, or drop a `conftest.py` that flips outcomes — and then the verdict would lie.
// The guard records the protected set of a pristine checkout (content kept, it is small) and, whenever asked,
// compares the checkout against it, restores every protected file, removes protected files that appeared, and
// reports what differed. Weave asks before and after every contained spec run (runSpecs' containment).
//
// The protected set is the diff policy's test infrastructure (diffPolicy/infrastructurePaths.ts), by mechanism,
// anywhere in the tree and including files that did not exist before:
//  - each spec's `test.files`, `.weave/**` (but not Weave's own runs/ and cache/), and every other file in the
//    test folders that hold the spec test files (helpers, fixtures; new test files there are allowed);
//  - files a runner or Python loads by themselves: conftest.py, pytest.ini/.toml, sitecustomize.py, *.pth,
//    `*.dist-info`/`*.egg-info` entry points, jest/vitest/vite/mocha/ava/babel configs, .npmrc, .yarnrc;
//  - modules that shadow the runner or the standard library on the test's import path (./pytest.py, src/json/);
//  - by name as before, setup.cfg, tox.ini, noxfile.py and .taprc, whole;
//  - what the specs load by mechanism, wherever it lives (protectionScope.ts, commandLoads/): the Makefile and the
//    files its target's recipe runs, the npm scripts (by key), scripts run by path or interpreter, preloads,
//    pytest plugins, what runner configs name, PYTHONPATH start-up modules, and the helpers the tests import;
//  - package.json and pyproject.toml by key: only their test keys (`scripts.test`, `jest`, `mocha`,
//    `[tool.pytest.ini_options]`, a pytest11 entry point…) are compared, and when one differs the whole file is
//    put back (a key cannot be restored alone without rewriting the user's formatting).
import { createHash } from 'node:crypto';
import fsSync, { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SpecFile } from '../../shared/specSchema';
import { MAX_TREE_DEPTH } from '../deepTrees';
import { manifestKeyChanges, UnreadableManifest } from './diffPolicy/manifestKeys';
import { normalisePath, type PolicyScope } from './diffPolicy/scope';
import type { ObservedLoads } from './commandLoads/specLoads';
import { protectionScopeOf, type LoadedScope } from './protectionScope';
import { isKeyedManifest, isWholeFileProtected, SKIPPED_FOLDERS } from './protectedNames';

export { isKeyedManifest, isProtectedPath, isSupportFileName, SKIPPED_FOLDERS } from './protectedNames';

export type TamperChange = 'changed' | 'created' | 'deleted';

export interface TamperedFile {
  /** Workspace-relative, '/'-separated. */
  path: string;
  change: TamperChange;
}

/**
 * The policy scope of a spec file with what its specs load, read from `workspaceDir` (the pristine tree), and
 * what reference runs saw them load (observedLoads.ts), when the caller has it.
 */
export function protectionScopeOfSpecFile(
  workspaceDir: string,
  specFile: SpecFile,
  observed?: ObservedLoads,
): Promise<LoadedScope> {
  return protectionScopeOf(workspaceDir, specFile.specs, specFile.defaults, observed);
}

export class TamperGuard {
  private constructor(
    private readonly workspaceDir: string,
    private readonly specFile: SpecFile,
    /** The protected set's scope, what the specs load included, read when the guard was created. */
    private current: LoadedScope,
    /** Workspace-relative path → pristine content (undefined: did not exist). */
    private readonly pristine: Map<string, Buffer | undefined>,
    /** Folders too deep to inspect that were there from the start (the user's own): not findings. */
    private readonly uninspectedAtStart: ReadonlySet<string>,
  ) {}

  static async create(
    workspaceDir: string,
    specFile: SpecFile,
    observed?: ObservedLoads,
  ): Promise<TamperGuard> {
    const pristine = new Map<string, Buffer | undefined>();
    const scope = await protectionScopeOfSpecFile(workspaceDir, specFile, observed);
    const scan = await scanProtected(workspaceDir, scope);
    for (const rel of scan.paths) {
      pristine.set(rel, await readOptional(path.join(workspaceDir, rel)));
    }
    // Spec tests and loaded files that do not exist yet are protected too: creating one is a change.
    for (const rel of [...scope.testFiles, ...(scope.loaded?.files.keys() ?? [])]) {
      if (!pristine.has(rel)) pristine.set(rel, await readOptional(path.join(workspaceDir, rel)));
    }
    return new TamperGuard(workspaceDir, specFile, scope, pristine, new Set(scan.uninspected));
  }

  /** The protected set's scope: what the specs load, and what a reference run saw them load (observe). */
  get scope(): LoadedScope {
    return this.current;
  }

  /**
   * Adds what a reference run saw the specs' test processes load (the base of an agent run, before the agent
   * worked: observedLoads.ts) to the protected set, and returns the files that joined it. Call it while the
   * checkout is still pristine (after a batch the guard restored): their content now is their pristine content.
   */
  async observe(observed: ObservedLoads): Promise<string[]> {
    const scope = await protectionScopeOfSpecFile(this.workspaceDir, this.specFile, observed);
    const joined: string[] = [];
    for (const rel of scope.loaded.files.keys()) {
      if (this.current.loaded.files.has(rel) || this.pristine.has(rel)) continue;
      this.pristine.set(rel, await readOptional(path.join(this.workspaceDir, rel)));
      joined.push(rel);
    }
    this.current = scope;
    return joined;
  }

  /**
   * Absolute paths to mount read-only over the checkout inside the sandbox: every protected regular file that
   * exists, and `.weave` as a whole. (A protected file that does not exist yet cannot be a mount point; creating
   * one is caught by the hashes after the batch.)
   */
  mountablePaths(): string[] {
    const paths = new Set<string>();
    for (const [rel, content] of this.pristine) {
      // Files under .weave are covered by mounting the folder itself.
      if (content === undefined || isLinkContent(content) || rel.startsWith('.weave/')) continue;
      paths.add(path.join(this.workspaceDir, rel));
    }
    const weaveDir = path.join(this.workspaceDir, '.weave');
    if (fsSync.existsSync(weaveDir) && fsSync.lstatSync(weaveDir).isDirectory()) paths.add(weaveDir);
    return [...paths].sort();
  }

  /** The protected files as they were when the guard was created (the spec test files among them). */
  pristineContent(rel: string): Buffer | undefined {
    return this.pristine.get(normalisePath(rel));
  }

  /** Compares the checkout with the pristine protected set, puts it back, and says what differed. */
  async inspectAndRestore(): Promise<TamperedFile[]> {
    const differences: TamperedFile[] = [];
    // Never through a folder on the way that became a link (readInside).
    const read = (rel: string): Promise<Buffer | undefined> => readInside(this.workspaceDir, rel);
    const scan = await scanProtected(this.workspaceDir, this.scope);
    // A folder chain too deep to look into, made during the run: what it holds cannot be checked or put back
    // (its paths are past what a path can name), so it is a finding of its own and the run cannot pass.
    const uninspected = scan.uninspected.filter((rel) => !this.uninspectedAtStart.has(rel));
    for (const rel of scan.paths) {
      if (this.pristine.has(rel)) continue;
      // A manifest that appeared is tampering only when it has test keys.
      if (isKeyedManifest(rel) && !testKeysDiffer(rel, undefined, await read(rel), this.scope)) continue;
      differences.push({ path: rel, change: 'created' });
    }
    for (const [rel, before] of this.pristine) {
      const after = await read(rel);
      const change = changeBetween(before, after);
      if (change === undefined) continue;
      if (isKeyedManifest(rel) && !testKeysDiffer(rel, before, after, this.scope)) continue;
      differences.push({ path: rel, change });
    }
    for (const d of differences) await this.restore(d.path);
    const unchecked = uninspected.map((rel): TamperedFile => ({
      path: uninspectedName(rel),
      change: 'created',
    }));
    return [...differences, ...unchecked].sort((a, b) => a.path.localeCompare(b.path));
  }

  /** Which of `specIds` a set of differences concerns: a spec's own test file → that spec; the rest → all. */
  affectedSpecs(differences: readonly TamperedFile[], specIds: readonly string[]): string[] {
    const owners = new Map<string, string[]>();
    for (const spec of this.specFile.specs) {
      for (const f of spec.test.files)
        owners.set(normalisePath(f), [...(owners.get(normalisePath(f)) ?? []), spec.id]);
    }
    const hit = new Set<string>();
    for (const d of differences) {
      const owned = owners.get(d.path);
      for (const id of owned ?? specIds) if (specIds.includes(id)) hit.add(id);
    }
    return specIds.filter((id) => hit.has(id));
  }

  /**
   * Puts one protected path back without following any link the code under test planted: a folder on the way
   * that became a symlink (`test/` → another project) is removed as a link and made a folder again, the path
   * itself is removed (a link is unlinked, never followed), and the content is written with O_EXCL, which refuses
   * to create through a symlink. Restoring therefore never touches a file outside the checkout.
   */
  private async restore(rel: string): Promise<void> {
    await repairParents(this.workspaceDir, rel);
    const file = path.join(this.workspaceDir, rel);
    const content = this.pristine.get(rel);
    await fs.rm(file, { force: true, recursive: true });
    if (content === undefined) return;
    if (isLinkContent(content)) {
      await fs.symlink(content.subarray(LINK_PREFIX.length).toString(), file);
      return;
    }
    await fs.writeFile(file, content, { flag: 'wx' });
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
export async function protectedPaths(
  workspaceDir: string,
  specFile: SpecFile,
  observed?: ObservedLoads,
): Promise<string[]> {
  const scope = await protectionScopeOfSpecFile(workspaceDir, specFile, observed);
  return (await scanProtected(workspaceDir, scope)).paths;
}

interface ProtectedScan {
  paths: string[];
  /**
   * Folders the walk could not look into: deeper than MAX_TREE_DEPTH below the workspace, or with a path past
   * PATH_MAX (ENAMETOOLONG). A runner configuration could hide there, so one that appears during a run is a finding.
   */
  uninspected: string[];
}

async function scanProtected(workspaceDir: string, scope: PolicyScope): Promise<ProtectedScan> {
  const found = new Set<string>();
  const uninspected: string[] = [];
  const walk = async (dirRel: string, depth: number): Promise<void> => {
    if (depth > MAX_TREE_DEPTH) {
      uninspected.push(dirRel);
      return;
    }
    let entries;
    try {
      entries = await fs.readdir(path.join(workspaceDir, dirRel), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENAMETOOLONG') uninspected.push(dirRel);
      return;
    }
    for (const entry of entries) {
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (SKIPPED_FOLDERS.has(entry.name)) continue;
        if (rel === '.weave/runs' || rel === '.weave/cache') continue;
        await walk(rel, depth + 1);
      } else if (isWholeFileProtected(rel, scope) || isKeyedManifest(rel)) {
        found.add(rel);
      }
    }
  };
  await walk('', 0);
  // Loaded files in folders the walk skips (a build/ script a Makefile runs) are still the specs'.
  for (const rel of scope.loaded?.files.keys() ?? [])
    if (!found.has(rel) && fsSync.existsSync(path.join(workspaceDir, rel))) found.add(rel);
  return { paths: [...found], uninspected };
}

/** A folder the guard could not inspect, named short enough to read: its first levels, then how deep it goes. */
function uninspectedName(rel: string): string {
  const parts = rel.split('/');
  if (parts.length <= 4) return `${rel}/`;
  return `${parts.slice(0, 3).join('/')}/…(${parts.length} levels, not inspected)/`;
}

function changeBetween(before: Buffer | undefined, after: Buffer | undefined): TamperChange | undefined {
  if (before === undefined) return after === undefined ? undefined : 'created';
  if (after === undefined) return 'deleted';
  return digest(before) === digest(after) ? undefined : 'changed';
}

/** Whether a keyed manifest differs in a test key (or can no longer be read, a symlink included). */
function testKeysDiffer(
  rel: string,
  before: Buffer | undefined,
  after: Buffer | undefined,
  scope: PolicyScope,
): boolean {
  const keys = manifestKeyChanges(
    rel,
    before?.toString('utf8'),
    after?.toString('utf8'),
    scope.loaded?.keys.get(rel),
  );
  return keys instanceof UnreadableManifest || keys.some((k) => k.kind === 'test-infrastructure');
}

function digest(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

const LINK_PREFIX = 'symlink:';

function isLinkContent(content: Buffer): boolean {
  return content.subarray(0, LINK_PREFIX.length).toString() === LINK_PREFIX;
}

async function readOptional(file: string): Promise<Buffer | undefined> {
  try {
    const stat = await fs.lstat(file);
    if (stat.isSymbolicLink()) return Buffer.from(`${LINK_PREFIX}${await fs.readlink(file)}`);
    return stat.isFile() ? await fs.readFile(file) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A protected path's content as the checkout holds it, read without following a folder on the way that became a
 * link: such a path reads as the link (so it differs from the pristine content and is reported), never as the
 * file at the link's target.
 */
async function readInside(workspaceDir: string, rel: string): Promise<Buffer | undefined> {
  const broken = await firstNonFolderParent(workspaceDir, rel);
  if (broken === null) return readOptional(path.join(workspaceDir, rel));
  return broken.link === undefined
    ? undefined
    : Buffer.from(`${LINK_PREFIX}parent ${broken.rel} -> ${broken.link}`);
}

/** The first folder on the way to `rel` that is not a real folder (a link, a file), or null. */
async function firstNonFolderParent(
  workspaceDir: string,
  rel: string,
): Promise<{ rel: string; link?: string } | null> {
  const parts = rel.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join('/');
    const full = path.join(workspaceDir, prefix);
    const stat = await fs.lstat(full).catch(() => undefined);
    if (stat === undefined) return { rel: prefix };
    if (stat.isSymbolicLink()) return { rel: prefix, link: await fs.readlink(full).catch(() => '?') };
    if (!stat.isDirectory()) return { rel: prefix };
  }
  return null;
}

/** Makes every folder on the way to `rel` a real folder again (links and files there are removed, not followed). */
async function repairParents(workspaceDir: string, rel: string): Promise<void> {
  for (;;) {
    const broken = await firstNonFolderParent(workspaceDir, rel);
    if (broken === null) return;
    const full = path.join(workspaceDir, broken.rel);
    await fs.rm(full, { force: true }).catch(() => undefined);
    await fs.mkdir(full);
  }
}
