// `weave mine --model` end to end: a scripted OpenAI-protocol model on 127.0.0.1 drives `weave draft`'s synthesis
// agent over the npm fixture's verified task. It proposes two constraint specs: one that holds on the gold commit
// (kept: it joins the task, which verifies again with it) and one that fails there (rejected, in the funnel with
// its stage and reason). The audit's shared kills give the task's observed interactions, written into swe.jsonl,
// data/train.jsonl and the card with the tokens per stage. Two runs with the scripted model give the same bytes;
// a run without --model carries none of it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { runHarborContract } from '../../../src/core/tasks/harbor/harborContract';
import { DRAFT_SYSTEM_PROMPT_START } from '../../../src/core/draft/prompt';
import { CLI } from '../../support/paths';
import { startScriptedServer, type ScriptStep } from '../../support/scriptedOpenAiServer';
import { makeMineFixtures, type MineFixtures } from './mineFixtures';

const run = promisify(execFile);
const API_KEY = 'sk-mine-synthesis-SECRET-42';
const DATASET = ['tasks', 'swe', 'dataset.toml', 'metric.py', 'swe.jsonl', 'data', 'card.md'];

const nodeTest = (body: string): string =>
  [
    "const { test } = require('node:test');",
    "const assert = require('node:assert/strict');",
    "const { add, subtract } = require('../../src/calc');",
    body,
    '',
  ].join('\n');

const propose = (spec: unknown, file: string, content: string): ScriptStep => ({
  kind: 'tools',
  calls: [{ name: 'propose_spec', arguments: { spec, testFiles: [{ path: file, content }] } }],
});

// The goal spec mined from the commit's own test (test/subtract.test.js) is goal-test-subtract-test.
const STEPS: ScriptStep[] = [
  { kind: 'tools', calls: [{ name: 'read_file', arguments: { path: 'src/calc.js' } }] },
  // Holds before and after the change, and a mutant of calc.js (a + b → a - b) breaks it.
  propose(
    {
      id: 'add-keeps-its-contract',
      title: 'add keeps summing',
      kind: 'interface',
      statement: 'add(a, b) shall keep returning the sum of its two arguments, negative numbers included.',
      test: {
        command: 'node --test test/synth/add-contract.test.js',
        files: ['test/synth/add-contract.test.js'],
      },
      anchors: ['src/calc.js'],
      interactsWith: ['goal-test-subtract-test'],
    },
    'test/synth/add-contract.test.js',
    nodeTest("test('sums', () => { assert.equal(add(-2, -3), -5); assert.equal(add(2, 3), 5); });"),
  ),
  // Fails on the gold commit by an assertion: draft keeps it as a goal, mine rejects it.
  propose(
    {
      id: 'subtract-never-negative',
      title: 'subtract clamps at zero',
      kind: 'reliability',
      statement: 'subtract(a, b) shall never return a negative number.',
      test: {
        command: 'node --test test/synth/clamp.test.js',
        files: ['test/synth/clamp.test.js'],
      },
      anchors: ['src/calc.js'],
      interactsWith: ['goal-test-subtract-test'],
    },
    'test/synth/clamp.test.js',
    nodeTest("test('clamps', () => { assert.equal(subtract(3, 5), 0); });"),
  ),
  { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'two constraints proposed' } }] },
];

interface Summary {
  tasks: number;
  repositories: Array<{
    funnel: Record<string, number>;
    tasks: Array<{ instance_id: string; pass_to_pass: string[]; synthesised?: string[] }>;
    rejections: Array<{ stage: string; reason: string }>;
    tokens?: { synthesis: number };
  }>;
}

