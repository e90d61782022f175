// Hooks that are known to run: `weave guard --install` writes portable commands (the Weave installed in the
// project, by a path from the project root), so the committed configuration guards a fresh clone; `--status`
// checks per agent what that agent needs before it runs them (Codex: the project and every hook trusted in
// $CODEX_HOME/config.toml; Cursor: hooks.json version 1) and probes the installed command, exiting 1 until all hold.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gitIn } from '../../support/gitRepo';
import { makeMathWorkspace } from '../../support/mathWorkspace';
import { weaveOutsideTemp } from '../../support/weaveOutsideTemp';
import { CLI, REPO_ROOT } from '../../support/paths';
import { isolateWeaveState } from '../../support/weaveState';

isolateWeaveState();

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(
  file: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  stdin = '',
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

let project: string;
let codexHome: string;
/** CODEX_HOME and the user's Claude settings point into the test's own folders, never the machine's. */
let env: Record<string, string>;
const weave = (args: string[], cwd = project): Promise<Ran> =>
  run(process.execPath, [CLI, 'guard', ...args], cwd, env);

/** Installs Weave into a project the way npm does for a local dependency: node_modules/weave. */
async function linkWeave(dir: string): Promise<void> {
  await fs.mkdir(path.join(dir, 'node_modules'), { recursive: true });
  await fs.symlink(REPO_ROOT, path.join(dir, 'node_modules', 'weave'));
}

before(async () => {
  project = await makeMathWorkspace();
  codexHome = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-codex-home-'));
  env = { CODEX_HOME: codexHome, CLAUDE_CONFIG_DIR: path.join(codexHome, 'claude') };
  await fs.writeFile(path.join(project, '.gitignore'), 'node_modules/\n');
  await linkWeave(project);
});
after(async () => {
  await fs.rm(project, { recursive: true, force: true });
  await fs.rm(codexHome, { recursive: true, force: true });
});

const writeOfATest = (dir: string): string =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    cwd: dir,
    tool_name: 'Write',
    tool_input: { file_path: path.join(dir, 'test/add.test.js'), content: '' },
  });

