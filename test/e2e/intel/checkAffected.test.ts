// `weave check --affected`: runs only the specs a change can affect (and, as always, what they depend on).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { copyWorkspace, examplesDir, initRepo, removeDir, repoRoot } from '../../support/repos';

const cli = path.join(repoRoot, 'dist/cli.js');
let dir: string;
beforeEach(() => {
  dir = copyWorkspace(examplesDir);
  initRepo(dir);
});
afterEach(() => removeDir(dir));

function check(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'check', '--no-record', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

void test('only the affected specs (and their dependencies) run', () => {
  fs.appendFileSync(path.join(dir, 'test/clock.js'), '\n// touched\n');
  const r = check('--affected', '--json');
  assert.equal(r.code, 0, r.stderr);
  const { run } = JSON.parse(r.stdout) as { run: { specIds: string[] } };
  // clock.js is loaded by cache-hit, no-stale-read and hit-rate; they depend on cache-hit → response-shape.
  assert.deepEqual([...run.specIds].sort(), ['cache-hit', 'hit-rate', 'no-stale-read', 'response-shape']);
});

void test('nothing changed: nothing runs; --since with a bad ref and --only with --affected are bad input', () => {
  const r = check('--affected');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout + r.stderr, /no spec is affected/);
  const bad = check('--affected', '--since', 'nope-ref');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /nope-ref is not a commit/);
  assert.equal(check('--affected', '--only', 'cache-hit').code, 2);
  assert.equal(check('--since', 'HEAD').code, 2);
});
