// `weave agent` as a user runs it: the bundled CLI (dist/cli.js) as a child process, talking to the scripted
// server over real HTTP.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { everyConversation, startScriptedServer } from '../../support/scriptedOpenAiServer';
import { createDemoRepo, extraWorktrees, fingerprint, REPO_ROOT } from '../../support/demoWorkspace';
import { fixSecretCachingSteps } from './demoScripts';
import { API_KEY } from './harness';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function weave(args: string[], env: Record<string, string> = {}, cwd = REPO_ROOT): Promise<CliRun> {
  return new Promise((resolve) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(OPENAI_|WEAVE_)/.test(k)),
    ) as Record<string, string>;
    const child = spawn(process.execPath, [CLI, 'agent', ...args], { cwd, env: { ...clean, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('weave agent (CLI)', () => {
  test('--all --apply fixes the demo in the user’s tree, with live progress on stderr', async () => {
    const repo = createDemoRepo();
    const server = await startScriptedServer({
      scripts: [everyConversation(fixSecretCachingSteps())],
      apiKey: API_KEY,
    });
    try {
      const run = await weave(
        [
          '--all',
          '--apply',
          '--no-review',
          '--workspace',
          repo.workspace,
          '--base-url',
          server.baseURL,
          '--model',
          'm',
        ],
        { OPENAI_API_KEY: API_KEY },
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^no-secret-caching +fail +→ +pass +fixed$/m);
      assert.match(run.stdout, /^Stopped: finished after 4 step\(s\)/m);
      assert.match(run.stdout, /Applied to your workspace\./);
      assert.match(run.stderr, /^\[all\] step 1\/40 · 0 tokens$/m);
      assert.match(run.stderr, /^\[all\] {3}✓ edit: Edited src\/client\.js/m);
      assert.ok(!run.stdout.includes(API_KEY) && !run.stderr.includes(API_KEY));
      assert.match(fs.readFileSync(path.join(repo.workspace, 'src/client.js'), 'utf8'), /hasAuthorization/);
      assert.deepEqual(extraWorktrees(repo.root), []);
    } finally {
      await server.close();
      repo.dispose();
    }
  });

  test('--spec --json prints one document and leaves the tree alone without --apply', async () => {
    const repo = createDemoRepo();
    const server = await startScriptedServer({ scripts: [everyConversation(fixSecretCachingSteps())] });
    try {
      const before = fingerprint(repo.workspace);
      // A loopback server needs no key.
      const run = await weave([
        '--spec',
        'no-secret-caching',
        '--json',
        '--no-review',
        '--workspace',
        repo.workspace,
        '--base-url',
        server.baseURL,
        '--model',
        'm',
      ]);
      assert.equal(run.code, 0, run.stderr);
      const json = JSON.parse(run.stdout) as {
        stopReason: string;
        changedFiles: string[];
        patch: string;
        target: unknown;
      };
      assert.equal(json.stopReason, 'finished');
      assert.deepEqual(json.target, { kind: 'spec', id: 'no-secret-caching' });
      assert.deepEqual(json.changedFiles, ['src/client.js']);
      assert.equal(fingerprint(repo.workspace), before);
      assert.equal(server.chatRequests()[0]!.headers.authorization, 'Bearer no-key');
    } finally {
      await server.close();
      repo.dispose();
    }
  });

  test('bad input exits 2 with one clear message', async () => {
    const cases: Array<[string[], RegExp, Record<string, string>?]> = [
      [[], /choose exactly one of --all, --spec ID, --matrix/],
      [['--all', '--matrix'], /choose exactly one/],
      [['--matrix', '--apply'], /--apply applies one run’s patch/],
      [['--all', '--max-steps', '0'], /--max-steps must be a whole number ≥ 1, got '0'/],
      [['--all', '--bogus'], /Unknown option '--bogus'/],
      [
        ['--spec', 'nope', '--workspace', 'examples', '--model', 'm'],
        /unknown spec 'nope'; the specs are: response-shape, /,
      ],
      [['--all', '--workspace', 'examples'], /no model: pass --model NAME or set WEAVE_MODEL/],
      [
        [
          '--all',
          '--workspace',
          'examples',
          '--model',
          'm',
          '--base-url',
          'https://models.example.invalid/v1',
        ],
        /No API key for https:\/\/models\.example\.invalid\/v1: set OPENAI_API_KEY/,
      ],
      [['--all', '--workspace', 'no/such/folder', '--model', 'm'], /specs\.json/],
    ];
    for (const [args, pattern, env] of cases) {
      const run = await weave(args, env);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, pattern, args.join(' '));
      assert.ok(!run.stderr.includes('    at '), 'no stack trace');
    }
  });

  test('a wrong key and an unreachable server: exit 1 with one clear message each', async () => {
    const repo = createDemoRepo();
    const server = await startScriptedServer({
      scripts: [everyConversation(fixSecretCachingSteps())],
      apiKey: API_KEY,
    });
    try {
      const common = [
        '--all',
        '--no-review',
        '--workspace',
        repo.workspace,
        '--model',
        'm',
        '--max-steps',
        '2',
      ];
      const wrong = await weave([...common, '--base-url', server.baseURL], {
        OPENAI_API_KEY: 'sk-wrong-0000000000',
      });
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /rejected the API key \(HTTP 401\): check OPENAI_API_KEY/);
      assert.ok(!wrong.stderr.includes('sk-wrong-0000000000'));
      const url = server.baseURL;
      await server.close();
      const down = await weave([...common, '--base-url', url]);
      assert.equal(down.code, 1);
      assert.match(
        down.stderr,
        /Cannot reach the model server at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/,
      );
      assert.deepEqual(extraWorktrees(repo.root), []);
    } finally {
      await server.close();
      repo.dispose();
    }
  });
});