describe('portable hook commands', () => {
  test("claude-code and codex get commands without this machine's paths, and a clone of the commit guards", async () => {
    for (const agent of ['claude-code', 'codex', 'cursor']) {
      const r = await weave(['--install', agent, '--workspace', project]);
      assert.equal(r.code, 0, r.stderr);
    }
    const claude = JSON.parse(await fs.readFile(path.join(project, '.claude/settings.json'), 'utf8')) as {
      hooks: { PreToolUse: Array<{ matcher: string; hooks: Array<{ command: string }> }> };
    };
    const claudeCommand = claude.hooks.PreToolUse[0]!.hooks[0]!.command;
    assert.equal(
      claudeCommand,
      'node "$CLAUDE_PROJECT_DIR"/node_modules/weave/dist/guard.js --agent claude-code',
    );
    assert.equal(claude.hooks.PreToolUse[0]!.matcher, 'Edit|Write|MultiEdit|NotebookEdit|Bash|mcp__.*');
    const codex = JSON.parse(await fs.readFile(path.join(project, '.codex/hooks.json'), 'utf8')) as {
      hooks: { PreToolUse: Array<{ hooks: Array<{ command: string }> }> };
    };
    const codexCommand = codex.hooks.PreToolUse[0]!.hooks[0]!.command;
    assert.equal(
      codexCommand,
      'node "$(git rev-parse --show-toplevel)"/node_modules/weave/dist/guard.js --agent codex',
    );
    for (const file of ['.claude/settings.json', '.codex/hooks.json', '.cursor/hooks.json'])
      assert.doesNotMatch(
        await fs.readFile(path.join(project, file), 'utf8'),
        new RegExp(REPO_ROOT.replace(/[/.]/g, '\\$&')),
      );

    gitIn(project, 'add', '-A');
    gitIn(project, 'commit', '-q', '-m', 'weave hooks');
    const clone = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'weave-clone-')));
    try {
      gitIn(clone, 'clone', '-q', project, '.');
      await linkWeave(clone);
      const viaClaude = await run(
        'sh',
        ['-c', claudeCommand],
        clone,
        { CLAUDE_PROJECT_DIR: clone },
        writeOfATest(clone),
      );
      assert.equal(viaClaude.code, 2, viaClaude.stderr);
      assert.match(viaClaude.stderr, /test\/add\.test\.js of spec add-works/);
      // Codex may start its hooks in a sub-folder: the command finds the project from the git top level.
      const viaCodex = await run(
        'sh',
        ['-c', codexCommand],
        path.join(clone, 'test'),
        {},
        writeOfATest(clone),
      );
      assert.equal(viaCodex.code, 2, viaCodex.stderr);
    } finally {
      await fs.rm(clone, { recursive: true, force: true });
    }
  });

  test('without Weave in the project, hooks name the absolute path of the Weave that installed them', async () => {
    const bare = await makeMathWorkspace();
    const copy = await weaveOutsideTemp();
    const cli = path.join(copy.dist, 'cli.js');
    const fromCopy = (args: string[]): Promise<Ran> =>
      run(process.execPath, [cli, 'guard', ...args], bare, env);
    try {
      for (const target of ['claude-code', 'codex', 'cursor', 'git']) {
        const r = await fromCopy(['--install', target, '--workspace', bare]);
        assert.equal(r.code, 0, r.stderr);
      }
      const written = [
        await fs.readFile(path.join(bare, '.claude/settings.json'), 'utf8'),
        await fs.readFile(path.join(bare, '.codex/hooks.json'), 'utf8'),
        await fs.readFile(path.join(bare, '.cursor/hooks.json'), 'utf8'),
        await fs.readFile(path.join(bare, '.git/hooks/pre-commit'), 'utf8'),
      ].join('\n');
      assert.doesNotMatch(written, /npx/);
      assert.match(
        written,
        new RegExp(`node ${copy.dist.replace(/[/.]/g, '\\$&')}/guard\\.js --agent claude-code`),
      );
      assert.match(
        written,
        new RegExp(`node ${copy.dist.replace(/[/.]/g, '\\$&')}/cli\\.js check --affected`),
      );
      const status = await fromCopy(['--status', '--agent', 'claude-code']);
      assert.equal(status.code, 0, status.stdout);
    } finally {
      await fs.rm(bare, { recursive: true, force: true });
      await copy.dispose();
    }
  });

  test('a Weave running from a temporary folder with none in the project: exit 2, nothing written', async () => {
    const bare = await makeMathWorkspace();
    const temporary = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-npx-like-'));
    try {
      await fs.mkdir(path.join(temporary, 'dist'));
      // An npx-like install: the launchers and the bundles they load.
      for (const file of ['cli.js', 'cli-program.js', 'guard.js', 'guard-program.js'])
        await fs.copyFile(path.join(path.dirname(CLI), file), path.join(temporary, 'dist', file));
      const before = gitIn(bare, 'status', '--porcelain', '--ignored');
      const r = await run(
        process.execPath,
        [path.join(temporary, 'dist/cli.js'), 'guard', '--install', 'claude-code', '--workspace', bare],
        bare,
        env,
      );
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /lives in the temporary folder .*nothing was written/);
      assert.equal(gitIn(bare, 'status', '--porcelain', '--ignored'), before, 'something was written');
    } finally {
      await fs.rm(bare, { recursive: true, force: true });
      await fs.rm(temporary, { recursive: true, force: true });
    }
  });

  test('--status reports a hook that runs npx weave without running it (no registry lookup)', async () => {
    const bare = await makeMathWorkspace();
    const bin = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-fake-npx-'));
    try {
      // An npx first on PATH that leaves a mark: had --status run the hook command, the mark would be there.
      await fs.writeFile(path.join(bin, 'npx'), `#!/bin/sh\ntouch ${bin}/npx-ran\nexit 1\n`, { mode: 0o755 });
      const npxHook = { type: 'command', command: 'npx weave guard --agent claude-code' };
      await fs.mkdir(path.join(bare, '.claude'));
      await fs.writeFile(
        path.join(bare, '.claude/settings.json'),
        JSON.stringify({
          hooks: {
            PreToolUse: [{ matcher: 'Edit|Write|MultiEdit|NotebookEdit|Bash|mcp__.*', hooks: [npxHook] }],
            Stop: [{ hooks: [npxHook] }],
          },
        }),
      );
      const r = await run(
        process.execPath,
        [CLI, 'guard', '--status', '--agent', 'claude-code', '--workspace', bare],
        bare,
        { ...env, PATH: `${bin}:${process.env.PATH ?? ''}` },
      );
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, /PROBLEM: .*runs `npx weave`.*unrelated package/);
      await assert.rejects(fs.access(path.join(bin, 'npx-ran')), 'the status ran npx');
      // --install refuses to write such a command too.
      const install = await weave(
        ['--install', 'claude-code', '--workspace', bare, '--command', 'npx weave'],
        bare,
      );
      assert.equal(install.code, 2);
      assert.match(install.stderr, /unrelated package/);
    } finally {
      await fs.rm(bare, { recursive: true, force: true });
      await fs.rm(bin, { recursive: true, force: true });
    }
  });
});

