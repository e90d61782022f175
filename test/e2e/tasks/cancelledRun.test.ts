// A task run stopped before eval.sh could start (a signal between cloning the base and running the script) is a
// cancelled run, not an error: export and eval then stop cleanly (exit 130 / 143), not with "internal error".
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { after, test } from 'node:test';
import { runTaskPatch } from '../../../src/core/tasks/run/taskRunner';
import { makeRepo } from '../../support/gitRepo';
import { nodeTaskSpec, taskFolderOf } from '../../support/taskFolder';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

test('a task run whose signal is already aborted comes back cancelled: no spec ran, each says why', async () => {
  const repo = await makeRepo({
    'lib.js': 'exports.one = () => 1;\n',
    'test/lib.test.js': "require('../lib');\n",
  });
  dirs.push(repo);
  const specs = [nodeTaskSpec('one', 'functional', 'one is 1', 'node test/lib.test.js', 'test/lib.test.js')];
  const { taskDir, baseCommit } = await taskFolderOf(repo, 'cancelled', specs);
  const stop = new AbortController();
  stop.abort();
  const run = await runTaskPatch({
    taskDir,
    baseCommit,
    specs,
    protectedFiles: [],
    patch: '',
    timeoutMs: 60_000,
    runSetup: false,
    signal: stop.signal,
  });
  assert.equal(run.cancelled, true);
  assert.equal(run.timedOut, false);
  assert.equal(run.parsed.finished, false);
  assert.deepEqual(run.parsed.specs.one, {
    verdict: 'error',
    exitCode: null,
    reason: 'cancelled',
    outputTail: '',
  });
});
