// The memory cgroups of sandboxed runs do not pile up: each run's group is removed after it (also when the kernel
// still holds the run's exiting processes for a while and refuses the first rmdir), and the groups a killed Weave
// process left behind are removed by the next one. Root only, as CI runs: only root may make these groups.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { runCommand } from '../../../src/core/process/runCommand';
import { containedEnvironment } from '../../../src/core/sandbox/environment';
import { sandboxLauncher } from '../../../src/core/sandbox/launchers';
import {
  createMemoryCgroup,
  memoryCgroupsOf,
  memoryCgroupsSettled,
} from '../../../src/core/sandbox/memoryCgroup';

const MODULE = path.resolve(__dirname, '../../../src/core/sandbox/memoryCgroup.js');
const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('memory cgroups of sandboxed runs', () => {
  test('every finished run’s group is removed, the ones whose processes were still exiting too', async () => {
    const probe = await createMemoryCgroup(64 * 1024 * 1024);
    assert.ok(
      probe,
      `no memory cgroup could be made (uid ${process.getuid?.() ?? '?'}): this test needs root`,
    );
    await probe.finish();
    const checkout = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'weave-cgroups-')));
    cleanups.push(() => fs.rm(checkout, { recursive: true, force: true }));
    const launcher = sandboxLauncher({ checkout, network: 'none' });
    // Background children the PID namespace kills when the run ends: their teardown is what keeps a group busy.
    const command = 'sleep 30 & node -e 0';
    for (let i = 0; i < 12; i++) {
      const outcome = await runCommand({
        command,
        cwd: checkout,
        timeoutMs: 30_000,
        baseEnv: containedEnvironment(),
        launcher,
      });
      assert.equal(outcome.exitCode, 0, outcome.output);
    }
    await memoryCgroupsSettled();
    // What may remain is the group of the process prepared for a next run, never a finished run's group.
    assert.ok(memoryCgroupsOf().length <= 1, `left behind: ${memoryCgroupsOf().join(', ')}`);
  });

  test('a group still busy when its run is finished is removed once its last process has gone', async () => {
    const group = await createMemoryCgroup(64 * 1024 * 1024);
    assert.ok(group, 'no memory cgroup could be made: this test needs root');
    const dir = path.dirname(group.procsFile);
    // A process of the group that outlives the run's end, as an exiting one the kernel still holds does.
    const lingering = spawn('/bin/sh', [
      '-c',
      'echo $$ > "$0" && echo joined && exec sleep 60',
      group.procsFile,
    ]);
    const exited = once(lingering, 'exit');
    await once(lingering.stdout, 'data');
    assert.deepEqual(await group.finish(), { outOfMemory: false });
    assert.ok(existsSync(dir), 'a busy group cannot have been removed yet');
    lingering.kill('SIGKILL');
    await exited;
    await memoryCgroupsSettled();
    assert.equal(existsSync(dir), false, `${dir} was left behind`);
  });

  test('the groups of a Weave process that was killed are removed by the next one', () => {
    const killed = spawnSync(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(MODULE)}).createMemoryCgroup(64 << 20).then(() => {` +
          ` console.log(process.pid); process.kill(process.pid, 'SIGKILL'); })`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    const pid = Number(killed.stdout.trim());
    // Its run's group and the one it prepared for a next run are left over.
    assert.ok(memoryCgroupsOf(pid).length >= 1, 'the killed process left no group to sweep');
    execFileSync(process.execPath, ['-e', `require(${JSON.stringify(MODULE)}).createMemoryCgroup(64 << 20)`]);
    assert.deepEqual(memoryCgroupsOf(pid), []);
  });
});
