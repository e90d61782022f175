// The starter .weave/specs.json `weave init` writes: one spec that runs the project's own test suite (or, with
// perFile, one spec per test file), with the test runner, its interpreter and the environment the tests need
// detected from the project's files (starter/).
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { isJsTestFile, nodeRunner, type NodeProjectFacts } from './starter/detectNode';
import { canImport, pythonRunner, type PythonProbe } from './starter/detectPython';
import { findTestFiles, readText } from './starter/projectFiles';
import type { DetectedRunner } from './starter/types';

export type { DetectedRunner } from './starter/types';

const NODE_FALLBACK = 'a package.json without a test runner';

/**
 * Looks at package.json (a real test script or a test runner dependency), then the Python configuration and
 * tests, go.mod and Cargo.toml; a package.json with neither script nor runner only wins when nothing else does.
 */
export async function detectTestRunner(
  workspaceDir: string,
  probe: PythonProbe = canImport,
): Promise<DetectedRunner> {
  const packageJson = await readText(path.join(workspaceDir, 'package.json'));
  const fromNode =
    packageJson === undefined ? undefined : nodeRunner(packageJson, await nodeFacts(workspaceDir));
  const withJsTests = async (d: DetectedRunner): Promise<DetectedRunner> => {
    const testFiles = await findTestFiles(workspaceDir, isJsTestFile);
    return { ...d, testFiles, timingSensitive: await timingSensitiveFiles(workspaceDir, testFiles) };
  };
  if (fromNode && fromNode.reason !== NODE_FALLBACK) return withJsTests(fromNode);
  const fromPython = await pythonRunner(workspaceDir, probe);
  if (fromPython)
    return {
      ...fromPython,
      timingSensitive: await timingSensitiveFiles(workspaceDir, fromPython.testFiles ?? []),
    };
  if (fromNode) return withJsTests(fromNode);
  if ((await readText(path.join(workspaceDir, 'go.mod'))) !== undefined) {
    return { runner: 'go test', command: 'go test ./...', reason: 'go.mod' };
  }
  if ((await readText(path.join(workspaceDir, 'Cargo.toml'))) !== undefined) {
    return { runner: 'cargo test', command: 'cargo test', reason: 'Cargo.toml' };
  }
  return {
    runner: 'unknown',
    command: 'echo "set this spec\'s test command in .weave/specs.json" && exit 1',
    reason: 'no package.json, Python tests, go.mod or Cargo.toml with a known test runner',
  };
}

export interface StarterOptions {
  /** One spec per test file (when the runner can run a single file), instead of one for the whole suite. */
  perFile?: boolean;
  /** Seconds per spec id, from a measured first run (`weave init --measure`). */
  timeouts?: ReadonlyMap<string, number>;
}

/** From this many test files on, a suite the runner can run in parts is split (so a spec can be selected alone). */
export const SPLIT_FROM_FILES = 4;
/** Runners that take a folder as well as a file. */
const FOLDER_RUNNERS = new Set(['vitest', 'jest', 'pytest']);

interface StarterSpec {
  id: string;
  title: string;
  kind: 'reliability' | 'performance';
  statement: string;
  test: { command: string; files: string[]; env?: Record<string, string>; timeoutSeconds?: number };
  anchors: string[];
  dependsOn: string[];
  interactsWith: string[];
}

/** The starter's specs: the whole suite, or its parts (a folder or a file each), wall-clock tests on their own. */
export function starterSpecs(detected: DetectedRunner, options: StarterOptions = {}): StarterSpec[] {
  const files = detected.testFiles ?? [];
  const env = detected.env && Object.keys(detected.env).length > 0 ? { env: detected.env } : {};
  const spec = (
    id: string,
    title: string,
    statement: string,
    command: string,
    own: string[],
    kind: StarterSpec['kind'] = 'reliability',
  ): StarterSpec => {
    const timeout = options.timeouts?.get(id);
    return {
      id,
      title,
      kind,
      statement,
      test: { command, files: own, ...env, ...(timeout !== undefined ? { timeoutSeconds: timeout } : {}) },
      anchors: [],
      dependsOn: [],
      interactsWith: [],
    };
  };
  const forFile = detected.commandForFile;
  const timed = new Set(detected.timingSensitive ?? []);
  const split = forFile !== undefined && (options.perFile === true || files.length >= SPLIT_FROM_FILES);
  if (!split || files.length === 0)
    return [
      spec(
        'test-suite',
        'The existing test suite passes',
        'The project’s own tests shall keep passing.',
        detected.command,
        files,
      ),
    ];
  // Parts: one per folder when the runner takes folders and the files lie in several, else one per file.
  const untimed = files.filter((f) => !timed.has(f));
  const folders = new Map<string, string[]>();
  for (const file of untimed) {
    const folder = path.posix.dirname(file);
    folders.set(folder, [...(folders.get(folder) ?? []), file]);
  }
  const byFolder = options.perFile !== true && FOLDER_RUNNERS.has(detected.runner) && folders.size > 1;
  const parts: Array<[string, string[]]> = byFolder
    ? [...folders]
    : untimed.map((f) => [f, [f]] as [string, string[]]);
  const ids = uniqueIds([...parts.map(([target]) => target), ...files.filter((f) => timed.has(f))]);
  const out = parts.map(([target, own], i) =>
    spec(
      ids[i]![0],
      `The tests in ${target} pass`,
      `The tests in ${target} shall keep passing.`,
      forFile(target),
      own,
    ),
  );
  for (const [id, file] of ids.slice(parts.length))
    out.push(
      spec(
        id,
        `The timing tests in ${file} pass`,
        `The timing tests in ${file} shall keep passing (they measure wall-clock time).`,
        forFile(file),
        [file],
        'performance',
      ),
    );
  return out;
}

