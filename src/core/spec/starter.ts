// The starter .weave/specs.json `weave init` writes: one spec that runs the project's own test suite, with the
// test runner detected from the project's files.
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface DetectedRunner {
  /** e.g. 'node:test', 'vitest', 'pytest'; 'unknown' when nothing was recognised. */
  runner: string;
  command: string;
  /** Why this runner was chosen, for the user (e.g. "vitest in package.json devDependencies"). */
  reason: string;
}

const NPM_DEFAULT_TEST_SCRIPT = /no test specified/;

/** Looks at package.json, pyproject.toml/pytest.ini/setup.cfg, go.mod and Cargo.toml, in that order. */
export async function detectTestRunner(workspaceDir: string): Promise<DetectedRunner> {
  const packageJson = await readText(path.join(workspaceDir, 'package.json'));
  if (packageJson !== undefined) {
    const fromNode = nodeRunner(packageJson);
    if (fromNode !== undefined) return fromNode;
  }
  for (const name of ['pyproject.toml', 'pytest.ini', 'setup.cfg', 'tox.ini', 'requirements-dev.txt']) {
    const text = await readText(path.join(workspaceDir, name));
    if (text !== undefined && (name === 'pytest.ini' || /pytest/.test(text))) {
      return { runner: 'pytest', command: 'python3 -m pytest -q', reason: `pytest mentioned in ${name}` };
    }
  }
  if ((await readText(path.join(workspaceDir, 'go.mod'))) !== undefined) {
    return { runner: 'go test', command: 'go test ./...', reason: 'go.mod' };
  }
  if ((await readText(path.join(workspaceDir, 'Cargo.toml'))) !== undefined) {
    return { runner: 'cargo test', command: 'cargo test', reason: 'Cargo.toml' };
  }
  return {
    runner: 'unknown',
    command: 'echo "set this spec\'s test command in .weave/specs.json" && exit 1',
    reason: 'no package.json, pyproject.toml, go.mod or Cargo.toml with a known test runner',
  };
}

function nodeRunner(packageJsonText: string): DetectedRunner | undefined {
  let manifest: { scripts?: Record<string, unknown>; dependencies?: object; devDependencies?: object };
  try {
    manifest = JSON.parse(packageJsonText) as typeof manifest;
  } catch {
    return undefined;
  }
  const testScript = typeof manifest.scripts?.test === 'string' ? manifest.scripts.test : '';
  const deps = new Set([
    ...Object.keys(manifest.devDependencies ?? {}),
    ...Object.keys(manifest.dependencies ?? {}),
  ]);
  const candidates: Array<[string, string]> = [
    ['vitest', 'npx vitest run'],
    ['jest', 'npx jest'],
    ['mocha', 'npx mocha'],
  ];
  for (const [name, command] of candidates) {
    if (new RegExp(`\\b${name}\\b`).test(testScript)) {
      return { runner: name, command, reason: `the package.json test script runs ${name}` };
    }
  }
  if (/node\s+(--[\w-]+\s+)*--test\b/.test(testScript)) {
    return {
      runner: 'node:test',
      command: testScript,
      reason: 'the package.json test script runs node --test',
    };
  }
  for (const [name, command] of candidates) {
    if (deps.has(name)) return { runner: name, command, reason: `${name} in package.json dependencies` };
  }
  if (testScript !== '' && !NPM_DEFAULT_TEST_SCRIPT.test(testScript)) {
    return { runner: 'npm test', command: 'npm test', reason: 'the package.json test script' };
  }
  return { runner: 'node:test', command: 'node --test', reason: 'a package.json without a test runner' };
}

/** The starter file text: JSONC with comments that explain the format. */
export function starterSpecText(detected: DetectedRunner): string {
  const spec = {
    id: 'test-suite',
    title: 'The existing test suite passes',
    kind: 'reliability',
    statement: 'The project’s own tests shall keep passing.',
    test: { command: detected.command, files: [] as string[] },
    anchors: [] as string[],
    dependsOn: [] as string[],
    interactsWith: [] as string[],
  };
  const specJson = JSON.stringify(spec, null, 2).replace(/\n/g, '\n    ');
  return `// Weave specs: each spec is one requirement with an executable test. Add one per constraint you care about
// (functional, interface, security, performance, reliability, compatibility) and say how they relate:
// "dependsOn" (must hold for this one to mean anything) and "interactsWith" (may conflict with it).
// Test runner detected: ${detected.runner} (${detected.reason}).
{
  "version": 1,
  "goal": "",
  "defaults": { "cwd": ".", "timeoutSeconds": 120 },
  "specs": [
    ${specJson}
  ]
}
`;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
