// Shared environments in `weave mine` (issue #37): each environment version (lockfiles, set-up commands,
// toolchains) is set up once in the mining cache and every candidate's runs get a copy of it. What must hold: the
// dataset is byte for byte the one mined with every run setting up on its own (--no-env-reuse); a candidate that
// changes its lockfile gets an environment of its own (its new dependency is in no other); a candidate whose tests
// write into the shared environment is rejected for that attempt, named in the funnel.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CLI } from '../../support/paths';
import { makeEnvFixtures, type EnvFixtures } from './envFixtures';

const run = promisify(execFile);
const DATASET = ['tasks', 'swe', 'dataset.toml', 'metric.py', 'swe.jsonl', 'data', 'card.md'];

interface Summary {
  tasks: number;
  repositories: Array<{
    key: string;
    line: string;
    tasks: Array<{ instance_id: string; subject: string; fail_to_pass: string[] }>;
    rejections: Array<{ stage: string; subject: string; reason: string }>;
  }>;
}

interface RunLog {
  environments?: { built: number; reused: number; fresh: number; fresh_reasons: string[] };
}

async function weaveMine(args: string[]): Promise<Summary> {
  const { stdout } = await run(process.execPath, [CLI, 'mine', ...args, '--json'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Summary;
}

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

function runLog(out: string, summary: Summary, name: string): RunLog {
  const repo = summary.repositories.find((r) => r.line === name);
  assert.ok(repo, name);
  return JSON.parse(fs.readFileSync(path.join(out, 'repos', repo.key, 'run-log.json'), 'utf8')) as RunLog;
}

describe('weave mine: environments set up once and shared', () => {
  let fixtures: EnvFixtures;
  let scratch: string;
  let shared: string;
  let own: string;
  let withReuse: Summary;
  let without: Summary;

  before(async () => {
    fixtures = makeEnvFixtures();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-mine-env-'));
    shared = path.join(scratch, 'shared');
    own = path.join(scratch, 'own');
    withReuse = await weaveMine(['--repos', fixtures.sharedList, '--out', shared]);
    without = await weaveMine(['--repos', fixtures.sharedList, '--out', own, '--no-env-reuse']);
  });

  after(() => {
    fixtures.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('mines every candidate, and the dataset is the one every run setting up on its own gives, byte for byte', () => {
    const tasks = (s: Summary) => s.repositories.flatMap((r) => r.tasks.map((t) => t.subject)).sort();
    assert.deepEqual(tasks(withReuse), [
      'fmt: number',
      'fmt: percent',
      'spread: the largest minus the smallest',
    ]);
    assert.deepEqual(tasks(without), tasks(withReuse));
    // The candidate adding a dependency passes export's verification (its gold side needs the new dependency:
    // its own environment) and stops at Harbor's contract, whose image is set up at the base, with or without
    // sharing: the oracle's code then lacks the dependency.
    const underline = (s: Summary) =>
      s.repositories.flatMap((r) => r.rejections).find((r) => r.subject === 'fmt: underline with a rule');
    assert.equal(underline(withReuse)?.stage, 'task');
    assert.match(underline(withReuse)?.reason ?? '', /^Harbor: the oracle/);
    assert.deepEqual(underline(without), underline(withReuse));
    const a = datasetBytes(shared);
    const b = datasetBytes(own);
    assert.ok(a.size > 10);
    assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort());
    for (const [file, bytes] of b) assert.ok(a.get(file) === bytes, `${file} differs`);
  });

  it('sets each environment version up once: the lockfile-changing candidate gets its own, the rest share', () => {
    const npm = runLog(shared, withReuse, 'npm-locked').environments;
    // Two versions of package.json + lockfile: the three older candidates' (and the last one's base side), and
    // the last candidate's gold side with its new dependency.
    assert.equal(npm?.built, 2, JSON.stringify(npm));
    assert.equal(npm?.fresh, 0, JSON.stringify(npm));
    // 3 candidates × (base, gold, oracle, no agent) + the last one's 4: every set-up but the two builds reused.
    assert.ok((npm?.reused ?? 0) >= 12, JSON.stringify(npm));
    const py = runLog(shared, withReuse, 'py-req').environments;
    assert.equal(py?.built, 1, JSON.stringify(py));
    assert.equal(py?.fresh, 0, JSON.stringify(py));
    assert.equal(runLog(own, without, 'npm-locked').environments, undefined);
    // In the cache: three environments, and only one holds the new dependency.
    const envs = path.join(shared, '.cache', 'environments');
    const ready = fs.readdirSync(envs).filter((k) => fs.existsSync(path.join(envs, k, 'ready.json')));
    assert.equal(ready.length, 3, ready.join(', '));
    const withRule = ready.filter((k) => fs.existsSync(path.join(envs, k, 'tree', 'node_modules', 'rule')));
    assert.equal(withRule.length, 1);
    assert.ok(ready.some((k) => fs.existsSync(path.join(envs, k, 'tree', '.weave-venv', 'pyvenv.cfg'))));
  });

  it('rejects a candidate whose tests write into the shared environment, naming the write; set up on its own it verifies', async () => {
    const writer = await weaveMine(['--repos', fixtures.writerList, '--out', path.join(scratch, 'writer')]);
    const repo = writer.repositories[0];
    assert.equal(writer.tasks, 0, JSON.stringify(repo));
    const rejection = repo?.rejections.find((r) => r.subject === 'fmt: left');
    assert.equal(rejection?.stage, 'task', JSON.stringify(repo?.rejections));
    assert.match(
      rejection?.reason ?? '',
      /wrote into the shared environment \(an attempt\): node_modules\/\.left-note/,
    );
    const card = fs.readFileSync(path.join(scratch, 'writer', 'card.md'), 'utf8');
    assert.match(card, /node_modules\/\.left-note/);
    // The environment in the cache is as it was built: the write went to the run's copy.
    const envs = path.join(scratch, 'writer', '.cache', 'environments');
    for (const key of fs.readdirSync(envs).filter((k) => !k.endsWith('.lock')))
      assert.ok(!fs.existsSync(path.join(envs, key, 'tree', 'node_modules', '.left-note')), key);
    const alone = await weaveMine([
      '--repos',
      fixtures.writerList,
      '--out',
      path.join(scratch, 'writer-own'),
      '--no-env-reuse',
    ]);
    assert.equal(alone.tasks, 1, JSON.stringify(alone.repositories[0]?.rejections));
  });
});
