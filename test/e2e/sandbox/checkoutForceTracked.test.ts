// A standalone checkout's base commit holds every file the project tracks, also one it tracks despite its own
// ignore rules (`git add -f build/config.js`, a common shape for a checked-in generated file): without it, the
// checkout's git called the file ignored, so an agent's change to it was missing from the diff Weave shows and
// applies. Real git; the ignored build output beside it stays out.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { WORKING_TREE, withCopiedWorkspace } from '../../../src/core/workspace';
import { makeRepo } from '../../support/gitRepo';

const repos: string[] = [];
after(() => {
  for (const r of repos) fs.rmSync(r, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

describe('standalone checkouts and files tracked despite .gitignore', () => {
  test('a force-added file is in the base commit, so a change to it is a change; ignored output is not copied', async () => {
    const repo = await makeRepo({ '.gitignore': 'build/\n', 'src/a.js': 'module.exports = 1;\n' });
    repos.push(repo);
    fs.mkdirSync(path.join(repo, 'build'));
    fs.writeFileSync(path.join(repo, 'build/config.js'), 'module.exports = { port: 1 };\n');
    git(repo, 'add', '-f', 'build/config.js');
    git(repo, 'commit', '-qm', 'check in the generated config');
    fs.writeFileSync(path.join(repo, 'build/output.js'), 'generated\n'); // ignored, untracked
    await withCopiedWorkspace(repo, { kind: 'standalone', ref: WORKING_TREE }, async (checkout) => {
      assert.equal(git(checkout.root, 'ls-files', 'build').trim(), 'build/config.js');
      assert.equal(fs.existsSync(path.join(checkout.root, 'build/output.js')), false);
      fs.writeFileSync(path.join(checkout.root, 'build/config.js'), 'module.exports = { port: 2 };\n');
      assert.equal(git(checkout.root, 'status', '--porcelain').trim(), 'M build/config.js');
    });
  });
});
