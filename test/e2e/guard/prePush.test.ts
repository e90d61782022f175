// The git pre-push hook `weave guard --install git` writes, with real git and a bare remote in a temporary folder:
// during an agent session (a SessionStart event recorded the protected set), a push whose commit changes a spec
// test is refused — even when the commit skipped pre-commit with --no-verify — and the remote gets nothing; after
// `weave guard --accept-tests` (in a terminal, script(1)) the same push goes through. A commit that leaves the
// protected files as recorded is pushed, and so is a test change with no session recorded (the control: the
// refusal is the session's, not a rule against tests). An existing pre-push hook is kept and runs first with git's
// ref lines; --install twice is once; --status reports both git hooks.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { tempFolder } from '../../support/agentClients';
import { gitIn } from '../../support/gitRepo';
import { makeMathWorkspace } from '../../support/mathWorkspace';
import { CLI } from '../../support/paths';
import { type WeaveCopy, weaveOutsideTemp } from '../../support/weaveOutsideTemp';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

let ws: string;
let remote: string;
let state: string;
let copy: WeaveCopy;
const cleanup: string[] = [];
const ADD_TEST = 'test/add.test.js';
const EMPTY_TEST = "require('node:test')('add', () => {});\n";

function run(file: string, args: string[], stdin = ''): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: ws,
      env: {
        ...process.env,
        WEAVE_STATE_DIR: state,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

const weave = (...args: string[]): Promise<Ran> => run(process.execPath, [CLI, ...args]);
const git = (...args: string[]): Promise<Ran> =>
  run('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args]);
const sessionStart = (): Promise<Ran> =>
  run(
    process.execPath,
    [CLI, 'guard', '--agent', 'claude-code'],
    JSON.stringify({ session_id: 's1', cwd: ws, hook_event_name: 'SessionStart', source: 'startup' }),
  );
const remoteHead = (): string => gitIn(remote, 'rev-parse', 'refs/heads/main').trim();

async function install(): Promise<Ran> {
  return run(process.execPath, [
    path.join(copy.dist, 'cli.js'),
    'guard',
    '--install',
    'git',
    '--workspace',
    ws,
  ]);
}

before(async () => {
  state = await tempFolder('weave-state-');
  copy = await weaveOutsideTemp();
  cleanup.push(state);
});
beforeEach(async () => {
  ws = await makeMathWorkspace();
  remote = await tempFolder('weave-remote-');
  cleanup.push(ws, remote);
  gitIn(remote, 'init', '-q', '--bare');
  gitIn(ws, 'branch', '-M', 'main');
  gitIn(ws, 'remote', 'add', 'origin', remote);
  gitIn(ws, 'push', '-q', 'origin', 'main');
});
after(async () => {
  await copy.dispose();
  for (const dir of cleanup) await fs.rm(dir, { recursive: true, force: true });
});

describe('the git pre-push hook (weave guard --install git)', () => {
  test('a commit that changed a test during the session is not pushed; after --accept-tests it is', async () => {
    assert.equal((await install()).code, 0);
    assert.equal((await sessionStart()).code, 0);
    const before = remoteHead();
    await fs.writeFile(path.join(ws, ADD_TEST), EMPTY_TEST);
    // --no-verify skips pre-commit, as an agent could: the push is the next gate.
    assert.equal((await git('commit', '-q', '--no-verify', '-am', 'empty the add test')).code, 0);
    const refused = await git('push', '-q', 'origin', 'main');
    assert.notEqual(refused.code, 0, 'the push went through');
    assert.match(refused.stderr, /the push carries protected files changed since the agent session started/);
    assert.match(
      refused.stderr,
      /refs\/heads\/main -> refs\/heads\/main .*\n\s+test\/add\.test\.js \(changed\)/,
    );
    assert.match(refused.stderr, /weave guard --accept-tests/);
    assert.equal(remoteHead(), before, 'the remote got the commit');

    // A person accepts the change in a terminal (script(1) gives the command a pty): the same push goes through.
    const command = [process.execPath, CLI, 'guard', '--accept-tests', '--workspace', ws]
      .map((w) => `'${w}'`)
      .join(' ');
    const accepted = await run('script', ['-qec', command, '/dev/null']);
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
    const pushed = await git('push', '-q', 'origin', 'main');
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.equal(remoteHead(), gitIn(ws, 'rev-parse', 'HEAD').trim());
  });

  test('the commit is what counts: a source commit is pushed while the work tree still holds a changed test', async () => {
    assert.equal((await install()).code, 0);
    await sessionStart();
    await fs.appendFile(path.join(ws, 'index.js'), '// a comment\n');
    await fs.writeFile(path.join(ws, ADD_TEST), EMPTY_TEST); // changed, not committed
    assert.equal((await git('commit', '-q', '--no-verify', '-m', 'comment', '--', 'index.js')).code, 0);
    const pushed = await git('push', '-q', 'origin', 'main');
    assert.equal(pushed.code, 0, pushed.stderr);
    // The restore puts the test back; a commit of a restored test is the recorded content: pushed.
    assert.equal((await weave('guard', '--restore', '--workspace', ws)).code, 0);
    assert.match(gitIn(ws, 'status', '--short'), /^$/);
  });

  test('control: with no session recorded, a commit that changes a test is pushed', async () => {
    assert.equal((await install()).code, 0);
    await fs.writeFile(path.join(ws, ADD_TEST), EMPTY_TEST);
    assert.equal((await git('commit', '-q', '--no-verify', '-am', 'a person changes the test')).code, 0);
    const pushed = await git('push', '-q', 'origin', 'main');
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.equal(remoteHead(), gitIn(ws, 'rev-parse', 'HEAD').trim());
  });

  test("an existing pre-push hook is kept, runs first with git's ref lines and can still refuse; twice is once", async () => {
    const hooks = path.join(ws, '.git/hooks');
    await fs.mkdir(hooks, { recursive: true });
    const theirs =
      '#!/bin/sh\ncat >> "$(git rev-parse --git-dir)/theirs.log"\n[ ! -e "$(git rev-parse --git-dir)/refuse" ]\n';
    await fs.writeFile(path.join(hooks, 'pre-push'), theirs, { mode: 0o755 });
    const first = await install();
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /pre-push now runs the existing hook \(moved to pre-push\.weave-chained\)/);
    const written = await fs.readFile(path.join(hooks, 'pre-push'), 'utf8');
    const second = await install();
    assert.match(second.stdout, /pre-push already runs Weave/);
    assert.equal(await fs.readFile(path.join(hooks, 'pre-push'), 'utf8'), written);
    assert.equal(await fs.readFile(path.join(hooks, 'pre-push.weave-chained'), 'utf8'), theirs);

    await sessionStart();
    await fs.writeFile(path.join(ws, ADD_TEST), EMPTY_TEST);
    await git('commit', '-q', '--no-verify', '-am', 'empty the add test');
    const refused = await git('push', '-q', 'origin', 'main');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /test\/add\.test\.js \(changed\)/, 'Weave ran after their hook');
    const head = gitIn(ws, 'rev-parse', 'HEAD').trim();
    assert.match(
      await fs.readFile(path.join(ws, '.git/theirs.log'), 'utf8'),
      new RegExp(`refs/heads/main ${head} `),
    );

    // Their hook refusing stops the push before Weave is asked (a clean session: Weave alone would allow it).
    gitIn(ws, 'reset', '-q', '--hard', 'HEAD~1');
    await fs.writeFile(path.join(ws, '.git/refuse'), '');
    await fs.appendFile(path.join(ws, 'index.js'), '// a comment\n');
    await git('commit', '-q', '--no-verify', '-am', 'comment');
    assert.notEqual((await git('push', '-q', 'origin', 'main')).code, 0, 'their refusal was ignored');
    await fs.rm(path.join(ws, '.git/refuse'));
    assert.equal((await git('push', '-q', 'origin', 'main')).code, 0);
  });

  test('--status reports both git hooks, and a missing pre-push (an older install) fails it', async () => {
    assert.equal((await install()).code, 0);
    const ok = await weave('guard', '--status', '--workspace', ws);
    assert.match(
      ok.stdout,
      /git: OK\n {2}pre-commit: installed.*\n {2}pre-push: installed, runs weave guard --pre-push/,
    );
    await fs.rm(path.join(ws, '.git/hooks/pre-push'));
    const missing = await weave('guard', '--status', '--workspace', ws);
    assert.equal(missing.code, 1);
    assert.match(
      missing.stdout,
      /git: NOT AS INSTALLED\n[\s\S]*pre-push: not installed \(weave guard --install git\)/,
    );
  });
});