/** One run of weave mine over npm-calc alone, with a fresh scripted server when `model` is set. */
async function mineOnce(fixtures: MineFixtures, out: string, model: boolean): Promise<Summary> {
  const reposFile = path.join(fixtures.dir, 'one.txt');
  fs.writeFileSync(reposFile, 'npm-calc\n');
  if (!model) {
    const { stdout } = await run(
      process.execPath,
      [CLI, 'mine', '--repos', reposFile, '--out', out, '--json'],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return JSON.parse(stdout) as Summary;
  }
  const server = await startScriptedServer({
    apiKey: API_KEY,
    scripts: [{ matches: (k) => k.startsWith(DRAFT_SYSTEM_PROMPT_START), steps: STEPS }],
  });
  try {
    const { stdout } = await run(
      process.execPath,
      [
        CLI,
        'mine',
        '--repos',
        reposFile,
        '--out',
        out,
        '--model',
        'scripted',
        '--base-url',
        server.baseURL,
        '--no-stream',
        '--json',
      ],
      { env: { ...process.env, WEAVE_API_KEY: API_KEY }, maxBuffer: 64 * 1024 * 1024 },
    );
    assert.ok(server.chatRequests().length >= STEPS.length, 'the synthesis agent talked to the model');
    return JSON.parse(stdout) as Summary;
  } finally {
    await server.close();
  }
}

function datasetBytes(out: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of DATASET) {
    const full = path.join(out, entry);
    if (!fs.existsSync(full)) continue;
    const list = fs.statSync(full).isDirectory()
      ? fs.readdirSync(full, { recursive: true, encoding: 'utf8' }).map((f) => path.join(entry, f))
      : [entry];
    for (const rel of list)
      if (fs.statSync(path.join(out, rel)).isFile())
        files.set(rel, fs.readFileSync(path.join(out, rel)).toString('base64'));
  }
  return files;
}

