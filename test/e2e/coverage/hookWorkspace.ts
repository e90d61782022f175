// The workspace the Node coverage hook tests run in: a small library whose functions each spec calls a different
// way, committed to a fresh git repository (removed after each test).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import path from 'node:path';
import { afterEach } from 'node:test';
import {
  instrumentSpec,
  writeCoverageHooks,
  type SpecCoverageDirs,
} from '../../../src/core/coverage/instrument';
import { initRepo, removeDir, tempDir, writeFiles } from '../../support/repos';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

export const spec = (id: string, command: string, env?: Record<string, string>) => ({
  id,
  title: id,
  kind: 'functional',
  statement: id,
  test: { command, files: [], ...(env ? { env } : {}) },
});

const LIB = [
  'function inWorker(n) {',
  '  return n + 1;',
  '}',
  'function beforeExit() {',
  '  return 2;',
  '}',
  'function withOptions() {',
  '  return 3;',
  '}',
  'function looped(n) {',
  '  let s = 0;',
  '  for (let i = 0; i < n; i++) s += i;',
  '  return s;',
  '}',
  'function neverCalled() {',
  '  return 4;',
  '}',
  'module.exports = { inWorker, beforeExit, withOptions, looped, neverCalled };',
  '',
].join('\n');

/** A temporary folder removed after the test. */
export function scratchDir(prefix: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
}

export function workspace(specs: unknown[], files: Record<string, string>): string {
  const dir = scratchDir('weave-coverage-processes-');
  writeFiles(dir, {
    'package.json': '{ "name": "lib", "version": "1.0.0", "main": "lib.js" }\n',
    'lib.js': LIB,
    ...files,
    '.weave/specs.json': JSON.stringify({ version: 1, specs }, null, 2),
  });
  initRepo(dir);
  return dir;
}

/** A vitest test file whose test `name` expects `call` (on lib.js, required: as written, not through vite). */
export function vitestFile(name: string, call: string, expected: number): string {
  return [
    "import { test, expect } from 'vitest';",
    "import { createRequire } from 'node:module';",
    "const lib = createRequire(import.meta.url)('../lib.js');",
    `test('${name}', () => expect(lib.${call}).toBe(${expected}));`,
    '',
  ].join('\n');
}

/**
 * Runs `command` in `dir` as a spec's command runs with coverage on (the hooks in its environment, raw data in a
 * directory of its own, `name`), outside the sandbox, so a test can see how the process ended.
 */
export async function runInstrumented(
  dir: string,
  name: string,
  command: string,
  args: string[],
  specEnv: Record<string, string> = {},
): Promise<{ result: SpawnSyncReturns<string>; dirs: SpecCoverageDirs }> {
  const raw = path.join(dir, '.weave/cache/coverage/raw/probe');
  const hooks = await writeCoverageHooks(raw);
  const dirs = { v8: path.join(raw, name, 'v8'), python: path.join(raw, name, 'python') };
  const { env } = await instrumentSpec(dir, hooks, dirs, specEnv, process.env);
  const result = spawnSync(command, args, { cwd: dir, env: { ...process.env, ...env }, encoding: 'utf8' });
  return { result, dirs };
}
