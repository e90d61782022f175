// The over-strict flag of `weave mine review`, end to end with scripted models on 127.0.0.1. The npm fixture's task
// is mined with --model; the scripted synthesis agent adds a constraint that is over-strict by design: add() keeps
// summing (that part is real: a mutant of calc.js breaks it) *and* src/ holds calc.js alone. Two scripted agent
// models then review the dataset, one candidate each:
//   alt-model      makes calc.js exactly the gold's and adds a helper file src/util.js: every other spec passes,
//                  the constraint fails, its anchored code equals the gold's → the constraint is flagged over-strict
//   breaker-model  makes add() return |a + b|: the goal and the suite's own add test pass, the constraint fails,
//                  but calc.js differs from the gold's → a real violation, no flag from this candidate
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { reviewDataset, type DatasetReview } from '../../../src/core/tasks/bench/datasetReview';
import { DRAFT_SYSTEM_PROMPT_START } from '../../../src/core/draft/prompt';
import {
  startScriptedServer,
  type ScriptedServer,
  type ScriptStep,
} from '../../support/scriptedOpenAiServer';
import { CLI } from '../../support/paths';
import { makeMineFixtures, type MineFixtures } from './mineFixtures';

const run = promisify(execFile);
const SPEC = 'keep-add-sums-in-one-module';
const ADD = 'exports.add = (a, b) => a + b;';
const finish: ScriptStep = { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'done' } }] };
const tool = (name: string, args: Record<string, unknown>): ScriptStep => ({
  kind: 'tools',
  calls: [{ name, arguments: args }],
});

const DRAFT: ScriptStep[] = [
  tool('propose_spec', {
    spec: {
      id: 'add-sums-in-one-module',
      title: 'add sums, all in calc.js',
      kind: 'interface',
      statement:
        'add(a, b) shall return the sum of its arguments, and the calculator shall live in src/calc.js alone.',
      test: {
        command: 'node --test test/synth/one-module.test.js',
        files: ['test/synth/one-module.test.js'],
      },
      anchors: ['src/calc.js'],
      interactsWith: ['goal-test-subtract-test'],
    },
    testFiles: [
      {
        path: 'test/synth/one-module.test.js',
        content: [
          "const { test } = require('node:test');",
          "const assert = require('node:assert/strict');",
          "const fs = require('node:fs');",
          "const path = require('node:path');",
          "const { add } = require('../../src/calc');",
          "test('sums', () => assert.equal(add(-2, -3), -5));",
          "test('one module', () => assert.deepEqual(fs.readdirSync(path.join(__dirname, '../../src')), ['calc.js']));",
          '',
        ].join('\n'),
      },
    ],
  }),
  finish,
];

const goldSubtract = tool('edit', {
  path: 'src/calc.js',
  search: ADD,
  replace: `${ADD}\nexports.subtract = (a, b) => a - b;`,
});
const ALT: ScriptStep[] = [
  goldSubtract,
  tool('create_file', { path: 'src/util.js', content: 'exports.noop = () => {};\n' }),
  finish,
];
const BREAKER: ScriptStep[] = [
  tool('edit', {
    path: 'src/calc.js',
    search: ADD,
    replace: 'exports.add = (a, b) => Math.abs(a + b);\nexports.subtract = (a, b) => a - b;',
  }),
  finish,
];

describe('weave mine review: the over-strict flag', () => {
  let fixtures: MineFixtures;
  let scratch: string;
  let dataset: string;
  let server: ScriptedServer;
  let review: DatasetReview;

  before(async () => {
    fixtures = makeMineFixtures();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-mine-overstrict-'));
    dataset = path.join(scratch, 'dataset');
    const calc = (k: string): boolean => k.includes('Add subtract');
    server = await startScriptedServer({
      scripts: [
        { model: 'drafter', matches: (k) => k.startsWith(DRAFT_SYSTEM_PROMPT_START), steps: DRAFT },
        { model: 'alt-model', matches: calc, steps: ALT },
        { model: 'breaker-model', matches: calc, steps: BREAKER },
      ],
    });
    const reposFile = path.join(fixtures.dir, 'calc.txt');
    fs.writeFileSync(reposFile, 'npm-calc\n');
    const env = { ...process.env, WEAVE_API_KEY: 'sk-local' };
    const { stdout } = await run(
      process.execPath,
      [
        CLI,
        'mine',
        '--repos',
        reposFile,
        '--out',
        dataset,
        '--model',
        'drafter',
        '--base-url',
        server.baseURL,
        '--no-stream',
        '--json',
      ],
      { env, maxBuffer: 64 * 1024 * 1024 },
    );
    const mined = JSON.parse(stdout) as { repositories: Array<{ tasks: Array<{ synthesised?: string[] }> }> };
    assert.deepEqual(mined.repositories[0]?.tasks[0]?.synthesised, [SPEC], stdout);
    review = await reviewDataset({
      datasetDir: dataset,
      models: ['alt-model', 'breaker-model'],
      baseUrl: server.baseURL,
      apiKey: 'sk-local',
      workers: 2,
      candidates: 1,
      repeats: 1,
      budgets: { maxSteps: 8 },
    });
  });

  after(async () => {
    await server?.close();
    fixtures.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('flags the constraint that alone rejects a candidate whose code under it is the gold’s', () => {
    const [task] = review.tasks;
    assert.ok(task, JSON.stringify(review));
    // Neither candidate is resolved: the constraint fails for both.
    assert.deepEqual(task.resolved, { 'alt-model': [[false]], 'breaker-model': [[false]] });
    assert.deepEqual(task.over_strict, [SPEC]);
    assert.deepEqual(task.over_strict_evidence, [
      { spec: SPEC, model: 'alt-model', repeat: 1, candidate: 1 },
    ]);
    const card = fs.readFileSync(path.join(dataset, 'review.md'), 'utf8');
    assert.match(
      card,
      new RegExp(
        `Over-strict[^\\n]*\`${SPEC}\` in \`npm-calc-[^\`]+\` \\(alt-model, repeat 1, candidate 1\\)`,
      ),
    );
  });
});
