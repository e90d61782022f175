// `weave mine` end to end over six repositories made with real git: the dataset (Harbor tasks that verify, the
// manifest, metric.py, the JSONL files, the card with the funnel), a rerun that resumes and adds nothing, shards
// run as a real Slurm array job plus its merge job giving the single run's bytes, and a run killed in the middle
// of a repository leaving no partial task behind.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseToml } from '../../../src/core/toml';
import { runHarborContract } from '../../../src/core/tasks/harbor/harborContract';
import { CLI } from '../../support/paths';
import { until } from '../../support/polling';
import { startSlurm, type SlurmCluster } from '../../support/slurmCluster';
import { makeMineFixtures, type MineFixtures } from './mineFixtures';

const run = promisify(execFile);
// The dataset's entries (core/tasks/mine/datasetFiles.ts DATASET_ENTRIES), written out here so that a change
// to what the dataset holds is a change to this test too.
const DATASET = ['tasks', 'swe', 'dataset.toml', 'metric.py', 'swe.jsonl', 'data', 'card.md'];

interface Summary {
  tasks: number;
  ran: Array<{ key: string; outcome: string }>;
  repositories: Array<{
    key: string;
    line: string;
    funnel: Record<string, number>;
    tasks: Array<{ instance_id: string; fail_to_pass: string[]; pass_to_pass: string[] }>;
    rejections: Array<{ stage: string; reason: string }>;
    problem?: { stage: string; reason: string };
  }>;
}

