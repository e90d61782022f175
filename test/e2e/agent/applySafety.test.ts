// Apply never carries a link out of the workspace or Weave's state into the user's files: the patch comes from a
// real checkout (git's own diff of a symlink the code under test planted), and the user's tree stays byte-identical.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { applyAgentResult } from '../../../src/core/agent/applyPolicy';
import { diffWorkspace, PatchApplyError, snapshotWorkspace } from '../../../src/core/agent/workspacePatch';
import { makeRepo, snapshot } from '../../support/gitRepo';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

test('a planted link to /etc/passwd and a .weave/cache file are refused, and nothing is written', async () => {
  const files = { 'src/a.js': 'exports.a = 1;\n', '.weave/specs.json': '{}\n' };
  const user = await makeRepo(files);
  const checkout = await makeRepo(files);
  dirs.push(user, checkout);
  const base = await snapshotWorkspace(checkout);
  await fs.writeFile(path.join(checkout, 'src/a.js'), 'exports.a = 2;\n');
  await fs.symlink('/etc/passwd', path.join(checkout, 'cfg.js'));
  await fs.mkdir(path.join(checkout, '.weave/cache'), { recursive: true });
  await fs.writeFile(path.join(checkout, '.weave/cache/index.json'), '{"poisoned":true}\n');
  const { patch, files: changed } = await diffWorkspace(checkout, base);
  assert.ok(changed.includes('cfg.js'), 'git carries the link in the patch');

  const before = await snapshot(user);
  await assert.rejects(
    applyAgentResult(user, { patch, tamperedSpecs: [], testInfrastructure: [], after: [], findings: [] }),
    (e: unknown) =>
      e instanceof PatchApplyError && /cfg\.js is a symbolic link to \/etc\/passwd/.test(e.message),
  );
  assert.deepEqual([...(await snapshot(user))], [...before]);
});
