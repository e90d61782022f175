// `weave export` and `weave eval` stopped from outside while a spec test hangs (#9): the hanging test and every
// process under it die, no scratch checkout, worktree or temp folder is left, nothing half-written remains in
// --out, and the exit code says which signal stopped the verb.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { gitIn, makeRepo } from '../../support/gitRepo';
import { CLI } from '../../support/paths';
import * as stop from '../stopSignals';

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  cleanup.push(dir);
  return dir;
}

/**
 * A committed base where check.sh fails, and an uncommitted change that makes it pass. The spec runs check.sh,
 * so a patch that rewrites check.sh decides what the spec does.
 */
async function workspace(checkScript: string): Promise<string> {
  const specs = {
    version: 1,
    goal: 'Say yes.',
    specs: [
      {
        id: 'says-yes',
        title: 'Says yes',
        kind: 'functional',
        statement: 'flag.txt says yes.',
        test: { command: 'sh check.sh' },
      },
    ],
  };
  const repo = await makeRepo({
    '.weave/specs.json': JSON.stringify(specs, null, 2),
    'check.sh': checkScript,
    'flag.txt': 'no\n',
  });
  cleanup.push(repo);
  await fs.writeFile(path.join(repo, 'flag.txt'), 'yes\n');
  return repo;
}

describe('weave export / eval: stopped by a signal while a spec test hangs', () => {
  for (const signals of [['SIGINT'], ['SIGHUP']] as const) {
    it(`export, ${signals.join(' then ')}: nothing is written, nothing is left`, async () => {
      const sleep = stop.uniqueSleep();
      const repo = await workspace(`${sleep}\ngrep -q yes flag.txt\n`);
      const out = path.join(await tempDir('weave-stop-out-'), 'task');
      const tmp = stop.privateTempDir();
      cleanup.push(tmp.dir);
      const run = stop.startWeave(repo, ['export', '--out', out], { TMPDIR: tmp.dir });
      await stop.untilRunning(sleep, run);
      assert.notDeepEqual(tmp.leftovers(), [], 'mid-run, the export works in the run’s own temp folder');
      await stop.assertStopsCleanly(run, signals, { sleep, tmp, repo });
      assert.equal(existsSync(out), false, 'a stopped export writes no task');
    });
  }

  for (const signals of [['SIGTERM'], ['SIGINT', 'SIGINT']] as const) {
    it(`eval, ${signals.join(' then ')}: a prediction whose spec test hangs is stopped, nothing is left`, async () => {
      const repo = await workspace('grep -q yes flag.txt\n');
      const out = path.join(await tempDir('weave-stop-task-'), 'task');
      const exported = spawnSync(process.execPath, [CLI, 'export', '--out', out], {
        cwd: repo,
        encoding: 'utf8',
        env: { ...process.env, CI: 'true', NODE_TEST_CONTEXT: '' },
      });
      assert.equal(exported.status, 0, exported.stderr);
      const task = JSON.parse(await fs.readFile(path.join(out, 'task.json'), 'utf8')) as {
        instance_id: string;
      };
      // The model's patch makes the spec's check hang.
      const sleep = stop.uniqueSleep();
      await fs.writeFile(path.join(repo, 'check.sh'), `${sleep}\n`);
      const patch = gitIn(repo, 'diff', 'HEAD');
      const predictions = path.join(await tempDir('weave-stop-preds-'), 'preds.jsonl');
      await fs.writeFile(
        predictions,
        `${JSON.stringify({ instance_id: task.instance_id, model_name_or_path: 'm', model_patch: patch })}\n`,
      );
      const tmp = stop.privateTempDir();
      cleanup.push(tmp.dir);
      const run = stop.startWeave(repo, ['eval', '--tasks', out, '--predictions', predictions], {
        TMPDIR: tmp.dir,
      });
      await stop.untilRunning(sleep, run);
      assert.notDeepEqual(tmp.leftovers(), [], 'mid-run, the eval works in the run’s own temp folder');
      await stop.assertStopsCleanly(run, signals, { sleep, tmp, repo });
    });
  }
});
