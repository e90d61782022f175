// `weave guard --install`: merges into existing configurations without losing anything, twice is once, a broken
// file is left alone; the git pre-commit hook chains the existing one and really stops a commit that breaks a spec.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gitIn } from '../../support/gitRepo';
import { runCli } from '../spec/cliRun';
import { CLI } from '../../support/paths';
import { INDEX_JS, makeMathWorkspace } from '../../support/mathWorkspace';
import { isolateWeaveState } from '../../support/weaveState';

isolateWeaveState();

let ws: string;
const weave = `${process.execPath} ${CLI}`;
before(async () => {
  ws = await makeMathWorkspace();
});
after(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

async function readJson(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
}

describe('weave guard --install', () => {
  test('claude-code: merges into .claude/settings.json, keeps other hooks and settings, idempotent', async () => {
    const file = path.join(ws, '.claude/settings.json');
    const theirs = { type: 'command', command: 'prettier --write "$CLAUDE_FILE"' };
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(
      file,
      JSON.stringify({
        permissions: { allow: ['Bash(npm test)'] },
        hooks: { PreToolUse: [{ matcher: 'Write', hooks: [theirs] }], PostToolUse: [{ hooks: [theirs] }] },
      }),
    );
    const first = await runCli(
      ['guard', '--install', 'claude-code', '--workspace', ws, '--command', weave],
      ws,
    );
    assert.equal(first.code, 0, first.stderr);
    const once = await fs.readFile(file, 'utf8');
    const second = await runCli(
      ['guard', '--install', 'claude-code', '--workspace', ws, '--command', weave],
      ws,
    );
    assert.equal(second.code, 0);
    assert.match(second.stdout, /already has Weave's hooks/);
    assert.equal(await fs.readFile(file, 'utf8'), once, 'the second install changed nothing');

    const config = (await readJson(file)) as {
      permissions: unknown;
      hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>>;
    };
    assert.deepEqual(config.permissions, { allow: ['Bash(npm test)'] });
    assert.deepEqual(config.hooks.PostToolUse, [{ hooks: [theirs] }]);
    assert.deepEqual(config.hooks.PreToolUse?.[0], { matcher: 'Write', hooks: [theirs] });
    const ours = config.hooks.PreToolUse?.[1];
    assert.equal(ours?.matcher, 'Edit|Write|MultiEdit|NotebookEdit|Bash|mcp__.*');
    assert.equal(ours?.hooks[0]?.command, `${weave} guard --agent claude-code`);
    assert.equal(config.hooks.Stop?.[0]?.hooks[0]?.command, `${weave} guard --agent claude-code`);
  });

  test('cursor: .cursor/hooks.json version 1 with shell, tool and stop hooks, idempotent', async () => {
    const file = path.join(ws, '.cursor/hooks.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(
      file,
      JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: './format.sh' }] } }),
    );
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['guard', '--install', 'cursor', '--workspace', ws, '--command', weave], ws);
      assert.equal(r.code, 0, r.stderr);
    }
    const config = (await readJson(file)) as {
      version: number;
      hooks: Record<string, Array<{ command: string }>>;
    };
    assert.equal(config.version, 1);
    assert.deepEqual(config.hooks.afterFileEdit, [{ command: './format.sh' }]);
    for (const event of ['beforeShellExecution', 'preToolUse', 'stop'])
      assert.deepEqual(
        config.hooks[event]?.map((h) => h.command),
        [`${weave} guard --agent cursor`],
        event,
      );
  });

  test('a configuration that is not valid JSON is reported and left untouched', async () => {
    const file = path.join(ws, '.codex/hooks.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{ "hooks": ');
    const r = await runCli(['guard', '--install', 'codex', '--workspace', ws, '--command', weave], ws);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /hooks\.json is not valid JSON.*nothing was changed/);
    assert.equal(await fs.readFile(file, 'utf8'), '{ "hooks": ');
  });

  test('git: the pre-commit hook chains the existing one and stops a commit that breaks a spec', async () => {
    const hooks = path.join(ws, '.git/hooks');
    await fs.mkdir(hooks, { recursive: true });
    await fs.writeFile(
      path.join(hooks, 'pre-commit'),
      '#!/bin/sh\necho theirs-ran >> "$(git rev-parse --git-dir)/theirs.log"\n',
      {
        mode: 0o755,
      },
    );
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['guard', '--install', 'git', '--workspace', ws, '--command', weave], ws);
      assert.equal(r.code, 0, r.stderr);
    }
    assert.match(await fs.readFile(path.join(hooks, 'pre-commit.weave-chained'), 'utf8'), /theirs-ran/);
    // Break add-works and try to commit it: the hook runs the affected specs and the commit is refused.
    await fs.writeFile(path.join(ws, 'index.js'), INDEX_JS.replace('return a + b;', 'return a - b;'));
    gitIn(ws, 'add', 'index.js');
    const commit = await new Promise<{ code: number | null; output: string }>((resolve) => {
      execFile(
        'git',
        ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-m', 'break add'],
        { cwd: ws },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
      );
    });
    assert.notEqual(commit.code, 0, commit.output);
    assert.match(commit.output, /add-works\s+functional\s+fail/);
    assert.match(await fs.readFile(path.join(ws, '.git/theirs.log'), 'utf8'), /theirs-ran/);
    assert.equal(gitIn(ws, 'log', '--oneline').trim().split('\n').length, 1, 'nothing was committed');
  });
});
