// `weave mine review` end to end: three tasks mined from the fixture repositories (real git, the sandbox), two
// scripted models behind one real OpenAI-protocol server on 127.0.0.1, two candidates each, every candidate
// scored by `weave eval`. Scripted so each figure and flag has one right value:
//   npm-calc (subtract)    steady: first candidate adds (wrong), second subtracts (right); sloppy: both add
//   npm-mono (capitalize)  both models capitalize on every candidate → easy
//   py-slug (strip)        both models finish without a change → hard
// A second review with two repeats keeps the first repeat's cells and runs a new one, where steady's first
// candidate (its conversation continuing) now subtracts: npm-calc is flaky for steady, and for no one else.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { reviewDataset, type DatasetReview } from '../../../src/core/tasks/bench/datasetReview';
import {
  startScriptedServer,
  type ScriptedServer,
  type ScriptStep,
} from '../../support/scriptedOpenAiServer';
import { CLI } from '../../support/paths';
import { makeMineFixtures, type MineFixtures } from './mineFixtures';

const run = promisify(execFile);
const STEADY = 'steady-model';
const SLOPPY = 'sloppy-model';
const DATASET = ['tasks', 'swe', 'dataset.toml', 'metric.py', 'swe.jsonl', 'data', 'card.md'];

const edit = (file: string, search: string, replace: string): ScriptStep => ({
  kind: 'tools',
  calls: [{ name: 'edit', arguments: { path: file, search, replace } }],
});
const finish: ScriptStep = { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'done' } }] };
const ADD = 'exports.add = (a, b) => a + b;';
const subtract = (body: string): ScriptStep =>
  edit('src/calc.js', ADD, `${ADD}\nexports.subtract = (a, b) => ${body};`);
const capitalize = edit(
  'index.js',
  'exports.upper = (s) => s.toUpperCase();',
  'exports.upper = (s) => s.toUpperCase();\nexports.capitalize = (s) => s.charAt(0).toUpperCase() + s.slice(1);',
);

const calc = (k: string): boolean => k.includes('Add subtract');
const mono = (k: string): boolean => k.includes('capitalize the first letter');
const slug = (k: string): boolean => k.includes('Strip surrounding whitespace');

/** Files of the dataset's entries with their bytes: the review must not change one. */
function datasetBytes(out: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of DATASET) {
    const full = path.join(out, entry);
    const list = fs.statSync(full).isDirectory()
      ? fs.readdirSync(full, { recursive: true, encoding: 'utf8' }).map((f) => path.join(entry, f))
      : [entry];
    for (const rel of list) {
      const file = path.join(out, rel);
      if (fs.statSync(file).isFile()) files.set(rel, fs.readFileSync(file).toString('base64'));
    }
  }
  return files;
}

