// `weave bench` on two copies of the demo task: two scripted models behind one real OpenAI-protocol server (one
// fixes the secret caching properly, one disables the cache and breaks cache-hit and hit-rate), then an external
// agent command that applies the gold patch. Leaderboard rows must differ as scripted; a rerun resumes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBench, type BenchResult } from '../../../src/core/tasks/bench/benchRun';
import { exportTask } from '../../../src/core/tasks/export/exportTask';
import {
  startScriptedServer,
  type ScriptedServer,
  type ScriptStep,
} from '../../support/scriptedOpenAiServer';
import { disableCacheSteps, fixSecretCachingSteps } from '../agent/demoScripts';
import { applyPatch, CLI, makeDemoRepo, readPatch } from '../../support/demoRepo';

const CAREFUL = 'careful-model';
const CARELESS = 'careless<model>';

/** Exports the demo task once and copies it (new instance_id and goal, so each is its own conversation). */
export async function demoTasks(dir: string, count: number): Promise<string[]> {
  const repo = makeDemoRepo();
  try {
    applyPatch(repo.workspace, readPatch('fix-secret-caching.patch'));
    const first = path.join(dir, 'source');
    const result = await exportTask({ workspaceDir: repo.workspace, outDir: first, format: 'swe' });
    assert.equal(result.verified, true, JSON.stringify(result.reasons));
    const ids: string[] = [];
    for (let i = 1; i <= count; i++) {
      const id = `demo-${String(i).padStart(2, '0')}`;
      const copy = path.join(dir, 'tasks', id);
      fs.cpSync(first, copy, { recursive: true });
      const task = JSON.parse(fs.readFileSync(path.join(copy, 'task.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      task.instance_id = id;
      task.goal = `${String(task.goal)} (task ${id})`;
      fs.writeFileSync(path.join(copy, 'task.json'), JSON.stringify(task));
      ids.push(id);
    }
    fs.rmSync(first, { recursive: true, force: true });
    return ids;
  } finally {
    repo.cleanup();
  }
}

describe('weave bench', () => {
  let scratch: string;
  let server: ScriptedServer;
  let result: BenchResult;
  let requestsAfterFirstRun: number;

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-run-'));
    await demoTasks(scratch, 2);
    server = await startScriptedServer({
      scripts: [
        { model: CAREFUL, matches: () => true, steps: fixSecretCachingSteps() },
        { model: CARELESS, matches: () => true, steps: disableCacheSteps() },
      ],
    });
    const options = {
      taskDirs: [path.join(scratch, 'tasks')],
      models: [CAREFUL, CARELESS],
      baseUrl: server.baseURL,
      workers: 2,
      outDir: path.join(scratch, 'out'),
      prices: { [CAREFUL]: { input: 2, output: 8 } },
    };
    result = await runBench(options);
    requestsAfterFirstRun = server.chatRequests().length;
  });

  after(async () => {
    await server.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const row = (model: string) => {
    const r = result.leaderboard.rows.find((x) => x.model === model);
    assert.ok(r, model);
    return r;
  };

  it('ranks the careful model first: resolved, compliant, nothing broken', () => {
    assert.equal(result.leaderboard.rows[0]?.model, CAREFUL);
    const careful = row(CAREFUL);
    assert.equal(careful.resolved_rate, 1);
    assert.equal(careful.strict_compliance_rate, 1);
    assert.equal(careful.broken_constraints, 0);
    assert.ok(careful.tokens.total > 0, 'the scripted server reports usage');
    assert.ok(careful.cost_usd !== null && careful.cost_usd > 0);
  });

  it('shows what the careless model broke, per model and per kind', () => {
    const careless = row(CARELESS);
    assert.equal(careless.resolved_rate, 0);
    assert.equal(careless.strict_compliance_rate, 0);
    assert.ok(careless.partial_compliance > 0 && careless.partial_compliance < 1);
    assert.ok(careless.broken_constraints >= 4, 'cache-hit and hit-rate broken in both tasks');
    assert.ok(careless.broken_rate > 0);
    assert.equal(careless.cost_usd, null, 'no price given');
    assert.ok((careless.by_kind.functional?.broken ?? 0) > 0, 'cache-hit is functional');
    assert.equal(row(CAREFUL).by_kind.functional?.broken, 0);
    const report = result.reports[CARELESS];
    assert.ok(report?.instances['demo-01']?.tests_status.PASS_TO_FAIL.failure.includes('cache-hit'));
  });

  it('writes predictions, trajectories and reports per model, and an escaped self-contained page', () => {
    const dir = path.join(scratch, 'out', CAREFUL);
    const predictions = fs.readFileSync(path.join(dir, 'predictions.jsonl'), 'utf8').trim().split('\n');
    assert.equal(predictions.length, 2);
    assert.ok(
      predictions.every((l) => (JSON.parse(l) as { model_patch: string }).model_patch.includes('cacheable')),
    );
    assert.ok(fs.existsSync(path.join(dir, 'trajectories', 'demo-01.jsonl')));
    assert.ok(fs.existsSync(path.join(dir, 'report.json')));
    const html = fs.readFileSync(result.leaderboardHtml, 'utf8');
    assert.ok(html.includes('careless&#60;model&#62;'));
    assert.ok(!html.includes('careless<model>'), 'the model name is escaped');
    assert.ok(!/<script|<link|src=|href=/i.test(html), 'no script and no external asset');
    const json = JSON.parse(fs.readFileSync(result.leaderboardJson, 'utf8')) as { rows: unknown[] };
    assert.equal(json.rows.length, 2);
  });

  it('resumes: a second run reruns no finished cell and asks the model nothing', async () => {
    const again = await runBench({
      taskDirs: [path.join(scratch, 'tasks')],
      models: [CAREFUL, CARELESS],
      baseUrl: server.baseURL,
      workers: 2,
      outDir: path.join(scratch, 'out'),
    });
    assert.equal(again.resumed, 4);
    assert.equal(server.chatRequests().length, requestsAfterFirstRun);
    assert.equal(again.leaderboard.rows[0]?.resolved_rate, 1);
  });

  it('runs an external agent command in the task checkout with the instruction on stdin', async () => {
    const seen = path.join(scratch, 'seen');
    fs.mkdirSync(seen);
    const tasks = path.join(scratch, 'tasks');
    // The oracle's answers, kept outside the task folders: the agent cannot see those (below).
    const answers = path.join(scratch, 'answers');
    fs.mkdirSync(answers);
    for (const id of fs.readdirSync(tasks)) {
      fs.copyFileSync(path.join(tasks, id, 'gold.patch'), path.join(answers, `${id}.patch`));
    }
    const external = await runBench({
      taskDirs: [tasks],
      models: ['oracle'],
      baseUrl: '',
      agentCommand: `cat > '${seen}'/"$WEAVE_TASK_ID".txt && git apply '${answers}'/"$WEAVE_TASK_ID".patch`,
      workers: 2,
      outDir: path.join(scratch, 'external'),
    });
    assert.equal(external.leaderboard.rows[0]?.resolved_rate, 1);
    assert.equal(external.leaderboard.rows[0]?.review_flags.tampering, 0);
    const instruction = fs.readFileSync(path.join(seen, 'demo-02.txt'), 'utf8');
    assert.ok(instruction.includes('(task demo-02)'), 'the task’s own instruction');
    assert.ok(instruction.includes('no-secret-caching'));
  });

  it('hides the task folder from the external agent: its gold patch cannot be copied', async () => {
    const tasks = path.join(scratch, 'tasks');
    const copier = await runBench({
      taskDirs: [tasks],
      models: ['copier'],
      baseUrl: '',
      agentCommand: `ls '${tasks}'/"$WEAVE_TASK_ID"; git apply '${tasks}'/"$WEAVE_TASK_ID"/gold.patch`,
      workers: 2,
      outDir: path.join(scratch, 'copier'),
    });
    assert.equal(copier.leaderboard.rows[0]?.resolved_rate, 0);
  });
});

describe('weave bench: bad input', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, 'bench', ...args], { encoding: 'utf8' });

  it('says what is missing or malformed, with exit code 2', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--model', 'm', '--out', 'o'], /--tasks DIR\.\.\. is required/],
      [['--tasks', 't', '--out', 'o'], /--model M\.\.\. is required/],
      [['--tasks', 't', '--model', 'm'], /--out DIR is required/],
      [['--tasks', 't', '--model', 'm', 'm', '--out', 'o'], /a --model is given twice/],
      [['--tasks', 't', '--model', 'm', '--out', 'o', '--workers', '0'], /--workers must be a whole number/],
      [
        ['--tasks', 't', '--model', 'm', '--out', 'o', '--price', 'm=cheap'],
        /--price must look like MODEL=IN\/OUT/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = run(...args);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });

  it('names a --tasks folder that holds no task', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-empty-'));
    try {
      const r = run(
        '--tasks',
        empty,
        '--model',
        'm',
        '--out',
        path.join(empty, 'out'),
        '--base-url',
        'http://127.0.0.1:9/v1',
      );
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /no task found/);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('notices a missing key before its first cell (before it even reads the tasks)', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-nokey-'));
    try {
      const env = { ...process.env };
      for (const name of ['WEAVE_API_KEY', 'OPENAI_API_KEY', 'WEAVE_BASE_URL', 'OPENAI_BASE_URL'])
        delete env[name];
      const out = path.join(empty, 'out');
      const r = spawnSync(
        process.execPath,
        // A remote endpoint is never contacted: the missing key is found first.
        [
          CLI,
          'bench',
          '--tasks',
          empty,
          '--model',
          'm',
          '--out',
          out,
          '--base-url',
          'https://models.example.com/v1',
        ],
        { encoding: 'utf8', env },
      );
      assert.equal(r.status, 2, r.stderr);
      assert.match(
        r.stderr,
        /^weave bench: No API key for https:\/\/models\.example\.com\/v1: set OPENAI_API_KEY/m,
      );
      assert.doesNotMatch(r.stderr, /no task found/);
      assert.equal(fs.existsSync(out), false, 'no cell started');
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

// The judgement columns on scripted answers whose truth is known: one task, one model, two candidates a cell.
// Seed 1 fixes the task (8 of 8 specs pass), seed 2 switches the cache off (cache-hit fails, hit-rate and
// no-stale-read are blocked by it: 5 of 8). Both blind reviews call every spec satisfied: 13 real passes of 16
// claims, no real pass missed. The model picks cand-2: it loses to the first candidate, regret 8 - 5 = 3 specs.
describe('weave bench --review --self-pick', () => {
  it('scores the blind reviews and the self-pick, and keeps cand-1 as the prediction', async () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-judgement-'));
    const isReview = (k: string): boolean => k.startsWith('You review');
    const isPick = (k: string): boolean => k.startsWith('Several attempts');
    const satisfied: ScriptStep = {
      kind: 'text',
      content: JSON.stringify({
        specs: [
          'response-shape',
          'cache-hit',
          'no-stale-read',
          'no-error-caching',
          'size-budget',
          'hit-rate',
          'no-secret-caching',
          'header-names',
        ].map((id) => ({ id, verdict: 'satisfied', evidence: id })),
      }),
    };
    const server = await startScriptedServer({
      scripts: [
        {
          matches: isPick,
          steps: [{ kind: 'text', content: JSON.stringify({ candidate: 2, reason: 'smaller' }) }],
        },
        { seed: 1, matches: isReview, steps: [satisfied] },
        { seed: 2, matches: isReview, steps: [satisfied] },
        { seed: 1, matches: (k) => !isReview(k), steps: fixSecretCachingSteps() },
        { seed: 2, matches: (k) => !isReview(k), steps: disableCacheSteps() },
      ],
    });
    try {
      await demoTasks(scratch, 1);
      const result = await runBench({
        taskDirs: [path.join(scratch, 'tasks')],
        models: ['judge'],
        baseUrl: server.baseURL,
        workers: 1,
        outDir: path.join(scratch, 'out'),
        review: true,
        selfPickCandidates: 2,
      });
      const row = result.leaderboard.rows[0]!;
      assert.equal(row.resolved, 1, 'cand-1, the fix, is the scored prediction');
      assert.equal(row.review_precision, 13 / 16);
      assert.equal(row.review_recall, 1);
      assert.equal(row.self_pick_regret, 3);
      assert.deepEqual(row.self_pick_vs_first, { beats: 0, equal: 0, loses: 1 });
      const html = fs.readFileSync(result.leaderboardHtml, 'utf8');
      assert.match(html, /<th>Review precision<\/th><th>Review recall<\/th><th>Self-pick regret<\/th>/);
      assert.match(
        html,
        />81\.3%<\/td><td class="n">100\.0%<\/td><td class="n">3\.00 specs \(vs first: 0 beats, 0 equal, 1 loses\)</,
      );
    } finally {
      await server.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
