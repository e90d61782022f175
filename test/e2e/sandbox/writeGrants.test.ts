// As root, the sandbox's uid is handed the checkout before each run, and later runs re-read only folders that
// changed. What Weave writes into the checkout between two runs (an agent's edit, a new folder, a file in a folder
// untouched for an hour) must be writable by the next run all the same. Real bubblewrap as root, as CI runs.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { runCommand } from '../../../src/core/process/runCommand';
import { containedEnvironment } from '../../../src/core/sandbox/environment';
import { sandboxLauncher } from '../../../src/core/sandbox/launchers';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function sandboxed(
  checkout: string,
  command: string,
): Promise<{ exitCode: number | null; output: string }> {
  const launcher = sandboxLauncher({ checkout, network: 'none' });
  return runCommand({ command, cwd: checkout, timeoutMs: 30_000, baseEnv: containedEnvironment(), launcher });
}

describe('the checkout handed to the sandbox’s uid, run after run', () => {
  test('files and folders Weave adds between runs are writable by the next run, in old folders too', async () => {
    assert.equal(process.getuid?.(), 0, 'this test needs root: the hand-over happens only as root');
    const checkout = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'weave-grants-')));
    cleanups.push(() => fs.rm(checkout, { recursive: true, force: true }));
    await fs.mkdir(path.join(checkout, 'src/deep/er'), { recursive: true });
    await fs.writeFile(path.join(checkout, 'src/deep/er/a.txt'), 'a\n');
    // Folders untouched for an hour: the second grant takes them from what the first remembered.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const dir of ['src/deep/er', 'src/deep', 'src'])
      await fs.utimes(path.join(checkout, dir), hourAgo, hourAgo);

    const first = await sandboxed(checkout, 'echo 1 >> src/deep/er/a.txt');
    assert.equal(first.exitCode, 0, first.output);

    // Between runs, as root: a new file in the old folder, a new folder with a file, a rewrite in place.
    await fs.writeFile(path.join(checkout, 'src/deep/er/b.txt'), 'b\n');
    await fs.mkdir(path.join(checkout, 'src/deep/new'));
    await fs.writeFile(path.join(checkout, 'src/deep/new/c.txt'), 'c\n');
    await fs.writeFile(path.join(checkout, 'src/deep/er/a.txt'), 'rewritten\n');
    const second = await sandboxed(
      checkout,
      'echo 2 >> src/deep/er/b.txt && echo 2 >> src/deep/new/c.txt && touch src/deep/new/d && echo 2 >> src/deep/er/a.txt',
    );
    assert.equal(second.exitCode, 0, second.output);
    assert.equal(await fs.readFile(path.join(checkout, 'src/deep/new/c.txt'), 'utf8'), 'c\n2\n');
    assert.equal(await fs.readFile(path.join(checkout, 'src/deep/er/a.txt'), 'utf8'), 'rewritten\n2\n');
  });
});
