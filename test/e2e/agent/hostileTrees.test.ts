// `weave agent` on trees that are hostile or merely unusual, as a user runs it (dist/cli.js against the scripted
// server): a git-ignored node_modules/ (most npm projects), a FIFO the agent's code plants and then asks
// read_file for, and a 4,000-deep folder chain. Each run must end with a clear answer and leave no checkout behind.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { everyConversation, startScriptedServer, type ScriptStep } from '../../support/scriptedOpenAiServer';
import { createDemoRepo, leftoverCheckouts, REPO_ROOT } from '../../support/demoWorkspace';
import { fixSecretCachingSteps } from './demoScripts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function weaveAgent(args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(OPENAI_|WEAVE_)/.test(k)),
    ) as Record<string, string>;
    const child = spawn(process.execPath, [CLI, 'agent', ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs `steps` as the agent on `workspace` for one spec, as JSON, without the review pass. */
async function runScripted(
  workspace: string,
  steps: ScriptStep[],
): Promise<{ run: CliRun; toolResults: string[] }> {
  const server = await startScriptedServer({ scripts: [everyConversation(steps)] });
  try {
    const run = await weaveAgent([
      '--spec',
      'no-secret-caching',
      '--json',
      '--no-review',
      '--workspace',
      workspace,
      '--base-url',
      server.baseURL,
      '--model',
      'm',
    ]);
    const last = server.chatRequests().at(-1)?.body?.messages ?? [];
    const toolResults = last
      .filter((m) => m.role === 'tool')
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
    return { run, toolResults };
  } finally {
    await server.close();
  }
}

/** Prepends `code` to src/client.js, so it runs in every spec test process (inside the sandbox). */
function plantInClient(code: string): ScriptStep {
  return {
    kind: 'tools',
    calls: [
      {
        name: 'edit',
        arguments: { path: 'src/client.js', search: "'use strict';\n", replace: `'use strict';\n${code}\n` },
      },
    ],
  };
}

const finish: ScriptStep = { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'done' } }] };

describe('weave agent on unusual trees', () => {
  test('a git-ignored node_modules/ (as in most npm projects) does not stop the run', async () => {
    const repo = createDemoRepo();
    try {
      // The demo's .gitignore already says `node_modules/`, as most npm projects' do.
      assert.match(fs.readFileSync(path.join(repo.root, '.gitignore'), 'utf8'), /^node_modules\/$/m);
      fs.mkdirSync(path.join(repo.root, 'node_modules', 'left-pad'), { recursive: true });
      fs.writeFileSync(path.join(repo.root, 'node_modules', 'left-pad', 'index.js'), 'module.exports = 1;\n');

      const { run } = await runScripted(repo.workspace, fixSecretCachingSteps());
      assert.equal(run.code, 0, run.stderr);
      const json = JSON.parse(run.stdout) as { stopReason: string; changedFiles: string[] };
      assert.equal(json.stopReason, 'finished');
      assert.deepEqual(json.changedFiles, ['src/client.js']);
      assert.deepEqual(leftoverCheckouts(), []);
    } finally {
      repo.dispose();
    }
  });

  test('read_file on a FIFO the agent planted is refused at once with a clear tool error', async () => {
    const repo = createDemoRepo();
    try {
      const steps: ScriptStep[] = [
        plantInClient(
          "try { require('child_process').execFileSync('mkfifo', [require('path').join(__dirname, 'pipe.js')]); } catch {}",
        ),
        { kind: 'tools', calls: [{ name: 'run_specs', arguments: { ids: ['cache-hit'] } }] },
        { kind: 'tools', calls: [{ name: 'read_file', arguments: { path: 'src/pipe.js' } }] },
        {
          kind: 'tools',
          calls: [{ name: 'search_text', arguments: { query: 'anything', path: 'src/pipe.js' } }],
        },
        finish,
      ];
      const { run, toolResults } = await runScripted(repo.workspace, steps);
      assert.equal(run.signal, null);
      // 1: the agent did not fix its spec, an ordinary outcome; the run itself finished.
      assert.equal(run.code, 1, run.stderr);
      assert.equal((JSON.parse(run.stdout) as { stopReason: string }).stopReason, 'finished');
      const refusals = toolResults.filter((r) => r.includes('src/pipe.js'));
      assert.equal(refusals.length, 2, toolResults.join('\n---\n'));
      for (const refusal of refusals)
        assert.match(refusal, /src\/pipe\.js is a FIFO \(named pipe\), not a regular file/);
      assert.deepEqual(leftoverCheckouts(), []);
    } finally {
      repo.dispose();
    }
  });

  test('a 4,000-deep folder chain is cut with a clear message and the checkout is removed', async () => {
    const repo = createDemoRepo();
    try {
      // mkdir + chdir one level at a time: no path ever exceeds PATH_MAX while building it.
      const chain =
        "if (!global.__deep) { global.__deep = true; const fs = require('fs'); const start = process.cwd();" +
        " try { process.chdir(__dirname); for (let i = 0; i < 4000; i++) { fs.mkdirSync('d'); process.chdir('d'); } } catch {}" +
        ' process.chdir(start); }';
      const steps: ScriptStep[] = [
        plantInClient(chain),
        { kind: 'tools', calls: [{ name: 'run_specs', arguments: { ids: ['cache-hit'] } }] },
        { kind: 'tools', calls: [{ name: 'list_files', arguments: {} }] },
        finish,
      ];
      const { run, toolResults } = await runScripted(repo.workspace, steps);
      assert.doesNotMatch(run.stderr, /internal error|ENAMETOOLONG/, run.stderr);
      assert.match(
        toolResults.find((r) => r.includes('src/cache.js')) ?? toolResults.join('\n'),
        /folders deeper than \d+ levels are not listed \(src\/d\/d\/d/,
      );
      // 1: the spec is still failing; the run's result is there all the same.
      assert.equal(run.code, 1, run.stderr);
      assert.equal((JSON.parse(run.stdout) as { stopReason: string }).stopReason, 'finished');
      assert.deepEqual(leftoverCheckouts(), [], 'the checkout is removed');
    } finally {
      repo.dispose();
    }
  });
});
