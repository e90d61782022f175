// Which set-ups `weave mine` shares between candidates and what their key is made of (sharedEnvironment.ts): only
// a set-up whose result is the key files' alone, and a key that changes with any of them and not with the source.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { environmentKey, sharedFolders } from '../../../src/core/tasks/run/sharedEnvironment';
import { environmentSetupCommands } from '../../../src/core/tasks/environmentSetup';

function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-env-key-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const setup = (dir: string) =>
  environmentSetupCommands(dir, { specCommands: [], allowInstallScripts: false });

describe('shared environments: what is shared', () => {
  it('shares lockfile installs and the venv with requirements.txt, nothing that reads the source', async () => {
    const npm = tree({ 'package.json': '{"dependencies":{"a":"1"}}', 'package-lock.json': '{}' });
    assert.deepEqual(sharedFolders(await setup(npm)), { folders: ['node_modules'] });
    const py = tree({ 'requirements.txt': 'pytest\n' });
    assert.deepEqual(sharedFolders(await setup(py)), { folders: ['.weave-venv'] });
    // No lockfile: npm install resolves anew; an editable install and the project's own scripts read the source.
    for (const files of [
      { 'package.json': '{"dependencies":{"a":"1"}}' },
      { 'setup.py': 'from setuptools import setup\nsetup()\n' },
      { 'package.json': '{"scripts":{"prepare":"tsc"},"dependencies":{"a":"1"}}', 'package-lock.json': '{}' },
    ]) {
      const result = sharedFolders(await setup(tree(files)));
      assert.ok('reason' in result, JSON.stringify(files));
    }
    assert.deepEqual(sharedFolders([]), { reason: 'no set-up' });
  });

  it('keys by the key files and commands, not the source; refuses requirements naming a path or another file', async () => {
    const files = { 'package.json': '{"dependencies":{"a":"1"}}', 'package-lock.json': '{"v":1}' };
    const a = tree({ ...files, 'src/x.js': 'one' });
    const b = tree({ ...files, 'src/x.js': 'two' });
    const c = tree({ ...files, 'package-lock.json': '{"v":2}' });
    const d = tree({ ...files, '.npmrc': 'registry=http://127.0.0.1:9/\n' });
    const commands = await setup(a);
    const key = async (dir: string, cmds = commands) => {
      const k = await environmentKey(dir, cmds);
      assert.ok('key' in k, JSON.stringify(k));
      return k.key;
    };
    assert.equal(await key(a), await key(b));
    assert.notEqual(await key(a), await key(c));
    assert.notEqual(await key(a), await key(d));
    assert.notEqual(await key(a), await key(a, ['npm ci']));
    // A tree that tracks node_modules would start the set-up from it: not shared.
    const tracked = tree({ ...files, 'node_modules/a/index.js': '' });
    assert.ok('reason' in (await environmentKey(tracked, commands)));
    for (const line of ['-r other.txt', '-e .', './wheels/a.whl', 'a @ file:///x', '--find-links wheels']) {
      const dir = tree({ 'requirements.txt': `pytest\n${line}\n` });
      const result = await environmentKey(dir, await setup(dir));
      assert.match('reason' in result ? result.reason : '', /^requirements\.txt:2 names a path/, line);
    }
    const req = tree({ 'requirements.txt': '--no-index\npytest  # the runner\n' });
    const reqResult = await environmentKey(req, await setup(req));
    assert.ok('key' in reqResult, JSON.stringify(reqResult));
  });
});
