// The files the specs' tests load besides the test files themselves, by mechanism: what each spec's command
// names or runs (commandReader.ts) and the helpers the test files import up to the code under test
// (testImports.ts; a spec without anchors protects only the helpers beside its test). This is the part of the
// protected set that follows the specs rather than file names; the sandbox, the diff policy, the guard and
// export all take it through the policy scope (protectionScope.ts).
import path from 'node:path';
import { bashParser } from './bashSyntax';
import { CommandReader } from './commandReader';
import { LoadCollector, isFile, listFolder, type LoadedSet } from './loadedSet';
import { importClosure, type ImportRoots } from './testImports';

export interface LoadingSpec {
  id: string;
  test: {
    command: string;
    files: readonly string[];
    cwd?: string | undefined;
    env?: Readonly<Record<string, string>> | undefined;
  };
  anchors?: readonly string[] | undefined;
}

/**
 * What reference runs saw each spec's test process load before its first test (sandbox/observedLoads.ts):
 * spec id → workspace-relative files.
 */
export type ObservedLoads = ReadonlyMap<string, readonly string[]>;

export interface LoadingDefaults {
  cwd?: string | undefined;
  env?: Readonly<Record<string, string>> | undefined;
}

const CODE_FILE = /\.([cm]?[jt]sx?|py)$/;

/**
 * What the specs load, read from the workspace as it is now (call it on the pristine tree: a change to any file
 * read here is itself a change to a loaded file). `pythonRoots` are the policy scope's import roots.
 */
export async function specLoads(
  workspaceDir: string,
  specs: readonly LoadingSpec[],
  defaults: LoadingDefaults,
  pythonRoots: Iterable<string>,
  observed: ObservedLoads = new Map(),
): Promise<LoadedSet> {
  const collector = new LoadCollector(workspaceDir);
  const reader = new CommandReader(await bashParser(), collector);
  const roots: ImportRoots = {
    python: [...pythonRoots].map((r) => path.join(workspaceDir, r)),
    node: [],
  };
  const testFiles = new Set(specs.flatMap((s) => s.test.files.map((f) => path.join(workspaceDir, f))));
  const starts = new Map<string, string>();
  for (const spec of specs) {
    collector.spec = spec.id;
    const cwd = path.resolve(workspaceDir, spec.test.cwd ?? defaults.cwd ?? '.');
    const env = new Map<string, string | undefined>(
      Object.entries({ ...(defaults.env ?? {}), ...(spec.test.env ?? {}) }),
    );
    const before = new Set(collector.files.keys());
    reader.shell(spec.test.command, cwd, env, 0);
    for (const root of (env.get('PYTHONPATH') ?? '').split(':').filter(Boolean))
      roots.python = [...roots.python, path.resolve(cwd, root)];
    for (const root of (env.get('NODE_PATH') ?? '').split(':').filter(Boolean))
      roots.node = [...roots.node, path.resolve(cwd, root)];
    for (const file of spec.test.files) starts.set(path.join(workspaceDir, file), spec.id);
    for (const rel of collector.files.keys())
      if (!before.has(rel) && CODE_FILE.test(rel)) starts.set(path.join(workspaceDir, rel), spec.id);
    for (const file of spec.test.files)
      for (const conftest of conftestsOnTheWay(workspaceDir, path.join(workspaceDir, file)))
        starts.set(conftest, spec.id);
  }
  const underTest = codeUnderTest(workspaceDir, specs, roots, testFiles);
  const anchored = new Set(specs.filter((s) => (s.anchors ?? []).length > 0).map((s) => s.id));
  for (const spec of specs) {
    if (anchored.has(spec.id)) continue;
    collector.spec = spec.id;
    collector.cannotRead(
      "no anchors, so which of its test's imports are code under test is unknown: only files in the folder " +
        'of the file importing them (never the workspace root) count as its helpers',
    );
  }
  for (const [start, spec] of starts) {
    collector.spec = spec;
    // Without anchors the code under test is unknown: a fix anywhere must stay possible, so only the files
    // beside (or below) the importing file are taken as helpers.
    const besideOnly = anchored.has(spec) ? undefined : path.dirname(start);
    const outside = (f: string): boolean =>
      besideOnly !== undefined && (besideOnly === workspaceDir || !f.startsWith(`${besideOnly}${path.sep}`));
    const helpers = importClosure([start], roots, (f) => underTest.has(f) || testFiles.has(f) || outside(f));
    const from = collector.relative(start) ?? start;
    for (const helper of helpers) collector.add(helper, `${from} imports it (a helper, not code under test)`);
  }
  addObserved(collector, workspaceDir, specs, observed, underTest, testFiles, anchored);
  return collector.result();
}

/**
 * The files a reference run saw a spec's test process load before its first test, where they still exist and
 * are not the code under test nor the spec tests themselves. A spec without anchors keeps, as for imports, only
 * the files beside (or below) its test files, never at the workspace root.
 */
function addObserved(
  collector: LoadCollector,
  workspaceDir: string,
  specs: readonly LoadingSpec[],
  observed: ObservedLoads,
  underTest: ReadonlySet<string>,
  testFiles: ReadonlySet<string>,
  anchored: ReadonlySet<string>,
): void {
  for (const spec of specs) {
    const files = observed.get(spec.id);
    if (files === undefined) continue;
    collector.spec = spec.id;
    const beside = anchored.has(spec.id)
      ? undefined
      : spec.test.files
          .map((f) => path.dirname(path.join(workspaceDir, f)))
          .filter((dir) => dir !== workspaceDir);
    for (const rel of files) {
      const abs = path.join(workspaceDir, rel);
      if (underTest.has(abs) || testFiles.has(abs) || !isFile(abs)) continue;
      if (beside !== undefined && !beside.some((dir) => abs.startsWith(`${dir}${path.sep}`))) continue;
      collector.add(abs, 'its test process loaded it before the first test (seen by a check of your tree)');
    }
  }
}

/** conftest.py files pytest loads for a test: in its folder and every folder above it up to the workspace. */
function conftestsOnTheWay(workspaceDir: string, testFile: string): string[] {
  const found: string[] = [];
  for (let dir = path.dirname(testFile); ; dir = path.dirname(dir)) {
    const conftest = path.join(dir, 'conftest.py');
    if (isFile(conftest)) found.push(conftest);
    if (dir === workspaceDir || path.dirname(dir) === dir || !dir.startsWith(workspaceDir)) return found;
  }
}

/**
 * The code under test (testImports.ts's header): anchor files, the other files beside them (not at the
 * workspace root), and everything they import.
 */
function codeUnderTest(
  workspaceDir: string,
  specs: readonly LoadingSpec[],
  roots: ImportRoots,
  testFiles: ReadonlySet<string>,
): Set<string> {
  const anchors = new Set(
    specs.flatMap((s) => (s.anchors ?? []).map((a) => path.join(workspaceDir, a.split('#')[0]!))),
  );
  const code = new Set<string>();
  for (const anchor of anchors) {
    code.add(anchor);
    const dir = path.dirname(anchor);
    if (dir === workspaceDir) continue;
    for (const sibling of siblings(dir)) if (!testFiles.has(sibling)) code.add(sibling);
  }
  for (const file of importClosure([...code], roots, (f) => testFiles.has(f))) code.add(file);
  return code;
}

function siblings(dir: string): string[] {
  return (listFolder(dir) ?? []).map((entry) => path.join(dir, entry.name)).filter(isFile);
}
