// What `weave eval` / `weave bench` make of a Harbor task folder given where a Weave task folder is expected: a
// problem that says what the folder is and how to score it, pointing at the Weave task exported beside it.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTasks } from '../../../src/core/tasks/eval/taskFolders';

async function harborTaskIn(dir: string): Promise<void> {
  await fs.mkdir(path.join(dir, 'tests'), { recursive: true });
  await fs.writeFile(path.join(dir, 'task.toml'), 'version = "1.0"\n');
  await fs.writeFile(path.join(dir, 'tests', 'test.sh'), '#!/bin/sh\n');
}

describe('task folders', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });
  const scratch = async (): Promise<string> => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-task-folders-'));
    dirs.push(dir);
    return dir;
  };

  it('says a Harbor-only folder is a Harbor task and how to score it', async () => {
    const dir = path.join(await scratch(), 'harbor-task');
    await harborTaskIn(dir);
    const { tasks, problems } = await loadTasks([dir]);
    assert.deepEqual(tasks, []);
    assert.equal(problems.length, 1);
    const message = problems[0]?.message ?? '';
    assert.match(
      message,
      /a Harbor task \(task\.toml, tests\/test\.sh\), not a Weave task folder \(no task\.json\)/,
    );
    assert.match(
      message,
      new RegExp(`harbor run -p ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} -a <agent> -m <model>`),
    );
    assert.match(message, /export the workspace again with --format both/);
  });

  it('points at the Weave task exported beside a Harbor folder (--format both)', async () => {
    const out = await scratch();
    await fs.writeFile(path.join(out, 'task.json'), '{}');
    await harborTaskIn(path.join(out, 'harbor'));
    const { problems } = await loadTasks([path.join(out, 'harbor')]);
    assert.match(
      problems[0]?.message ?? '',
      /or score the Weave task exported beside it: weave eval --tasks \S+ --predictions FILE/,
    );
  });
});