/** The starter file text: JSONC with comments that explain the format. */
export function starterSpecText(detected: DetectedRunner, options: StarterOptions = {}): string {
  const specs = starterSpecs(detected, options);
  const specsJson = specs.map((s) => JSON.stringify(s, null, 2).replace(/\n/g, '\n    ')).join(',\n    ');
  const envNote = detected.env
    ? `\n// Environment the tests need: ${Object.entries(detected.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}.`
    : '';
  const notes = starterNotes(detected, specs)
    .map((n) => `\n// ${n}`)
    .join('');
  return `// Weave specs: each spec is one requirement with an executable test. Add one per constraint you care about
// (functional, interface, security, performance, reliability, compatibility) and say how they relate:
// "dependsOn" (must hold for this one to mean anything) and "interactsWith" (may conflict with it).
// Test runner detected: ${detected.runner} (${detected.reason}).${envNote}${notes}
{
  "version": 1,
  "goal": "",
  "defaults": { "cwd": ".", "timeoutSeconds": 120 },
  "specs": [
    ${specsJson}
  ]
}
`;
}

/** A spec id per file, from its path (lower-case, dashes), made unique. */
function uniqueIds(files: string[]): Array<[string, string]> {
  const used = new Set<string>();
  return files.map((file) => {
    const base =
      file
        .toLowerCase()
        .replace(/\.[^./]+$/, '')
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 70) || 'tests';
    let id = /^[a-z0-9]/.test(base) ? base : `t-${base}`;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return [id, file];
  });
}

/** What the starter's header and `weave init` say beyond the runner: the detection's notes, timing tests. */
export function starterNotes(detected: DetectedRunner, specs: readonly StarterSpec[]): string[] {
  const notes = [...(detected.notes ?? [])];
  const timed = detected.timingSensitive ?? [];
  if (timed.length > 0) {
    const own = specs.some((s) => s.kind === 'performance');
    notes.push(
      `Timing-sensitive: ${timed.join(', ')} ${timed.length === 1 ? 'measures' : 'measure'} wall-clock time and can ` +
        `fail on a loaded machine; ${own ? 'its spec is kind "performance"' : 'give it a spec of its own with "kind": "performance"'} ` +
        '(run it alone: weave check --only ID --concurrency 1).',
    );
  }
  return notes;
}

/** The lockfiles at the root, and which commands this machine has (for the package manager the project names). */
async function nodeFacts(workspaceDir: string): Promise<NodeProjectFacts> {
  const lockfiles: string[] = [];
  for (const name of [
    'pnpm-lock.yaml',
    'yarn.lock',
    'bun.lock',
    'bun.lockb',
    'package-lock.json',
    'npm-shrinkwrap.json',
  ])
    if ((await readText(path.join(workspaceDir, name))) !== undefined) lockfiles.push(name);
  return { lockfiles, hasCommand: onPath };
}

/** Whether an executable `name` is on PATH. */
export function onPath(name: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

// A test that reads a clock and compares a duration: `performance.now()` / `Date.now()` / `process.hrtime` /
// `time.perf_counter()` together with an upper bound (`toBeLessThan`, `assert elapsed < 0.5`, `< 200`).
const CLOCK =
  /\b(performance\.now|Date\.now|process\.hrtime|time\.perf_counter|time\.monotonic|time\.time)\s*\(/;
const BOUND =
  /toBeLessThan|toBeLessThanOrEqual|assertLess|\b(elapsed|duration|took|ms|seconds|time)\w*\s*<=?\s*[\d.]/i;

/** The test files that measure wall-clock time (flagged as timing-sensitive). */
async function timingSensitiveFiles(workspaceDir: string, files: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const file of files) {
    const text = await readText(path.join(workspaceDir, file));
    if (text !== undefined && CLOCK.test(text) && BOUND.test(text)) found.push(file);
  }
  return found;
}
