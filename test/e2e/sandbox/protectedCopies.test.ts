// The scratch copies protected files are bound as (attemptObservation.ts), over several runs of one checkout: a copy
// left untouched is bound again by the next run, so each run must still see the protected file's own content, and
// a write is an attempt however it is disguised. Real bubblewrap, real processes.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { runCommand, type CommandOutcome } from '../../../src/core/process/runCommand';
import { containedEnvironment } from '../../../src/core/sandbox/environment';
import { sandboxLauncher } from '../../../src/core/sandbox/launchers';
import { loadSpecFile } from '../../../src/core/spec/load';
import { WORKING_TREE, withCopiedWorkspace } from '../../../src/core/workspace';
import { makeRepo } from '../../support/gitRepo';

const HELPER = 'module.exports = 1;\n';
const specs = {
  version: 1,
  goal: 'copies',
  specs: [
    {
      id: 't',
      title: 't',
      kind: 'security',
      statement: 's',
      test: { command: 'node --test', files: ['test/t.test.js'], env: {} },
    },
  ],
};

const repos: string[] = [];
after(async () => {
  for (const r of repos) await fs.rm(r, { recursive: true, force: true });
});

/** Runs `commands` one after another, observed, in one sandboxed checkout of a fresh repo. */
async function observedRuns(commands: readonly string[]): Promise<CommandOutcome[]> {
  const repo = await makeRepo({
    '.weave/specs.json': JSON.stringify(specs),
    'test/t.test.js': "require('node:test')('ok', () => {});\n",
    'test/helper.js': HELPER,
  });
  repos.push(repo);
  const loaded = await loadSpecFile(repo);
  assert.ok(loaded.ok);
  return withCopiedWorkspace(
    repo,
    { kind: 'standalone', ref: WORKING_TREE, contain: { specFile: loaded.specFile, network: 'none' } },
    async (checkout) => {
      const sandbox = checkout.containment.sandbox;
      assert.ok(sandbox, 'a sandbox is required here');
      const launcher = sandboxLauncher({ ...sandbox, observeAttempts: true });
      const outcomes: CommandOutcome[] = [];
      for (const command of commands) {
        outcomes.push(
          await runCommand({
            command,
            cwd: checkout.dir,
            timeoutMs: 30_000,
            baseEnv: containedEnvironment(),
            launcher,
          }),
        );
      }
      // What the runs wrote stayed in their copies.
      assert.equal(await fs.readFile(path.join(checkout.dir, 'test/helper.js'), 'utf8'), HELPER);
      return outcomes;
    },
  );
}

const attempts = (o: CommandOutcome): string[] => (o.attempts ?? []).map((a) => `${a.kind} ${a.target}`);

describe('protected scratch copies over several runs', () => {
  test('a write after untouched runs is an attempt, and the run after it sees the original again', async () => {
    const [first, second, third, fourth] = await observedRuns([
      'cat test/helper.js',
      'echo "module.exports = 2;" > test/helper.js; cat test/helper.js',
      'cat test/helper.js',
      'cat test/helper.js',
    ]);
    assert.equal(first?.output, HELPER);
    assert.deepEqual(attempts(first!), []);
    assert.equal(second?.output, 'module.exports = 2;\n');
    assert.deepEqual(attempts(second!), ['protected-write test/helper.js']);
    assert.equal(third?.output, HELPER);
    assert.deepEqual(attempts(third!), []);
    assert.equal(fourth?.output, HELPER);
  });

  test('a rewrite that keeps the size and puts the modification time back is still an attempt', async () => {
    const [run] = await observedRuns([
      'touch -r test/helper.js /tmp/was && echo "module.exports = 2;" > test/helper.js && ' +
        'touch -r /tmp/was test/helper.js && cat test/helper.js',
    ]);
    assert.equal(run?.output, 'module.exports = 2;\n', 'the rewrite happened inside');
    assert.deepEqual(attempts(run!), ['protected-write test/helper.js']);
  });
});