describe('weave mine review', () => {
  let fixtures: MineFixtures;
  let scratch: string;
  let dataset: string;
  let server: ScriptedServer;
  let review: DatasetReview;
  let before1: Map<string, string>;

  before(async () => {
    fixtures = makeMineFixtures();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-mine-review-'));
    dataset = path.join(scratch, 'dataset');
    const reposFile = path.join(fixtures.dir, 'three.txt');
    fs.writeFileSync(reposFile, 'npm-calc\nnpm-mono HEAD~1..HEAD packages/strings\npy-slug\n');
    await run(process.execPath, [CLI, 'mine', '--repos', reposFile, '--out', dataset, '--json'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    before1 = datasetBytes(dataset);
    server = await startScriptedServer({
      scripts: [
        // Steps are taken in turn within a conversation; the second repeat continues each conversation.
        {
          model: STEADY,
          seed: 1,
          matches: calc,
          steps: [subtract('a + b'), finish, subtract('a - b'), finish],
        },
        {
          model: STEADY,
          seed: 2,
          matches: calc,
          steps: [subtract('a - b'), finish, subtract('a - b'), finish],
        },
        { model: SLOPPY, matches: calc, steps: [subtract('a + b'), finish, subtract('a + b'), finish] },
        { matches: mono, steps: [capitalize, finish, capitalize, finish] },
        { matches: slug, steps: [finish] },
      ],
    });
    review = await reviewDataset({
      datasetDir: dataset,
      models: [STEADY, SLOPPY],
      baseUrl: server.baseURL,
      workers: 2,
      candidates: 2,
      repeats: 1,
    });
  });

  after(async () => {
    await server.close();
    fixtures.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const figures = (r: DatasetReview, model: string) => {
    const m = r.models.find((x) => x.model === model);
    assert.ok(m, model);
    return m;
  };
  const task = (r: DatasetReview, pick: (id: string) => boolean) => {
    const t = r.tasks.find((x) => pick(x.instance_id));
    assert.ok(t, 'task present');
    return t;
  };

  it('scores every candidate: Pass@1 misses what the verified ranking (Best@N) and Pass@N find', () => {
    assert.equal(review.tasks.length, 3);
    assert.deepEqual(task(review, (id) => id.startsWith('npm-calc')).resolved, {
      [STEADY]: [[false, true]],
      [SLOPPY]: [[false, false]],
    });
    const steady = figures(review, STEADY);
    assert.equal(steady.attempts, 3);
    // calc: first wrong, ranked best right; mono: both right; slug: none.
    assert.equal(steady.pass_at_1, 1 / 3);
    assert.equal(steady.best_at_n, 2 / 3);
    assert.equal(steady.pass_at_n, 2 / 3);
    assert.equal(steady.choice_accuracy, 1);
    const sloppy = figures(review, SLOPPY);
    assert.equal(sloppy.pass_at_1, 1 / 3);
    assert.equal(sloppy.best_at_n, 1 / 3);
    assert.equal(sloppy.pass_at_n, 1 / 3);
  });

  it('flags the task no model solves as hard and the one every model solves as easy', () => {
    const flags = review.tasks.map((t) => [t.instance_id.split('-')[1], t.hard, t.easy, t.flaky.length]);
    assert.deepEqual(flags, [
      ['calc', false, false, 0],
      ['mono', false, true, 0],
      ['slug', true, false, 0],
    ]);
    const card = fs.readFileSync(path.join(dataset, 'review.md'), 'utf8');
    assert.match(card, /\| steady-model \| 3 \| 33\.3% \| 66\.7% \| 66\.7% \| 100\.0% \|/);
    assert.match(card, /Hard[^\n]*`py-slug-[^`]+`/);
    assert.match(card, /Easy[^\n]*`npm-mono-[^`]+`/);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dataset, 'review.json'), 'utf8')), review);
  });

  it('leaves every file of the dataset byte-identical', () => {
    const after1 = datasetBytes(dataset);
    assert.deepEqual([...after1.keys()].sort(), [...before1.keys()].sort());
    for (const [file, bytes] of before1) assert.ok(after1.get(file) === bytes, `${file} changed`);
  });

  it('keeps the first repeat and flags the task whose outcome changes in the second as flaky', async () => {
    const requests = server.chatRequests().length;
    const { stdout } = await run(
      process.execPath,
      [
        CLI,
        'mine',
        'review',
        dataset,
        '--model',
        STEADY,
        SLOPPY,
        '--repeats',
        '2',
        '--base-url',
        server.baseURL,
        '--json',
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const twice = JSON.parse(stdout) as DatasetReview;
    const calcTask = task(twice, (id) => id.startsWith('npm-calc'));
    assert.deepEqual(calcTask.resolved[STEADY], [
      [false, true],
      [true, true],
    ]);
    assert.deepEqual(calcTask.flaky, [STEADY]);
    assert.deepEqual(
      twice.tasks.filter((t) => t.flaky.length > 0).map((t) => t.instance_id),
      [calcTask.instance_id],
    );
    // Pass@1 over both repeats: calc wrong then right, mono right twice, slug never.
    assert.equal(figures(twice, STEADY).pass_at_1, 3 / 6);
    // The first repeat's cells were kept (its outcomes above are unchanged); the second asked every model.
    const asked = server.chatRequests().length - requests;
    assert.ok(asked >= 12, `${asked} requests in the second repeat`);
  });
});

describe('weave mine review: bad input', () => {
  it('refuses a folder that is not a dataset, and a missing --model, with exit code 2', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-mine-review-empty-'));
    try {
      const cases: Array<[string[], RegExp]> = [
        [['review', empty, '--model', 'm', '--base-url', 'http://127.0.0.1:9/v1'], /no swe\/ folder/],
        [['review', empty], /review needs --model/],
        [['review', '--model', 'm'], /review needs the dataset folder/],
        [['review', empty, '--model', 'm', '--candidates', '0'], /--candidates must be a whole number/],
      ];
      for (const [args, message] of cases) {
        const failed = await run(process.execPath, [CLI, 'mine', ...args]).then(
          () => undefined,
          (e: { code: number; stderr: string }) => e,
        );
        assert.ok(failed, `${args.join(' ')} must fail`);
        assert.equal(failed.code, 2, failed.stderr);
        assert.match(failed.stderr, message);
      }
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
