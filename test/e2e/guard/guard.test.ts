// `weave guard` against hook payloads in each agent's documented shape (Claude Code, Codex, Cursor), on a real
// git workspace: protected edits and shell writes are blocked with a reason, ordinary ones pass, Stop keeps the
// agent working while an affected spec is broken. The first cases go through the built CLI (real stdin, real
// exit codes); the tables call the same handler in-process.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { handleEvent } from '../../../src/cli/commands/guard';
import { CLI } from '../../support/paths';
import { INDEX_JS, makeMathWorkspace } from '../../support/mathWorkspace';
import { isolateWeaveState } from '../../support/weaveState';

isolateWeaveState();

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function guard(args: string[], stdin: string, cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'guard', ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

let ws: string;
before(async () => {
  ws = await makeMathWorkspace();
});
after(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

// Tables are built before the workspace exists: '/ABS' stands for it and is replaced when a case runs.
const claude = (tool: string, input: Record<string, unknown>, cwd = '/ABS'): string =>
  JSON.stringify({
    session_id: 's1',
    transcript_path: '/tmp/t.jsonl',
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: input,
  });

describe('weave guard as a process (Claude Code PreToolUse)', () => {
  test('an Edit of a spec test file exits 2 with the reason on stderr', async () => {
    const r = await guard(
      [],
      claude('Edit', { file_path: path.join(ws, 'test/add.test.js'), old_string: 'a', new_string: 'b' }, ws),
      ws,
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /test file test\/add\.test\.js of spec add-works/);
    assert.equal(r.stdout, '');
  });

  test('an ordinary edit exits 0 silently', async () => {
    const r = await guard([], claude('Edit', { file_path: path.join(ws, 'index.js') }, ws), ws);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
  });

  test('a Bash write to a protected file exits 2 and says what matched; a read exits 0', async () => {
    const write = await guard(
      [],
      claude('Bash', { command: 'echo "test(\'x\', () => {})" > test/sub.test.js' }, ws),
      ws,
    );
    assert.equal(write.code, 2);
    assert.match(write.stderr, /`>` redirection on test\/sub\.test\.js/);
    const read = await guard(
      [],
      claude('Bash', { command: 'cat test/sub.test.js | grep sub > /tmp/weave-guard-read.txt' }, ws),
      ws,
    );
    assert.equal(read.code, 0, read.stderr);
  });

  test('malformed stdin: a clear message and exit 1 (a non-blocking hook error)', async () => {
    for (const stdin of ['not json', '', '{"tool_name": "Edit"}', '[1, 2]']) {
      const r = await guard([], stdin, ws);
      assert.equal(r.code, 1, stdin);
      assert.match(r.stderr, /^weave guard: /, stdin);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    }
  });
});

describe('protected edits and shell writes, per agent', () => {
  const blocked: Array<[string, string]> = [
    ['Write .weave/specs.json', claude('Write', { file_path: '.weave/specs.json', content: '{}' })],
    ['MultiEdit, absolute', claude('MultiEdit', { file_path: '/ABS/test/add.test.js', edits: [] })],
    ['NotebookEdit', claude('NotebookEdit', { notebook_path: 'test/add.test.js', new_source: '' })],
    [
      'relative to a sub folder, through ..',
      claude('Edit', { file_path: '../test/add.test.js' }, '/ABS/test'),
    ],
    ['sed -i', claude('Bash', { command: "sed -i 's/5/6/' test/add.test.js" })],
    ['rm -rf of the folder', claude('Bash', { command: 'rm -rf test' })],
    ['git checkout --', claude('Bash', { command: 'git checkout HEAD -- test/sub.test.js' })],
    ['git restore', claude('Bash', { command: 'git restore test/sub.test.js' })],
    ['cd then tee', claude('Bash', { command: 'cd test && echo x | tee -a sub.test.js' })],
    ['mv away', claude('Bash', { command: 'mv test/sub.test.js /tmp/' })],
    ['cp over', claude('Bash', { command: 'cp /tmp/other.js test/sub.test.js' })],
    ['truncate', claude('Bash', { command: 'truncate -s 0 test/add.test.js' })],
    ['bash -c', claude('Bash', { command: `bash -c "cat x > test/add.test.js"` })],
    [
      'python inline write',
      claude('Bash', { command: `python3 -c "open('test/add.test.js','w').write('')"` }),
    ],
    ['glob', claude('Bash', { command: 'rm test/*.test.js' })],
    ['.weave runs', claude('Bash', { command: 'echo {} >> .weave/runs/x.json' })],
    [
      'Codex apply_patch',
      JSON.stringify({
        hook_event_name: 'PreToolUse',
        cwd: '/ABS',
        tool_name: 'apply_patch',
        tool_input: {
          command: '*** Begin Patch\n*** Update File: test/sub.test.js\n@@\n-a\n+b\n*** End Patch',
        },
      }),
    ],
  ];
  for (const [name, payload] of blocked) {
    test(`blocked: ${name}`, async () => {
      const answer = await handleEvent('claude-code', payload.replaceAll('/ABS', ws), undefined);
      assert.equal(answer.exitCode, 2, JSON.stringify(answer));
      assert.match(answer.stderr ?? '', /Weave guard blocked this/);
    });
  }

  const allowed: Array<[string, string]> = [
    ['Read of a test file', claude('Read', { file_path: 'test/add.test.js' })],
    ['Edit of the code', claude('Edit', { file_path: 'index.js' })],
    ['a new test file of your own', claude('Write', { file_path: 'test/extra.test.js' })],
    [
      'running the tests',
      claude('Bash', { command: 'node --test test/add.test.js 2>&1 | tee /tmp/weave-log.txt' }),
    ],
    ['grep into /tmp', claude('Bash', { command: 'grep -n add test/add.test.js > /tmp/weave-grep.txt' })],
    ['cp a test file elsewhere', claude('Bash', { command: 'cp test/add.test.js /tmp/copy.js' })],
    ['git diff', claude('Bash', { command: 'git diff -- test/add.test.js' })],
    ['stderr duplication', claude('Bash', { command: 'node -e "console.log(1)" 2>&1 >/dev/null' })],
    [
      'Codex apply_patch on code',
      JSON.stringify({
        hook_event_name: 'PreToolUse',
        cwd: '/ABS',
        tool_name: 'apply_patch',
        tool_input: { command: '*** Begin Patch\n*** Update File: index.js\n@@\n-a\n+b\n*** End Patch' },
      }),
    ],
  ];
  for (const [name, payload] of allowed) {
    test(`allowed: ${name}`, async () => {
      const answer = await handleEvent('claude-code', payload.replaceAll('/ABS', ws), undefined);
      assert.deepEqual(answer, { exitCode: 0 });
    });
  }

  test('a symlink to the test folder is seen through', async () => {
    await fs.symlink(path.join(ws, 'test'), path.join(ws, 'tests-link'));
    try {
      const answer = await handleEvent(
        'claude-code',
        claude('Write', { file_path: 'tests-link/add.test.js' }, ws),
        undefined,
      );
      assert.equal(answer.exitCode, 2);
    } finally {
      await fs.rm(path.join(ws, 'tests-link'));
    }
  });

  test('Cursor: beforeShellExecution and preToolUse answer with permission JSON', async () => {
    const base = { conversation_id: 'c', generation_id: 'g', workspace_roots: [ws] };
    const deny = await handleEvent(
      'cursor',
      JSON.stringify({
        ...base,
        hook_event_name: 'beforeShellExecution',
        command: 'rm test/add.test.js',
        cwd: ws,
      }),
      undefined,
    );
    assert.equal(deny.exitCode, 0);
    const denied = JSON.parse(deny.stdout ?? '{}') as { permission: string; agent_message: string };
    assert.equal(denied.permission, 'deny');
    assert.match(denied.agent_message, /add-works/);
    const allow = await handleEvent(
      'cursor',
      JSON.stringify({ ...base, hook_event_name: 'beforeShellExecution', command: 'ls test', cwd: ws }),
      undefined,
    );
    assert.deepEqual(JSON.parse(allow.stdout ?? '{}'), { permission: 'allow' });
    const write = await handleEvent(
      'cursor',
      JSON.stringify({
        ...base,
        hook_event_name: 'preToolUse',
        tool_name: 'Write',
        tool_input: { file_path: path.join(ws, 'test/sub.test.js') },
      }),
      undefined,
    );
    assert.equal((JSON.parse(write.stdout ?? '{}') as { permission: string }).permission, 'deny');
  });

  test('outside any Weave workspace everything is allowed', async () => {
    const answer = await handleEvent(
      'claude-code',
      claude('Write', { file_path: '/tmp/x.js' }, '/'),
      undefined,
    );
    assert.deepEqual(answer, { exitCode: 0 });
  });
});

// Codex 0.171's PreToolUse payloads as it sends them (captured from the real CLI): its exec_command tool arrives as
// tool_name "Bash" with the command line in tool_input.command; Codex runs `apply_patch <<'EOF'` itself and puts an
// `apply_patch` program on the shell's PATH. The array form is Codex's shell tool (["apply_patch", PATCH]).
const codexEvent = (toolInput: Record<string, unknown>, tool = 'Bash'): string =>
  JSON.stringify({
    session_id: '01a2519d-84ae-7d33-b962-9960470b0aac',
    turn_id: '01a2519d-84d3-79e0-955e-398b7dd98d81',
    transcript_path: '/tmp/rollout.jsonl',
    cwd: '/ABS',
    hook_event_name: 'PreToolUse',
    model: 'gpt-5.5',
    permission_mode: 'bypassPermissions',
    tool_name: tool,
    tool_input: toolInput,
  });
const envelope = (marker: string): string =>
  `*** Begin Patch\n${marker}\n@@\n-test('add', () => assert.strictEqual(add(2, 3), 5));\n+// x\n*** End Patch`;

describe('Codex apply_patch in every form', () => {
  const blocked: Array<[string, string]> = [
    [
      'a heredoc inside exec_command',
      codexEvent({ command: `apply_patch <<'EOF'\n${envelope('*** Update File: test/add.test.js')}\nEOF` }),
    ],
    [
      'a heredoc after cd',
      codexEvent({
        command: `cd test && apply_patch <<'EOF'\n${envelope('*** Update File: add.test.js')}\nEOF`,
      }),
    ],
    [
      'Delete File',
      codexEvent({ command: `apply_patch <<'EOF'\n${envelope('*** Delete File: test/sub.test.js')}\nEOF` }),
    ],
    [
      'Move to a spec test',
      codexEvent({
        command: `apply_patch <<'EOF'\n${envelope('*** Update File: index.js\n*** Move to: test/add.test.js')}\nEOF`,
      }),
    ],
    [
      'Add File of a runner configuration',
      codexEvent({ command: `apply_patch <<'EOF'\n${envelope('*** Add File: .mocharc.json')}\nEOF` }),
    ],
    [
      'a literal printf piped in',
      codexEvent({
        command: `printf '%s\\n' "${envelope('*** Update File: test/add.test.js')}" | apply_patch`,
      }),
    ],
    ['stdin from a program (unreadable)', codexEvent({ command: 'cat /tmp/evil.patch | apply_patch' })],
    ['stdin decoded (unreadable)', codexEvent({ command: 'base64 -d /tmp/p.b64 | apply_patch' })],
    ['a substituted argument (unreadable)', codexEvent({ command: 'apply_patch "$(cat /tmp/evil.patch)"' })],
    [
      'an array command',
      codexEvent({ command: ['apply_patch', envelope('*** Update File: test/add.test.js')] }),
    ],
    [
      'an array command through bash -lc',
      codexEvent({
        command: [
          'bash',
          '-lc',
          `apply_patch <<'EOF'\n${envelope('*** Update File: test/add.test.js')}\nEOF`,
        ],
      }),
    ],
    [
      'an array command with sed -i',
      codexEvent({ command: ['sed', '-i', 's/5/6/', 'test/add.test.js'] }, 'shell'),
    ],
    [
      'the apply_patch tool, indented markers',
      codexEvent({ command: `  ${envelope('  *** Update File: test/add.test.js')}` }, 'apply_patch'),
    ],
  ];
  for (const [name, payload] of blocked) {
    test(`blocked: ${name}`, async () => {
      const answer = await handleEvent('codex', payload.replaceAll('/ABS', ws), undefined);
      assert.equal(answer.exitCode, 2, JSON.stringify(answer));
      assert.match(answer.stderr ?? '', /Weave guard blocked this/);
    });
  }

  const allowed: Array<[string, string]> = [
    [
      'a heredoc on code',
      codexEvent({ command: `apply_patch <<'EOF'\n${envelope('*** Update File: index.js')}\nEOF` }),
    ],
    [
      'an array command on code',
      codexEvent({ command: ['apply_patch', envelope('*** Add File: src/new.js')] }),
    ],
    [
      'a literal printf of a patch on code',
      codexEvent({ command: `printf '%s' "${envelope('*** Update File: index.js')}" | apply_patch` }),
    ],
    ['an array command that reads', codexEvent({ command: ['cat', 'test/add.test.js'] })],
  ];
  for (const [name, payload] of allowed) {
    test(`allowed: ${name}`, async () => {
      const answer = await handleEvent('codex', payload.replaceAll('/ABS', ws), undefined);
      assert.deepEqual(answer, { exitCode: 0 });
    });
  }

  test('the reason names the patch operation and the spec', async () => {
    const answer = await handleEvent(
      'codex',
      codexEvent({
        command: `apply_patch <<'EOF'\n${envelope('*** Delete File: test/sub.test.js')}\nEOF`,
      }).replaceAll('/ABS', ws),
      undefined,
    );
    assert.match(answer.stderr ?? '', /apply_patch \(Delete File\) on test\/sub\.test\.js/);
    assert.match(answer.stderr ?? '', /sub-works/);
  });
});

describe('Stop: keep working while an affected spec is broken', () => {
  const stop = (extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ session_id: 's1', cwd: ws, hook_event_name: 'Stop', stop_hook_active: false, ...extra });

  before(async () => {
    // A clean recorded run is the baseline: add-works passes there, sub-works fails.
    const check = await new Promise<number | null>((resolve) =>
      spawn(process.execPath, [CLI, 'check', '--workspace', ws], { stdio: 'ignore' }).on('close', resolve),
    );
    assert.equal(check, 1, 'sub-works fails on the clean tree');
  });

  test('no change: the agent may stop', async () => {
    assert.deepEqual(await handleEvent('claude-code', stop(), undefined), { exitCode: 0 });
  });

  test('a change that breaks add-works: the documented block decision, with ids and failure lines', async () => {
    await fs.writeFile(path.join(ws, 'index.js'), INDEX_JS.replace('return a + b;', 'return a * b;'));
    try {
      const r = await guard([], stop(), ws);
      assert.equal(r.code, 0, r.stderr);
      const decision = JSON.parse(r.stdout) as { decision: string; reason: string };
      assert.equal(decision.decision, 'block');
      assert.match(decision.reason, /- add-works: fail/);
      assert.match(decision.reason, /AssertionError|Expected|6/);
      assert.doesNotMatch(decision.reason, /sub-works/, 'failing before the change: not broken by it');

      // Already continuing because of a Stop hook: let it stop (no loop).
      assert.deepEqual(await handleEvent('claude-code', stop({ stop_hook_active: true }), undefined), {
        exitCode: 0,
      });
      const cursor = await handleEvent(
        'cursor',
        JSON.stringify({
          hook_event_name: 'stop',
          status: 'completed',
          loop_count: 0,
          workspace_roots: [ws],
        }),
        undefined,
      );
      assert.match(
        (JSON.parse(cursor.stdout ?? '{}') as { followup_message: string }).followup_message,
        /add-works/,
      );
    } finally {
      await fs.writeFile(path.join(ws, 'index.js'), INDEX_JS);
    }
  });
});
