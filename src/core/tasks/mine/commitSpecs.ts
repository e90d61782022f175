// Specs for a mined commit from its own tests, no model needed: each test file the commit changes becomes a goal
// spec (it should fail before the change and pass after: FAIL_TO_PASS), and the rest of the suite is grouped by
// runner and top folder into a few constraint specs (they should pass before and after: PASS_TO_PASS). Export's
// verification decides which each one really is. The spec file is then committed over the commit and over its
// parent (specCommits), so `weave export` judges the change exactly as it judges a workspace with specs.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { git } from '../../git/git';
import type { SpecFileInput } from '../../../shared/specSchema';
import { isTestPath, type CommitLook } from './candidateCommits';

/** The prefixes by which a mined spec says its role, read back by metric.py and the card. */
export const GOAL_PREFIX = 'goal-';
export const KEEP_PREFIX = 'keep-';
/** The rest of the suite in at most this many constraint specs. */
const MAX_KEEP_GROUPS = 3;

type Runner = 'pytest' | 'node' | 'vitest' | 'jest' | 'mocha';

export interface CommitSpecs {
  specFile: SpecFileInput;
  /** Why no spec could be made (no runnable test file changed). */
  problem?: string;
}

/** The spec file for `look` at its commit, read from the repository (paths relative to `subdir`). */
export async function specsForCommit(
  repoRoot: string,
  subdir: string,
  look: CommitLook,
): Promise<CommitSpecs> {
  const prefix = subdir === '' ? '' : `${subdir}/`;
  const atTarget = (
    await git(['ls-tree', '-r', '--name-only', '--full-tree', look.commit, '--', subdir || '.'], repoRoot)
  )
    .split('\n')
    .filter((f) => f.startsWith(prefix) && f !== '')
    .map((f) => f.slice(prefix.length));
  const jsRunner = await javaScriptRunner(repoRoot, look.commit, prefix);
  const runnerOf = (file: string): Runner | undefined =>
    /\.py$/.test(file)
      ? isPythonTestName(file)
        ? 'pytest'
        : undefined
      : /\.[cm]?[jt]sx?$/.test(file)
        ? jsRunner
        : undefined;
  const runnable = atTarget.filter((f) => isTestPath(f) && runnerOf(f) !== undefined).sort();
  const changed = new Set(look.testFiles);
  const goalFiles = runnable.filter((f) => changed.has(f));
  if (goalFiles.length === 0)
    return {
      specFile: { version: 1, specs: [] },
      problem: 'the commit changes no test file a runner Weave knows can run',
    };

  const groups = keepGroups(
    runnable.filter((f) => !changed.has(f)),
    runnerOf,
  );
  const ids = new Set<string>();
  const unique = (id: string): string => {
    let candidate = id.slice(0, 72);
    for (let n = 2; ids.has(candidate); n++) candidate = `${id.slice(0, 70)}-${n}`;
    ids.add(candidate);
    return candidate;
  };
  const keepSpecs = groups.map((group) => ({
    id: unique(`${KEEP_PREFIX}${slug(group.label)}`),
    title: `The existing tests in ${group.label} keep passing`,
    kind: 'compatibility' as const,
    statement: `The ${group.files.length} existing test file(s) in ${group.label} shall pass before and after the change.`,
    test: { command: commandFor(group.runner, group.files), files: group.files },
    folder: group.folder,
  }));
  const goalSpecs = goalFiles.map((file) => {
    const folder = topFolder(file);
    return {
      id: unique(`${GOAL_PREFIX}${slug(file.replace(/\.[^.]+$/, ''))}`),
      title: `${file} passes: ${look.subject}`.slice(0, 200),
      kind: 'functional' as const,
      statement: `When the change "${look.subject}" is made, the tests in ${file} shall pass.`,
      test: { command: commandFor(runnerOf(file) as Runner, [file]), files: [file] },
      anchors: look.sourceFiles,
      // The constraints on the same part of the suite are the ones the change can break while making this pass.
      interactsWith: keepSpecs.filter((k) => k.folder === folder).map((k) => k.id),
    };
  });
  return {
    specFile: {
      version: 1,
      goal: look.message,
      specs: [...goalSpecs, ...keepSpecs.map(({ folder: _folder, ...spec }) => spec)],
    },
  };
}

interface KeepGroup {
  label: string;
  folder: string;
  runner: Runner;
  files: string[];
}

