// The session backstop through the built CLI as real processes: a SessionStart event records the protected set
// (in WEAVE_STATE_DIR, outside the work tree); a protected file then changed behind the guard's back (a plain
// write here, as any bypass would leave it) blocks Stop with the list and the restore command, makes `weave check`
// say `tampered` (exit 1), makes the git pre-commit hook refuse the commit; `weave guard --restore` puts it back;
// `--accept-tests` is refused without a terminal and, run in one (script(1) gives it a pty), makes the new test
// the reference. The controls show each assertion can fail: without a session record the same change passes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { gitIn } from '../../support/gitRepo';
import { makeMathWorkspace } from '../../support/mathWorkspace';
import { CLI } from '../../support/paths';
import { weaveOutsideTemp } from '../../support/weaveOutsideTemp';
import { tempFolder } from '../../support/agentClients';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

let ws: string;
let state: string;
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
const event = (name: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ session_id: 's1', cwd: ws, hook_event_name: name, ...extra });
function runHook(name: string, extra?: Record<string, unknown>): Promise<Ran> {
  return run(process.execPath, [CLI, 'guard', '--agent', 'claude-code'], event(name, extra));
}

function commit(message: string): Promise<Ran> {
  return run('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '-m', message]);
}

before(async () => {
  state = await tempFolder('weave-state-');
  cleanup.push(state);
});
beforeEach(async () => {
  ws = await makeMathWorkspace();
  cleanup.push(ws);
});
after(async () => {
  for (const dir of cleanup) await fs.rm(dir, { recursive: true, force: true });
});

describe('the session backstop (weave guard, weave check, the git hook)', () => {
  test('a test changed behind the guard: Stop blocks with the list, check says tampered, --restore', async () => {
    const start = await runHook('SessionStart', { source: 'startup' });
    assert.deepEqual([start.code, start.stderr], [0, '']);
    assert.ok(!existsSync(path.join(ws, '.weave/session')), 'nothing of the record is in the work tree');
    const original = await fs.readFile(path.join(ws, ADD_TEST), 'utf8');
    await fs.writeFile(path.join(ws, ADD_TEST), EMPTY_TEST);

    const stop = await runHook('Stop', { stop_hook_active: false });
    assert.equal(stop.code, 0, stop.stderr);
    const answer = JSON.parse(stop.stdout) as { decision: string; reason: string };
    assert.equal(answer.decision, 'block');
    assert.match(answer.reason, /test\/add\.test\.js \(changed\)/);
    assert.match(answer.reason, /`weave guard --restore`/);

    const check = await weave('check', '--json', '--no-record', '--workspace', ws);
    assert.equal(check.code, 1, check.stderr);
    const results = (JSON.parse(check.stdout) as { run: { results: Array<{ id: string; verdict: string }> } })
      .run.results;
    assert.equal(results.find((r) => r.id === 'add-works')?.verdict, 'tampered');
    // Only the spec the file belongs to: sub-works keeps its own (failing) verdict.
    assert.equal(results.find((r) => r.id === 'sub-works')?.verdict, 'fail');
    assert.match(check.stderr, /test\/add\.test\.js \(changed\)/);

    const restored = await weave('guard', '--restore', '--workspace', ws);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /test\/add\.test\.js \(was changed\)/);
    assert.equal(await fs.readFile(path.join(ws, ADD_TEST), 'utf8'), original);
    const again = await runHook('Stop', { stop_hook_active: false });
    assert.doesNotMatch(again.stdout, /protected files changed/);
  });

  test('a created runner configuration and a deleted test are caught too; --restore undoes both', async () => {
    await runHook('SessionStart');
    await fs.writeFile(path.join(ws, '.mocharc.json'), '{"spec": []}\n');
    await fs.rm(path.join(ws, 'test/sub.test.js'));
    const stop = await runHook('Stop');
    const reason = (JSON.parse(stop.stdout) as { reason: string }).reason;
    assert.match(reason, /\.mocharc\.json \(created\)/);
    assert.match(reason, /test\/sub\.test\.js \(deleted\)/);
    assert.equal((await weave('guard', '--restore', '--workspace', ws)).code, 0);
    assert.ok(!existsSync(path.join(ws, '.mocharc.json')));
    assert.ok(existsSync(path.join(ws, 'test/sub.test.js')));
  });

  test('the first event of a session records it when no start event came (agents without one)', async () => {
    const edit = await runHook('PreToolUse', { tool_name: 'Edit', tool_input: { file_path: 'index.js' } });
    assert.equal(edit.code, 0, edit.stderr);
    await fs.writeFile(path.join(ws, ADD_TEST), EMPTY_TEST);
    const stop = await runHook('Stop');
    assert.match(stop.stdout, /test\/add\.test\.js \(changed\)/);
  });

  test('the git pre-commit hook refuses a commit of a test changed during the session', async (t) => {
    // Installed from a copy outside every temporary folder: --install refuses a Weave that lives in one, as this
    // checkout may (a CI clone in /tmp).
    const copy = await weaveOutsideTemp();
    t.after(() => copy.dispose());
    const install = await run(process.execPath, [
      path.join(copy.dist, 'cli.js'),
      'guard',
      '--install',
      'git',
      '--workspace',
      ws,
    ]);
    assert.equal(install.code, 0, install.stderr);
    await runHook('SessionStart');
    await fs.writeFile(path.join(ws, ADD_TEST), EMPTY_TEST);
    gitIn(ws, 'add', ADD_TEST);
    const refused = await commit('empty the add test');
    assert.notEqual(refused.code, 0, 'the commit went through');
    assert.match(refused.stdout + refused.stderr, /tampered/);
    assert.equal(gitIn(ws, 'log', '--oneline').trim().split('\n').length, 1, 'nothing was committed');
  });

  test('--accept-tests: refused without a terminal; in one, the new test is the reference', async () => {
    await runHook('SessionStart');
    const changed = "require('node:test')('add', () => require('node:assert').ok(require('..').add));\n";
    await fs.writeFile(path.join(ws, ADD_TEST), changed);
    const piped = await weave('guard', '--accept-tests', '--workspace', ws);
    assert.equal(piped.code, 2);
    assert.match(piped.stderr, /only in a terminal/);
    // script(1) runs the command on a pseudo-terminal, as a person's shell would.
    const command = [process.execPath, CLI, 'guard', '--accept-tests', '--workspace', ws]
      .map((w) => `'${w}'`)
      .join(' ');
    const inTerminal = await run('script', ['-qec', command, '/dev/null']);
    assert.equal(inTerminal.code, 0, inTerminal.stdout + inTerminal.stderr);
    assert.match(inTerminal.stdout, /accepted 1 change/);
    const check = await weave('check', '--json', '--no-record', '--only', 'add-works', '--workspace', ws);
    const results = (JSON.parse(check.stdout) as { run: { results: Array<{ id: string; verdict: string }> } })
      .run.results;
    assert.equal(results.find((r) => r.id === 'add-works')?.verdict, 'pass', check.stderr);
    assert.equal(check.code, 0);
  });

  test('SessionEnd forgets a clean session and keeps one with changes', async () => {
    await runHook('SessionStart');
    await runHook('SessionEnd', { reason: 'exit' });
    await fs.writeFile(path.join(ws, ADD_TEST), EMPTY_TEST);
    const noRecord = await weave('guard', '--restore', '--workspace', ws);
    assert.equal(noRecord.code, 1, 'the clean session was forgotten');
    gitIn(ws, 'checkout', '--', ADD_TEST);
    await runHook('SessionStart');
    await fs.writeFile(path.join(ws, ADD_TEST), EMPTY_TEST);
    await runHook('SessionEnd', { reason: 'exit' });
    const check = await weave('check', '--no-record', '--only', 'add-works', '--workspace', ws);
    assert.equal(check.code, 1);
    assert.match(check.stdout, /tampered/);
  });

  test('a shell command that accepts tests is refused by the guard (a person takes that step)', async () => {
    const r = await runHook('PreToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'npx weave guard --accept-tests' },
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /accepting changed tests is a person's step/);
  });

  test('control: with no session recorded, the same change is not tampering (check passes it)', async () => {
    await fs.writeFile(path.join(ws, ADD_TEST), EMPTY_TEST);
    const check = await weave('check', '--json', '--no-record', '--only', 'add-works', '--workspace', ws);
    const results = (JSON.parse(check.stdout) as { run: { results: Array<{ id: string; verdict: string }> } })
      .run.results;
    assert.equal(results.find((r) => r.id === 'add-works')?.verdict, 'pass');
    const stop = await run(
      process.execPath,
      [CLI, 'guard', '--agent', 'claude-code'],
      event('Stop', { stop_hook_active: true }),
    );
    assert.doesNotMatch(stop.stdout, /protected files changed/);
  });
});
