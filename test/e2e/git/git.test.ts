// The one git module's policy, observed through git itself: what git reports as its pager, editor and
// identity is what every Weave git process runs with, whatever the caller's environment says.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { git, GitError, runGit } from '../../../src/core/git/git';
import { makeRepo } from '../../support/gitRepo';

const repos: string[] = [];
after(async () => {
  for (const r of repos) await fs.rm(r, { recursive: true, force: true });
});

test('git never pages, never opens an editor, never prompts: the policy wins over the caller’s env', async () => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  repos.push(repo);
  const env = { GIT_PAGER: 'less', GIT_EDITOR: 'vi', GIT_TERMINAL_PROMPT: '1' };
  assert.equal((await git(['var', 'GIT_PAGER'], repo, { env })).trim(), 'cat');
  assert.equal((await git(['var', 'GIT_EDITOR'], repo, { env })).trim(), 'true');
  // A shell alias runs as git's child: it sees the environment every git process gets.
  const seen = await git(
    ['-c', 'alias.show-env=!printenv GIT_TERMINAL_PROMPT GIT_OPTIONAL_LOCKS', 'show-env'],
    repo,
    {
      env,
    },
  );
  assert.deepEqual(seen.trim().split('\n'), ['0', '0']);
});

test('an isolated scratch repository commits as Weave, not as the user', async () => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  repos.push(repo);
  await fs.writeFile(path.join(repo, 'b.txt'), 'b\n');
  await git(['add', '-A'], repo, { isolated: true });
  await git(['commit', '-q', '--no-verify', '-m', 'scratch'], repo, { isolated: true });
  assert.equal(
    (await git(['log', '-1', '--format=%an <%ae>'], repo)).trim(),
    'Weave export <weave@localhost>',
  );
});

test('allowed exit codes are answers; any other failure is a GitError with git’s message and exit code', async () => {
  const repo = await makeRepo({ '.gitignore': 'ignored/\n', 'a.txt': 'a\n' });
  repos.push(repo);
  const notIgnored = await runGit(['check-ignore', '-q', 'a.txt'], repo, { allowExitCodes: [1] });
  assert.equal(notIgnored.exitCode, 1);
  const ignored = await runGit(['check-ignore', '-q', 'ignored/x'], repo, { allowExitCodes: [1] });
  assert.equal(ignored.exitCode, 0);
  await assert.rejects(
    git(['rev-parse', '--verify', 'no-such-ref'], repo),
    (error: unknown) =>
      error instanceof GitError &&
      error.exitCode === 128 &&
      /no-such-ref|Needed a single revision/.test(error.message),
  );
});