async function weaveMine(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Summary> {
  const { stdout } = await run(process.execPath, [CLI, 'mine', ...args, '--json'], {
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Summary;
}

/** Every file of the dataset's entries with its bytes. */
function datasetBytes(out: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of DATASET) {
    const full = path.join(out, entry);
    if (!fs.existsSync(full)) continue;
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

function assertSameDataset(actual: string, expected: string): void {
  const a = datasetBytes(actual);
  const e = datasetBytes(expected);
  assert.deepEqual([...a.keys()].sort(), [...e.keys()].sort());
  for (const [file, bytes] of e)
    assert.ok(a.get(file) === bytes, `${file} differs between ${actual} and ${expected}`);
}

describe('weave mine', () => {
  let fixtures: MineFixtures;
  let scratch: string;
  let single: string;
  let summary: Summary;

  before(async () => {
    fixtures = makeMineFixtures();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-mine-'));
    single = path.join(scratch, 'single');
    summary = await weaveMine(['--repos', fixtures.reposFile, '--out', single]);
  });

  after(() => {
    fixtures.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('mines a task from each usable repository, each goal spec failing before and the rest of the suite kept', () => {
    assert.equal(summary.tasks, 4);
    const byLine = new Map(summary.repositories.map((r) => [r.line.split(/\s/)[0], r]));
    for (const [name, goal] of [
      ['npm-calc', 'goal-test-subtract-test'],
      ['npm-mono', 'goal-test-capitalize-test'],
      ['py-slug', 'goal-tests-test-strip'],
      ['py-stats', 'goal-tests-test-median'],
    ] as const) {
      const tasks = byLine.get(name)?.tasks ?? [];
      assert.equal(tasks.length, 1, `${name}: ${JSON.stringify(byLine.get(name))}`);
      assert.deepEqual(tasks[0]?.fail_to_pass, [goal], name);
      assert.equal(tasks[0]?.pass_to_pass.length, 1, name);
      assert.match(tasks[0]?.pass_to_pass[0] ?? '', /^keep-/, name);
    }
    // py-stats' commit also changed tests/test_mean.py, which passed before it: named goal-… at first, it is
    // verified as PASS_TO_PASS and renamed (metric.py reads the constraints by the keep- prefix).
    assert.deepEqual(byLine.get('py-stats')?.tasks[0]?.pass_to_pass, ['keep-tests-test-mean']);
  });

  it('keeps the repositories that gave nothing in the funnel, with their stage and reason', () => {
    const noTests = summary.repositories.find((r) => r.line === 'no-tests');
    assert.equal(noTests?.problem?.stage, 'candidate');
    assert.match(noTests?.problem?.reason ?? '', /no usable commit/);
    assert.equal(noTests?.funnel.candidates, 0);
    const broken = summary.repositories.find((r) => r.line === 'broken-setup');
    assert.equal(broken?.funnel.candidates, 1);
    assert.equal(broken?.funnel.environment_ready, 0);
    assert.deepEqual(
      broken?.rejections.filter((r) => r.stage === 'environment').map((r) => r.reason.split(':')[0]),
      ['environment set-up failed'],
    );
    const card = fs.readFileSync(path.join(single, 'card.md'), 'utf8');
    assert.match(card, /\| `no-tests` \| 2 \| 0 \| 0 \| 0 \| 0 \| 0 \| candidate: no usable commit/);
    assert.match(
      card,
      /\| `broken-setup` \| 2 \| 1 \| 0 \| 0 \| 0 \| 0 \| environment: environment set-up failed/,
    );
  });

  it('writes Harbor tasks that verify: the oracle scores 1 and no change scores below 1', async () => {
    const tasks = fs.readdirSync(path.join(single, 'tasks')).sort();
    assert.equal(tasks.length, 4);
    for (const task of tasks) {
      const harborDir = path.join(single, 'tasks', task);
      const [oracle, none] = await Promise.all([
        runHarborContract({ harborDir, oracle: true, timeoutMs: 300_000 }),
        runHarborContract({ harborDir, oracle: false, timeoutMs: 300_000 }),
      ]);
      assert.equal(oracle.reward, 1, `${task}: ${oracle.failure ?? JSON.stringify(oracle.verdicts)}`);
      assert.ok(none.reward !== null && none.reward < 1, `${task} without a change: ${none.reward}`);
    }
  });

  it("writes a manifest in Harbor's dataset format and JSONL files with one schema per row", () => {
    const manifest = parseToml(fs.readFileSync(path.join(single, 'dataset.toml'), 'utf8')) as {
      dataset: { name: string };
      tasks: Array<{ name: string; digest: string }>;
      files: Array<{ path: string; digest: string }>;
    };
    assert.equal(manifest.dataset.name, 'weave/mined');
    assert.deepEqual(
      manifest.tasks.map((t) => t.name),
      fs
        .readdirSync(path.join(single, 'tasks'))
        .sort()
        .map((t) => `weave/${t}`),
    );
    for (const ref of [...manifest.tasks, ...manifest.files])
      assert.match(ref.digest, /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(
      manifest.files.map((f) => f.path),
      ['metric.py'],
    );

    const swe = fs
      .readFileSync(path.join(single, 'swe.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const line of swe) {
      for (const field of [
        'repo',
        'instance_id',
        'base_commit',
        'patch',
        'test_patch',
        'problem_statement',
        'hints_text',
        'created_at',
        'version',
        'FAIL_TO_PASS',
        'PASS_TO_PASS',
        'environment_setup_commit',
      ])
        assert.ok(field in line, `swe.jsonl lacks ${field}`);
      assert.ok(fs.existsSync(path.join(single, line.task_dir as string, 'eval.sh')));
    }
    // The datasets json loader (Arrow's) needs one type per field across rows: Python reads the rows and unifies
    // their types field by field, an empty list fitting any list type (Arrow types it null, then promotes it),
    // and prints the first conflict it meets.
    const conflict = execFileSync(
      'python3',
      [
        '-c',
        'import json,sys\n' +
          'def unify(a, b, at):\n' +
          '  if isinstance(a, list) and isinstance(b, list):\n' +
          '    return a if not b else b if not a else [unify(a[0], b[0], at + "[]")]\n' +
          '  if isinstance(a, dict) and isinstance(b, dict):\n' +
          '    if sorted(a) != sorted(b): raise SystemExit("%s: fields %s vs %s" % (at, sorted(a), sorted(b)))\n' +
          '    return {k: unify(a[k], b[k], at + "." + k) for k in a}\n' +
          '  if a != b: raise SystemExit("%s: %s vs %s" % (at, a, b))\n' +
          '  return a\n' +
          'def shape(v):\n' +
          '  if isinstance(v, dict): return {k: shape(x) for k, x in v.items()}\n' +
          '  if isinstance(v, list):\n' +
          '    s = []\n' +
          '    for x in v: s = unify(s, [shape(x)], "[]")\n' +
          '    return s\n' +
          '  return type(v).__name__\n' +
          'rows = [shape(json.loads(l)) for l in open(sys.argv[1])]\n' +
          'u = rows[0]\n' +
          'for r in rows[1:]: u = unify(u, r, "row")\n' +
          'print(len(rows))',
        path.join(single, 'data', 'train.jsonl'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(conflict.trim(), '4');
  });

  it('computes the three metrics from a rewards JSONL with metric.py', () => {
    const rewards = path.join(scratch, 'rewards.jsonl');
    fs.writeFileSync(
      rewards,
      [
        { reward: 1, 'spec.goal-a': 1, 'spec.keep-b': 1 },
        { reward: 0, 'spec.goal-a': 1, 'spec.keep-b': 0 },
        { reward: 0, 'spec.goal-a': 0, 'spec.keep-b': 1 },
        null,
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const output = path.join(scratch, 'metric.json');
    execFileSync('python3', [path.join(single, 'metric.py'), '-i', rewards, '-o', output]);
    assert.deepEqual(JSON.parse(fs.readFileSync(output, 'utf8')), {
      strict_success: 0.25,
      spec_pass_rate: 4 / 6,
      constraint_violation_rate: 1 / 3,
      trials: 4,
    });
  });

  it('resumes: a second run mines nothing again and writes the same bytes', async () => {
    const before = datasetBytes(single);
    const again = await weaveMine(['--repos', fixtures.reposFile, '--out', single]);
    assert.deepEqual(new Set(again.ran.map((r) => r.outcome)), new Set(['already mined']));
    assert.equal(again.ran.length, 6);
    assert.deepEqual(datasetBytes(single), before);
  });

  describe('on a real Slurm', () => {
    let slurm: SlurmCluster;
    before(async () => {
      slurm = await startSlurm();
    });
    after(() => slurm?.stop());

    it('runs the shards as an sbatch array and merges them after it into the single run’s bytes', async () => {
      const out = path.join(scratch, 'slurm');
      const emitted = JSON.parse(
        execFileSync(
          process.execPath,
          [
            CLI,
            'mine',
            '--repos',
            fixtures.reposFile,
            '--out',
            out,
            '--emit',
            'slurm',
            '--shards',
            '2',
            '--json',
          ],
          {
            encoding: 'utf8',
          },
        ),
      ) as { files: string[] };
      const submit = emitted.files[0] as string;
      const [arrayJob, mergeJob] = execFileSync('sh', [submit], { env: slurm.env, encoding: 'utf8' })
        .trim()
        .split(' ');
      assert.match(arrayJob ?? '', /^\d+$/);
      assert.match(mergeJob ?? '', /^\d+$/);
      const state = (job: string): string =>
        execFileSync('scontrol', ['show', 'job', job], { env: slurm.env, encoding: 'utf8' });
      await until(
        `the merge job ${mergeJob} to finish (${slurm.dir})`,
        () => /JobState=(COMPLETED|FAILED|CANCELLED|TIMEOUT)/.exec(state(mergeJob as string))?.[1],
        { timeoutMs: 900_000, intervalMs: 1000 },
      );
      assert.match(
        state(mergeJob as string),
        /JobState=COMPLETED/,
        fs.readdirSync(path.join(out, 'jobs')).join(' '),
      );
      // Both array tasks ran on the cluster, each its own shard.
      for (const shard of ['1', '2'])
        assert.ok(fs.readdirSync(path.join(out, 'shards', shard, 'repos')).some((n) => !n.startsWith('.')));
      assertSameDataset(out, single);
    });
  });

  it('leaves no partial task when killed in the middle of a repository, and a rerun completes it', async () => {
    const out = path.join(scratch, 'killed');
    const child = spawn(process.execPath, [CLI, 'mine', '--repos', fixtures.reposFile, '--out', out], {
      detached: true,
      stdio: 'ignore',
    });
    const reposDir = path.join(out, 'repos');
    // Killed once a repository is being verified: its partial folder exists and holds an exported task.
    await until(
      'a repository in the middle of its verification',
      () =>
        fs.existsSync(reposDir) &&
        fs
          .readdirSync(reposDir)
          .some((n) => n.includes('.partial-') && fs.existsSync(path.join(reposDir, n, 'swe'))),
      { timeoutMs: 300_000, intervalMs: 100 },
    );
    process.kill(-(child.pid as number), 'SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const finished = fs.readdirSync(reposDir).filter((n) => !n.startsWith('.'));
    for (const name of finished) assert.ok(fs.existsSync(path.join(reposDir, name, 'result.json')), name);
    assert.equal(fs.existsSync(path.join(out, 'tasks')), false, 'no dataset before every repository is done');
    await weaveMine(['--repos', fixtures.reposFile, '--out', out]);
    assert.deepEqual(
      fs.readdirSync(reposDir).filter((n) => n.startsWith('.')),
      [],
      'a partial folder is left',
    );
    assertSameDataset(out, single);
  });
});