describe('weave mine --model', () => {
  let fixtures: MineFixtures;
  let scratch: string;
  let out: string;
  let summary: Summary;

  before(async () => {
    fixtures = makeMineFixtures();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-mine-synthesis-'));
    out = path.join(scratch, 'first');
    summary = await mineOnce(fixtures, out, true);
  });

  after(() => {
    fixtures.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('adds the synthesised constraint that holds on the gold commit to the task, with its kind and coupling', () => {
    assert.equal(summary.tasks, 1, JSON.stringify(summary, null, 1));
    const repository = summary.repositories[0]!;
    const task = repository.tasks[0]!;
    assert.deepEqual(task.synthesised, ['keep-add-keeps-its-contract']);
    assert.ok(task.pass_to_pass.includes('keep-add-keeps-its-contract'), task.pass_to_pass.join(' '));
    assert.equal(repository.funnel.specs_synthesised, 1);
    const line = JSON.parse(fs.readFileSync(path.join(out, 'swe.jsonl'), 'utf8').trim()) as {
      specs: Array<{ id: string; kind: string; interactsWith: string[] }>;
      PASS_TO_PASS: string;
      test_patch: string;
    };
    const spec = line.specs.find((s) => s.id === 'keep-add-keeps-its-contract');
    assert.equal(spec?.kind, 'interface');
    assert.deepEqual(spec?.interactsWith, ['goal-test-subtract-test']);
    assert.ok((JSON.parse(line.PASS_TO_PASS) as string[]).includes('keep-add-keeps-its-contract'));
    assert.match(line.test_patch, /test\/synth\/add-contract\.test\.js/);
    assert.doesNotMatch(line.test_patch, /clamp\.test\.js/, 'the rejected spec’s test stays out');
  });

  it('keeps the rejected proposal in the funnel with its stage and reason', () => {
    const rejections = summary.repositories[0]!.rejections.filter((r) => r.stage === 'specs-synthesised');
    assert.deepEqual(
      rejections.map((r) => r.reason.split(':')[0]),
      ['subtract-never-negative'],
    );
    assert.match(rejections[0]!.reason, /fails on the gold commit/);
    const card = fs.readFileSync(path.join(out, 'card.md'), 'utf8');
    assert.match(card, /\| specs-synthesised \| subtract-never-negative: fails on the gold commit/);
  });

  it('records the observed interactions from the audit’s shared kills in swe.jsonl, train.jsonl and the card', () => {
    // add(a, b) → a - b breaks both the suite's own add test (keep-test) and the synthesised contract.
    const pair = ['keep-add-keeps-its-contract', 'keep-test'];
    const line = JSON.parse(fs.readFileSync(path.join(out, 'swe.jsonl'), 'utf8').trim()) as {
      observed_interactions: string[][];
    };
    assert.ok(
      line.observed_interactions.some((p) => p.join() === pair.join()),
      JSON.stringify(line.observed_interactions),
    );
    const row = JSON.parse(fs.readFileSync(path.join(out, 'data', 'train.jsonl'), 'utf8').trim()) as {
      observed_interactions: Array<{ a: string; b: string }>;
    };
    assert.ok(row.observed_interactions.some((p) => p.a === pair[0] && p.b === pair[1]));
    const card = fs.readFileSync(path.join(out, 'card.md'), 'utf8');
    assert.match(card, /keep-add-keeps-its-contract ↔ keep-test/);
    assert.match(card, /## Tokens per stage/);
    const tokens = summary.repositories[0]!.tokens?.synthesis ?? 0;
    assert.ok(tokens > 0, 'the synthesis spent tokens');
    assert.match(card, new RegExp(`\\| all \\| ${tokens} \\|`));
    const timings = JSON.parse(fs.readFileSync(path.join(out, 'timings.json'), 'utf8')) as {
      milliseconds: Record<string, Record<string, number>>;
    };
    const times = Object.values(timings.milliseconds)[0]!;
    assert.ok(times.synthesis! > 0 && times.audit! > 0, JSON.stringify(times));
    assert.doesNotMatch(fs.readFileSync(path.join(out, 'swe.jsonl'), 'utf8'), new RegExp(API_KEY));
  });

  it('writes a Harbor task whose oracle, with the synthesised test, scores 1 and no change below 1', async () => {
    const [id] = fs.readdirSync(path.join(out, 'tasks'));
    const harborDir = path.join(out, 'tasks', id!);
    const [oracle, none] = await Promise.all([
      runHarborContract({ harborDir, oracle: true, timeoutMs: 300_000 }),
      runHarborContract({ harborDir, oracle: false, timeoutMs: 300_000 }),
    ]);
    assert.equal(oracle.reward, 1, oracle.failure ?? JSON.stringify(oracle.verdicts));
    assert.ok(none.reward !== null && none.reward < 1);
  });

  it('gives the same bytes on a second run with the scripted model, and none of it without --model', async () => {
    const second = path.join(scratch, 'second');
    await mineOnce(fixtures, second, true);
    const a = datasetBytes(out);
    const b = datasetBytes(second);
    assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort());
    for (const [file, bytes] of a) assert.ok(b.get(file) === bytes, `${file} differs between two runs`);

    const plain = path.join(scratch, 'plain');
    const without = await mineOnce(fixtures, plain, false);
    assert.equal(without.repositories[0]!.tokens, undefined);
    assert.equal(without.repositories[0]!.funnel.specs_synthesised, undefined);
    assert.doesNotMatch(
      fs.readFileSync(path.join(plain, 'swe.jsonl'), 'utf8'),
      /observed_interactions|synth/,
    );
    assert.doesNotMatch(fs.readFileSync(path.join(plain, 'card.md'), 'utf8'), /Tokens per stage|synthesised/);
  });
});

describe('weave mine model flags', () => {
  it('refuses a synthesis setting without --model (exit 2, the flag named)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-mine-flags-'));
    try {
      fs.writeFileSync(path.join(dir, 'repos.txt'), 'nowhere\n');
      const failed = await run(process.execPath, [
        CLI,
        'mine',
        '--repos',
        path.join(dir, 'repos.txt'),
        '--out',
        path.join(dir, 'out'),
        '--max-specs',
        '2',
      ]).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      assert.equal(failed?.code, 2);
      assert.match(failed?.stderr ?? '', /--max-specs needs --model/);
      assert.equal(fs.existsSync(path.join(dir, 'out')), false, 'nothing mined');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