function keepGroups(files: string[], runnerOf: (file: string) => Runner | undefined): KeepGroup[] {
  const byKey = new Map<string, KeepGroup>();
  for (const file of files) {
    const runner = runnerOf(file) as Runner;
    const folder = topFolder(file);
    const key = `${runner} ${folder}`;
    const group = byKey.get(key) ?? {
      label: folder === '' ? `the root (${runner})` : `${folder}/`,
      folder,
      runner,
      files: [],
    };
    group.files.push(file);
    byKey.set(key, group);
  }
  const groups = [...byKey.values()].sort(
    (a, b) => b.files.length - a.files.length || a.label.localeCompare(b.label),
  );
  // Beyond the cap, the smaller groups join the last kept group of the same runner (or stay out when none).
  const kept = groups.slice(0, MAX_KEEP_GROUPS);
  for (const extra of groups.slice(MAX_KEEP_GROUPS)) {
    const home = kept.filter((g) => g.runner === extra.runner).at(-1);
    if (home) {
      home.files.push(...extra.files);
      home.label = `${home.label} and others`;
    }
  }
  for (const group of kept) group.files.sort();
  return kept.sort((a, b) => a.label.localeCompare(b.label));
}

function topFolder(file: string): string {
  const parts = file.split('/');
  return parts.length > 1 ? (parts[0] as string) : '';
}

function isPythonTestName(file: string): boolean {
  const name = path.posix.basename(file);
  return /^test_.*\.py$/.test(name) || /_test\.py$/.test(name);
}

/** The JavaScript runner the project declares (package.json at the commit), node:test when none. */
async function javaScriptRunner(repoRoot: string, commit: string, prefix: string): Promise<Runner> {
  let pkg: Record<string, unknown> = {};
  try {
    pkg = JSON.parse(await git(['show', `${commit}:${prefix}package.json`], repoRoot)) as Record<
      string,
      unknown
    >;
  } catch {
    return 'node'; // no package.json, or one npm could not read either
  }
  const declared = new Set(
    ['dependencies', 'devDependencies'].flatMap((field) =>
      Object.keys((pkg[field] as object | undefined) ?? {}),
    ),
  );
  for (const runner of ['vitest', 'jest', 'mocha'] as const) if (declared.has(runner)) return runner;
  return 'node';
}

function commandFor(runner: Runner, files: string[]): string {
  const args = files.map(quote).join(' ');
  switch (runner) {
    case 'pytest':
      return `python3 -m pytest -q ${args}`;
    case 'vitest':
      return `npx vitest run ${args}`;
    case 'jest':
      return `npx jest ${args}`;
    case 'mocha':
      return `npx mocha ${args}`;
    case 'node':
      return `node --test ${args}`;
  }
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'root'
  );
}

/**
 * The commit's parent and the commit, each with the spec file added at `subdir/.weave/specs.json`, committed in
 * the clone (dated and authored like the originals, so the same inputs give the same commits). Returns their ids.
 */
export async function specCommits(
  repoRoot: string,
  subdir: string,
  look: CommitLook,
  specText: string,
  /** Files added to the target only (synthesised specs' tests, paths relative to `subdir`), like the commit's tests. */
  targetFiles: ReadonlyArray<{ path: string; content: string }> = [],
): Promise<{ base: string; target: string }> {
  const prefix = subdir === '' ? '' : `${subdir}/`;
  const hash = async (text: string): Promise<string> =>
    (await git(['hash-object', '-w', '--stdin'], repoRoot, { input: text })).trim();
  const blob = await hash(specText);
  const specPath = `${prefix}.weave/specs.json`;
  const extra: string[] = [];
  for (const file of targetFiles) extra.push(`100644,${await hash(file.content)},${prefix}${file.path}`);
  const withSpecs = async (commit: string, parents: string[], added: string[]): Promise<string> => {
    const index = path.join(repoRoot, '.git', `weave-mine-index-${process.pid}`);
    const env = { GIT_INDEX_FILE: index };
    let tree: string;
    try {
      await git(['read-tree', commit], repoRoot, { env });
      await git(['update-index', '--add', '--cacheinfo', `100644,${blob},${specPath}`], repoRoot, { env });
      for (const info of added) await git(['update-index', '--add', '--cacheinfo', info], repoRoot, { env });
      tree = (await git(['write-tree'], repoRoot, { env })).trim();
    } finally {
      await fs.rm(index, { force: true });
    }
    const [authorDate, committerDate] = (await git(['log', '-1', '--format=%aI%n%cI', commit], repoRoot))
      .trim()
      .split('\n');
    const message = await git(['log', '-1', '--format=%B', commit], repoRoot);
    return (
      await git(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p])], repoRoot, {
        isolated: true,
        input: message,
        env: { GIT_AUTHOR_DATE: authorDate ?? '', GIT_COMMITTER_DATE: committerDate ?? '' },
      })
    ).trim();
  };
  const base = await withSpecs(look.parent, [], []);
  const target = await withSpecs(look.commit, [base], extra);
  return { base, target };
}
