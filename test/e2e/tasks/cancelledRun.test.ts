// A task run stopped before eval.sh could start (a signal between cloning the base and running the script) is a
// cancelled run, not an error: export and eval then stop cleanly (exit 130 / 143), not with "internal error".
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { renderEvalScript } from '../../../src/core/tasks/evalScript';
import { TASK_FILES, type TaskSpec } from '../../../src/core/tasks/taskFormat';
import { runTaskPatch } from '../../../src/core/tasks/taskRunner';
import { gitIn, makeRepo } from '../../support/gitRepo';

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
  const baseCommit = gitIn(repo, 'rev-parse', 'HEAD').trim();
  const taskDir = path.join(repo, '.task');
  await fs.mkdir(taskDir);
  gitIn(repo, 'bundle', 'create', '-q', path.join(taskDir, TASK_FILES.baseBundle), 'HEAD', 'main');
  const specs: TaskSpec[] = [
    {
      id: 'one',
      title: 'one',
      kind: 'functional',
      statement: 'one is 1',
      test: {
        command: 'node test/lib.test.js',
        files: ['test/lib.test.js'],
        cwd: '.',
        env: {},
        timeoutSeconds: 30,
      },
      anchors: [],
      dependsOn: [],
      interactsWith: [],
    },
  ];
  await fs.writeFile(
    path.join(taskDir, TASK_FILES.evalScript),
    renderEvalScript({
      instanceId: 'cancelled',
      baseCommit,
      testPatch: '',
      protectedInBase: ['test/lib.test.js'],
      protectedNotInBase: [],
      setupCommands: [],
      specs,
    }),
  );
  const stop = new AbortController();
  stop.abort();
  const run = await runTaskPatch({
    taskDir,
    baseCommit,
    specs,
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