describe('weave guard --status', () => {
  test('claude-code: installed, read by Claude Code, and the probe is blocked: exit 0', async () => {
    const r = await weave(['--status', '--agent', 'claude']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /claude-code: OK/);
    assert.match(r.stdout, /probe: the installed command blocked a write of \.weave\/specs\.json/);
  });

  test('claude-code: a settings file with disableAllHooks fails the status', async () => {
    const local = path.join(project, '.claude/settings.local.json');
    await fs.writeFile(local, JSON.stringify({ disableAllHooks: true }));
    try {
      const r = await weave(['--status', '--agent', 'claude-code']);
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, /disableAllHooks/);
    } finally {
      await fs.rm(local);
    }
  });

  test('codex: --install prints the trust step; --status fails until the project and each hook are trusted', async () => {
    const install = await weave(['--install', 'codex', '--workspace', project]);
    assert.equal(install.code, 0, install.stderr);
    assert.match(install.stdout, /only when the project and each hook are trusted/);
    const step = install.stdout.slice(
      install.stdout.indexOf('[projects.'),
      install.stdout.indexOf('Then check with'),
    );
    assert.match(
      step,
      /\[hooks\.state\.".*\.codex\/hooks\.json:pre_tool_use:0:0"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"/,
    );

    const untrusted = await weave(['--status', '--agent', 'codex']);
    assert.equal(untrusted.code, 1, untrusted.stdout);
    assert.match(untrusted.stdout, /the project is not trusted/);
    assert.match(untrusted.stdout, /PreToolUse hook is untrusted/);

    // Only the project trusted: the hooks are still skipped.
    const projectOnly = step.slice(0, step.indexOf('[hooks.state'));
    await fs.writeFile(path.join(codexHome, 'config.toml'), projectOnly);
    const half = await weave(['--status', '--agent', 'codex']);
    assert.equal(half.code, 1, half.stdout);
    assert.doesNotMatch(half.stdout, /the project is not trusted/);

    await fs.writeFile(path.join(codexHome, 'config.toml'), step);
    const trusted = await weave(['--status', '--agent', 'codex']);
    assert.equal(trusted.code, 0, trusted.stdout);
    assert.match(trusted.stdout, /Codex trusts the project and its 4 hook\(s\)/);

    // A changed hook command no longer matches its trusted hash.
    const hooksFile = path.join(project, '.codex/hooks.json');
    const original = await fs.readFile(hooksFile, 'utf8');
    await fs.writeFile(hooksFile, original.replace('"timeout": 30', '"timeout": 31'));
    try {
      const modified = await weave(['--status', '--agent', 'codex']);
      assert.equal(modified.code, 1, modified.stdout);
      assert.match(modified.stdout, /PreToolUse hook is modified/);
    } finally {
      await fs.writeFile(hooksFile, original);
    }
  });

  test('cursor: version 1 and a denied probe pass; another version fails', async () => {
    const ok = await weave(['--status', '--agent', 'cursor']);
    assert.equal(ok.code, 0, ok.stdout);
    const file = path.join(project, '.cursor/hooks.json');
    const original = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, original.replace('"version": 1', '"version": 2'));
    try {
      const bad = await weave(['--status', '--agent', 'cursor']);
      assert.equal(bad.code, 1, bad.stdout);
      assert.match(bad.stdout, /version 2; Cursor reads version 1/);
    } finally {
      await fs.writeFile(file, original);
    }
  });

  test('a hook command that does not answer as the guard fails the probe', async () => {
    const file = path.join(project, '.claude/settings.json');
    const original = await fs.readFile(file, 'utf8');
    // Starts the full CLI with a verb it does not have: it exits 2 too, but with a usage error, not a block.
    await fs.writeFile(file, original.replaceAll('dist/guard.js', 'dist/cli.js guard-typo'));
    try {
      const r = await weave(['--status', '--agent', 'claude-code']);
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, /probe: the installed command did not block/);
    } finally {
      await fs.writeFile(file, original);
    }
  });

  test('nothing installed: exit 1 and how to install', async () => {
    const bare = await makeMathWorkspace();
    try {
      const r = await weave(['--status', '--workspace', bare], bare);
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, /no agent hooks are installed/);
    } finally {
      await fs.rm(bare, { recursive: true, force: true });
    }
  });
});
