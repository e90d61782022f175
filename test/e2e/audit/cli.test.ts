// `weave audit`, `weave graph` after it, and `weave draft` as a user runs them: the bundled CLI (dist/cli.js) as
// a child process; the draft talks to the scripted OpenAI-protocol server over real HTTP.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { everyConversation, startScriptedServer } from '../../support/scriptedOpenAiServer';
import { REPO_ROOT } from '../../support/demoWorkspace';
import { removeDir } from '../../support/repos';
import { createAuditFixture } from './fixture';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const KEY = 'sk-cli-audit-SECRET-42';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function weave(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(OPENAI_|WEAVE_)/.test(k)),
    ) as Record<string, string>;
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...clean, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const repo = createAuditFixture();
after(() => removeDir(repo));

test('bad flags are bad input (exit 2) with the flag named', async () => {
  const zero = await weave(['audit', '--max-mutants', '0'], repo);
  assert.equal(zero.code, 2);
  assert.match(zero.stderr, /--max-mutants must be a whole number ≥ 1, got '0'/);
  const unknown = await weave(['audit', '--only', 'nope'], repo);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown spec id: nope/);
  const noModel = await weave(['draft'], repo);
  assert.equal(noModel.code, 2);
  assert.match(noModel.stderr, /no model/);
});

test('audit --json prints the per-spec shape, exits 1 for a vacuous spec, and graph shows the observed pair', async () => {
  const run = await weave(
    ['audit', '--only', 'vacuous,boundary,range', '--json', '--concurrency', '2'],
    repo,
  );
  assert.equal(run.code, 1, run.stderr);
  const report = JSON.parse(run.stdout) as { specs: Array<Record<string, unknown>> };
  const vacuous = report.specs.find((s) => s.id === 'vacuous')!;
  assert.equal(vacuous.vacuous, true);
  for (const key of ['id', 'mutants', 'killed', 'survived', 'timedOut', 'score', 'vacuous', 'survivors'])
    assert.ok(key in vacuous, `${key} is in the JSON`);
  const survivor = (
    report.specs.find((s) => s.id === 'range')!.survivors as Array<Record<string, unknown>>
  )[0]!;
  for (const key of ['file', 'line', 'column', 'operator', 'diff'])
    assert.ok(key in survivor, `${key} is in a survivor`);
  assert.match(run.stderr, /\[\d\/4\] src\/age.js:4 relational: killed by boundary/);

  const graph = await weave(['graph', '--json'], repo);
  assert.equal(graph.code, 0, graph.stderr);
  const coupling = JSON.parse(graph.stdout) as {
    observed?: Array<{ a: string; b: string; declared: boolean }>;
  };
  assert.deepEqual(
    coupling.observed?.map((o) => [o.a, o.b, o.declared]),
    [['boundary', 'range', false]],
  );
  const text = await weave(['graph'], repo);
  assert.match(text.stdout, /Observed interactions[\s\S]*boundary ↔ range {2}\[not declared\]/);
});

test('draft --json --accept keeps the verified proposal and writes it, and the key never reaches the output', async () => {
  const file = 'test/drafts/adult.test.js';
  const server = await startScriptedServer({
    apiKey: KEY,
    scripts: [
      everyConversation([
        {
          kind: 'tools',
          calls: [
            {
              name: 'propose_spec',
              arguments: {
                spec: {
                  id: 'adult-at-18',
                  title: 'eighteen is adult',
                  kind: 'functional',
                  statement: 'Eighteen-year-olds are grown-ups; seventeen-year-olds are not.',
                  test: { command: `node --test ${file}`, files: [file] },
                  anchors: ['src/age.js#isAdult'],
                },
                testFiles: [
                  {
                    path: file,
                    content:
                      "const test = require('node:test');\nconst assert = require('node:assert/strict');\n" +
                      "const { isAdult } = require('../../src/age');\n" +
                      "test('18/17', () => { assert.equal(isAdult(18), true); assert.equal(isAdult(17), false); });\n",
                  },
                ],
              },
            },
          ],
        },
        { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'done' } }] },
      ]),
    ],
  });
  try {
    const run = await weave(
      ['draft', '--json', '--accept', '--no-review', '--base-url', server.baseURL, '--model', 'scripted'],
      repo,
      { WEAVE_API_KEY: KEY },
    );
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as {
      kept: Array<{ id: string; goal: boolean }>;
      rejected: Array<{ id: string; reason: string }>;
      accepted: string[];
    };
    assert.deepEqual(
      out.kept.map((k) => [k.id, k.goal]),
      [['adult-at-18', false]],
    );
    assert.deepEqual(out.rejected, []);
    assert.deepEqual(out.accepted, ['adult-at-18']);
    assert.ok(fs.readFileSync(path.join(repo, '.weave/specs.json'), 'utf8').includes('"adult-at-18"'));
    assert.ok(fs.existsSync(path.join(repo, file)));
    assert.ok(!run.stdout.includes(KEY) && !run.stderr.includes(KEY));
  } finally {
    await server.close();
  }
});
