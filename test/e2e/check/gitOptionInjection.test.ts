// Revisions a user types reach git: a value that starts with '-' must never be read as a git option. The
// reproduction: `weave export --from-history=--output=FILE` made `git rev-list --output=FILE` truncate FILE.
// Every flag that takes a revision, through the built CLI: a clear error (exit 2) and FILE untouched.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CLI } from '../../support/paths';
import { makeMathWorkspace } from '../../support/mathWorkspace';

test('a revision flag given "--output=FILE" is refused and FILE keeps its content', async () => {
  const workspace = await makeMathWorkspace();
  const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-injection-'));
  try {
    const victim = path.join(outside, 'precious.txt');
    const cases: Array<{ args: string[]; flag: string }> = [
      {
        args: ['export', `--from-history=--output=${victim}`, '--out', path.join(outside, 'a')],
        flag: '--from-history',
      },
      { args: ['export', `--base=--output=${victim}`, '--out', path.join(outside, 'b')], flag: '--base' },
      { args: ['affected', `--since=--output=${victim}`], flag: '--since' },
      { args: ['check', '--affected', `--since=--output=${victim}`], flag: '--since' },
      { args: ['check', `--baseline-ref=--output=${victim}`], flag: 'git ref' },
    ];
    for (const { args, flag } of cases) {
      await fs.writeFile(victim, 'keep me\n');
      const run = spawnSync(process.execPath, [CLI, ...args, '--workspace', workspace], { encoding: 'utf8' });
      const what = args.slice(0, 2).join(' ');
      assert.equal(await fs.readFile(victim, 'utf8'), 'keep me\n', `${what}: the file is untouched`);
      assert.equal(run.status, 2, `${what}: ${run.stderr}`);
      assert.ok(
        run.stderr.includes(
          `${flag} '--output=${victim}' is not a git revision: a revision never starts with '-'`,
        ),
        `${what}: ${run.stderr}`,
      );
    }
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
    await fs.rm(outside, { recursive: true, force: true });
  }
});
