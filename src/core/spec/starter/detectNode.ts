// The test command of a JavaScript / TypeScript project, from package.json. A real `scripts.test` wins and runs
// as `npm test`: it is how the project runs its tests (flags, pre-test steps), and it works without a lockfile
// or a global install. Without one, a test runner among the dependencies is run through npx.
import type { DetectedRunner } from './types';

const NPM_PLACEHOLDER_SCRIPT = /no test specified/;
const JS_TEST_FILE = /(^|\/)(test|tests|__tests__)\/.*\.[cm]?[jt]sx?$|\.(test|spec)\.[cm]?[jt]sx?$/;

export function isJsTestFile(relativePath: string): boolean {
  return JS_TEST_FILE.test(relativePath) && !/(^|\/)(fixtures?|helpers?|support)\//.test(relativePath);
}

interface Manifest {
  scripts?: Record<string, unknown>;
  dependencies?: object;
  devDependencies?: object;
}

const RUNNERS: Array<{ name: string; command: string; forFile: (file: string) => string }> = [
  { name: 'vitest', command: 'npx vitest run', forFile: (f) => `npx vitest run ${f}` },
  { name: 'jest', command: 'npx jest', forFile: (f) => `npx jest ${f}` },
  { name: 'mocha', command: 'npx mocha', forFile: (f) => `npx mocha ${f}` },
];

export function nodeRunner(packageJsonText: string): DetectedRunner | undefined {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(packageJsonText) as Manifest;
  } catch {
    return undefined;
  }
  const testScript = typeof manifest.scripts?.test === 'string' ? manifest.scripts.test.trim() : '';
  const realScript = testScript !== '' && !NPM_PLACEHOLDER_SCRIPT.test(testScript);
  const inScript = RUNNERS.find((r) => new RegExp(`\\b${r.name}\\b`).test(testScript));
  const nodeTest = /\bnode\s+(?:--[\w-]+(?:=\S+)?\s+)*--test\b/.test(testScript);
  if (realScript) {
    const what = inScript ? inScript.name : nodeTest ? 'node:test' : 'npm test';
    const forFile = inScript?.forFile ?? (nodeTest ? (f: string) => `node --test ${f}` : undefined);
    return {
      runner: what,
      command: 'npm test',
      reason: `the package.json test script (${testScript.length > 60 ? `${testScript.slice(0, 57)}…` : testScript})`,
      ...(forFile ? { commandForFile: forFile } : {}),
    };
  }
  const deps = new Set([
    ...Object.keys(manifest.devDependencies ?? {}),
    ...Object.keys(manifest.dependencies ?? {}),
  ]);
  const dependency = RUNNERS.find((r) => deps.has(r.name));
  if (dependency) {
    return {
      runner: dependency.name,
      command: dependency.command,
      reason: `${dependency.name} in package.json dependencies`,
      commandForFile: dependency.forFile,
    };
  }
  return {
    runner: 'node:test',
    command: 'node --test',
    reason: 'a package.json without a test runner',
    commandForFile: (f) => `node --test ${f}`,
  };
}
