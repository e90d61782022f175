// A refused Apply against a real git repository: the user edited the line the agent changed in one file, so the
// whole patch is refused with that file named in words, nothing changes, and the other file still applies alone.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import {
  applyPatchToWorkspace,
  checkPatchFiles,
  diffWorkspace,
  PatchApplyError,
  snapshotWorkspace,
} from '../../../src/core/agent/workspacePatch';
import { makeRepo, snapshot } from '../../support/gitRepo';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

const FILES = {
  'src/math.js':
    'function clamp(v, low, high) {\n  return Math.max(low, v);\n}\nmodule.exports = { clamp };\n',
  'src/counter.js': 'let n = 0;\nexports.next = () => ++n;\n',
};

test('a file the user edited on the same line is named; the other file applies on its own', async () => {
  const user = await makeRepo(FILES);
  const checkout = await makeRepo(FILES);
  dirs.push(user, checkout);
  const base = await snapshotWorkspace(checkout);
  await fs.writeFile(
    path.join(checkout, 'src/math.js'),
    FILES['src/math.js'].replace('Math.max(low, v)', 'Math.min(high, Math.max(low, v))'),
  );
  await fs.writeFile(path.join(checkout, 'src/counter.js'), 'let n = 0;\nexports.next = () => (n += 1);\n');
  const { patch } = await diffWorkspace(checkout, base);

  // The user's own edit of the very line the agent changed.
  await fs.writeFile(path.join(user, 'src/math.js'), FILES['src/math.js'].replace('Math.max(low, v)', 'v'));
  const before = await snapshot(user);
  const checked = await checkPatchFiles(user, patch);
  assert.deepEqual(checked.applicable, ['src/counter.js']);
  assert.deepEqual(
    checked.conflicts.map((c) => [c.path, c.kind]),
    [['src/math.js', 'edited']],
  );
  await assert.rejects(applyPatchToWorkspace(user, patch), (e: unknown) => {
    assert.ok(e instanceof PatchApplyError);
    assert.equal(
      e.message,
      "The agent's change was not applied: src/math.js conflicts with your edits; nothing was changed. src/counter.js still applies on its own.",
    );
    assert.deepEqual(e.applicable, ['src/counter.js']);
    return true;
  });
  assert.deepEqual([...(await snapshot(user))], [...before], 'a refused apply changed files');

  // Reverting the edit makes the whole patch apply again.
  await fs.writeFile(path.join(user, 'src/math.js'), FILES['src/math.js']);
  assert.deepEqual((await checkPatchFiles(user, patch)).conflicts, []);
  await applyPatchToWorkspace(user, patch);
  assert.match(await fs.readFile(path.join(user, 'src/math.js'), 'utf8'), /Math\.min\(high/);
});

test('a file the agent changed that the user deleted is "no longer exists"', async () => {
  const user = await makeRepo(FILES);
  const checkout = await makeRepo(FILES);
  dirs.push(user, checkout);
  const base = await snapshotWorkspace(checkout);
  await fs.writeFile(path.join(checkout, 'src/counter.js'), 'exports.next = () => 1;\n');
  const { patch } = await diffWorkspace(checkout, base);
  await fs.rm(path.join(user, 'src/counter.js'));
  const checked = await checkPatchFiles(user, patch);
  assert.deepEqual(
    checked.conflicts.map((c) => [c.path, c.kind, c.reason]),
    [['src/counter.js', 'missing', 'src/counter.js no longer exists (the agent changed it)']],
  );
});
