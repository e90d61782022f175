// Both export formats from one verified task, on the demo (node:test), a Python src-layout library (pytest) and a
// lockfile-less npm library: task.toml parsed back with smol-toml, Harbor's contract run locally (oracle → 1,
// no agent → < 1, an agent that edits the spec tests → still < 1), and `weave eval --gold` on the SWE-bench side.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportTask, type ExportResult } from '../../../src/core/tasks/export/exportTask';
import { evaluate } from '../../../src/core/tasks/eval/evalTasks';
import { runHarborContract, setupSteps } from '../../../src/core/tasks/harbor/harborContract';
import { parseToml } from '../../../src/core/toml';
import { environmentSetupCommands } from '../../../src/core/tasks/environmentSetup';
import { applyPatch, CLI, makeDemoRepo, readPatch, type DemoRepo } from '../../support/demoRepo';
import { makeLockfileLessNpmRepo, makePythonRepo } from './fixtureRepos';

const CONTRACT_TIMEOUT_MS = 240_000;

function read(dir: string, file: string): string {
  return fs.readFileSync(path.join(dir, file), 'utf8');
}

describe('weave export --format both on examples/', () => {
  let repo: DemoRepo;
  let out: string;
  let result: ExportResult;

  before(async () => {
    repo = makeDemoRepo();
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-harbor-out-'));
    applyPatch(repo.workspace, readPatch('fix-secret-caching.patch'));
    result = await exportTask({
      workspaceDir: repo.workspace,
      outDir: path.join(out, 'task'),
      weaveVersion: 'test',
    });
  });

  after(() => {
    repo.cleanup();
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('writes the SWE-bench task and the Harbor task side by side, both verified', () => {
    assert.equal(result.verified, true, JSON.stringify(result.reasons));
    assert.equal(result.harborDir, path.join(out, 'task', 'harbor'));
    for (const file of [
      'task.toml',
      'instruction.md',
      'environment/Dockerfile',
      'environment/repo/src/client.js',
      'tests/test.sh',
      'tests/weave_reward.py',
      'tests/files/test/no-secret-caching.test.js',
      'solution/solve.sh',
    ]) {
      assert.ok(fs.existsSync(path.join(out, 'task', 'harbor', file)), file);
    }
    assert.ok(fs.existsSync(path.join(out, 'task', 'eval.sh')));
  });

  it('task.toml parses back with Harbor’s sections and timeouts from the specs', () => {
    const config = parseToml(read(result.harborDir as string, 'task.toml')) as Record<
      string,
      Record<string, unknown>
    >;
    const specSeconds = result.task.specs.reduce((sum, s) => sum + s.test.timeoutSeconds, 0);
    assert.equal(config.verifier?.timeout_sec, specSeconds + 60);
    assert.equal(typeof config.agent?.timeout_sec, 'number');
    assert.equal(config.environment?.allow_internet, true);
    assert.equal(typeof config.environment?.build_timeout_sec, 'number');
    assert.equal(config.environment?.cpus, 2);
    assert.equal(config.environment?.memory_mb, 4096);
    assert.deepEqual(config.metadata?.fail_to_pass, ['no-secret-caching']);
    assert.equal(config.metadata?.instance_id, result.instanceId);
  });

  it('instruction.md carries the goal, every spec, its kind and interactions, the protected files — not the tests', () => {
    const instruction = read(result.harborDir as string, 'instruction.md');
    for (const spec of result.task.specs) {
      assert.ok(instruction.includes(spec.statement), spec.id);
      assert.ok(instruction.includes(`${spec.id} (${spec.kind})`), spec.id);
    }
    assert.ok(instruction.includes(result.task.goal));
    assert.match(instruction, /header-names and no-secret-caching: declared/);
    assert.ok(instruction.includes('test/no-secret-caching.test.js'));
    const testSource = read(repo.workspace, 'test/no-secret-caching.test.js');
    const assertion = testSource.split('\n').find((l) => l.includes('assert.equal(')) as string;
    assert.ok(!instruction.includes(assertion.trim()), 'no test code');
  });

  it('the Dockerfile starts from a Node image and copies the base into the WORKDIR', () => {
    const dockerfile = read(result.harborDir as string, 'environment/Dockerfile');
    assert.match(dockerfile, /^FROM node:22-bookworm$/m);
    assert.match(dockerfile, /^WORKDIR \/app$/m);
    assert.match(dockerfile, /^COPY repo\/ \/app\/$/m);
    // The base: the secret-caching fix is not in environment/repo.
    const client = read(result.harborDir as string, 'environment/repo/src/client.js');
    assert.equal(
      client,
      execFileSync('git', ['show', 'HEAD:src/client.js'], { cwd: repo.root, encoding: 'utf8' }),
    );
  });

  it('Harbor’s contract: the oracle scores 1, no agent scores 0 with the other specs still passing', async () => {
    const [oracle, none] = await Promise.all([
      runHarborContract({
        harborDir: result.harborDir as string,
        oracle: true,
        timeoutMs: CONTRACT_TIMEOUT_MS,
      }),
      runHarborContract({
        harborDir: result.harborDir as string,
        oracle: false,
        timeoutMs: CONTRACT_TIMEOUT_MS,
      }),
    ]);
    assert.equal(oracle.reward, 1, oracle.output);
    assert.equal(oracle.rewards.reward, 1);
    assert.equal(oracle.rewards['spec.no-secret-caching'], 1);
    assert.equal(none.reward, 0, none.output);
    assert.equal(none.rewards['spec.no-secret-caching'], 0);
    assert.equal(none.rewards['spec.cache-hit'], 1);
    assert.equal(none.rewards.specs_passed, 7 / 8);
    assert.equal(none.verdicts['no-secret-caching']?.verdict, 'fail');
  });

  it('test.sh lays the task’s spec tests over an agent’s edits to them', async () => {
    // An "agent" that only weakens the spec test: copy the Harbor task and bake the edit into its environment.
    const cheat = path.join(out, 'cheat');
    fs.cpSync(result.harborDir as string, cheat, { recursive: true });
    fs.writeFileSync(
      path.join(cheat, 'environment/repo/test/no-secret-caching.test.js'),
      "require('node:test')('always', () => {});\n",
    );
    const run = await runHarborContract({ harborDir: cheat, oracle: false, timeoutMs: CONTRACT_TIMEOUT_MS });
    assert.equal(run.rewards['spec.no-secret-caching'], 0, run.output);
    assert.equal(run.reward, 0);
  });

  it('the SWE-bench side of the same export resolves its gold patch', async () => {
    const report = await evaluate({ taskDirs: [path.join(out, 'task')], gold: true, workers: 1 });
    assert.equal(report.resolved_instances, 1, JSON.stringify(report.instances));
  });

  it('--format harbor writes only the Harbor task; a bad --format is bad input', () => {
    const only = path.join(out, 'harbor-only');
    const run = (format: string) =>
      execFileSync(
        process.execPath,
        [CLI, 'export', '--workspace', repo.workspace, '--out', only, '--format', format, '--json'],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
    const json = JSON.parse(run('harbor')) as { harbor_dir: string; verified: boolean };
    assert.equal(json.verified, true);
    assert.equal(json.harbor_dir, only);
    assert.ok(fs.existsSync(path.join(only, 'task.toml')));
    assert.ok(!fs.existsSync(path.join(only, 'task.json')));
    assert.throws(
      () => run('zip'),
      (error: { status: number; stderr: string }) => {
        assert.equal(error.status, 2);
        assert.match(error.stderr, /--format must be one of swe, harbor, both/);
        return true;
      },
    );
  });
});

describe('export of a Python src-layout library (pytest)', () => {
  let repo: DemoRepo;
  let out: string;

  before(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-harbor-py-'));
  });
  after(() => {
    repo.cleanup();
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('works right after `weave check` in a committed repository, in both formats', async () => {
    repo = makePythonRepo({ commitFix: true });
    // weave check writes .weave/runs/ (ignored through .git/info/exclude): Weave's own state is not "the change".
    execFileSync(process.execPath, [CLI, 'check'], { cwd: repo.root, stdio: 'ignore' });
    assert.ok(fs.existsSync(path.join(repo.root, '.weave', 'runs')));
    const result = await exportTask({
      workspaceDir: repo.root,
      outDir: path.join(out, 'task'),
      weaveVersion: 'test',
    });
    assert.equal(result.baseRef, 'HEAD~1', 'a clean tree exports the last commit');
    assert.equal(result.verified, true, JSON.stringify(result.reasons));
    assert.deepEqual(result.failToPass, ['strips-punctuation']);
    assert.deepEqual(result.passToPass, ['basic-slug']);
    assert.equal(result.task.version, '2.3.0', '__version__ of the package');
    const harbor = result.harborDir as string;
    assert.match(read(harbor, 'environment/Dockerfile'), /^FROM python:3\.11-slim$/m);
    const [oracle, none] = await Promise.all([
      runHarborContract({ harborDir: harbor, oracle: true, timeoutMs: CONTRACT_TIMEOUT_MS }),
      runHarborContract({ harborDir: harbor, oracle: false, timeoutMs: CONTRACT_TIMEOUT_MS }),
    ]);
    assert.equal(oracle.reward, 1, oracle.output);
    assert.equal(none.reward, 0, none.output);
    assert.equal(none.rewards['spec.basic-slug'], 1);
    const report = await evaluate({ taskDirs: [path.join(out, 'task')], gold: true, workers: 1 });
    assert.equal(report.resolved_instances, 1, JSON.stringify(report.instances));
  });

  it('a failing verification shows the test’s output, not only its exit code', async () => {
    const broken = makePythonRepo();
    try {
      // A "fix" that breaks the basic spec: it no longer passes with the gold patch.
      fs.writeFileSync(
        path.join(broken.root, 'src/slugkit/slug.py'),
        'def slugify(text):\n    return text\n',
      );
      const result = await exportTask({
        workspaceDir: broken.root,
        outDir: path.join(out, 'broken'),
        format: 'swe',
      });
      assert.equal(result.verified, false);
      const reason = result.reasons.find((r) => r.spec === 'basic-slug')?.reason ?? '';
      assert.match(reason, /exit code 1/);
      assert.match(reason, /its output ends:[\s\S]*AssertionError|assert 'Hello World' == 'hello-world'/);
    } finally {
      broken.cleanup();
    }
  });
});

describe('export of a lockfile-less npm library', () => {
  it('sets up with npm install, in eval.sh and as a Dockerfile RUN step, and verifies', async () => {
    const repo = makeLockfileLessNpmRepo();
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-harbor-npm-'));
    try {
      assert.deepEqual(
        await environmentSetupCommands(repo.root, { specCommands: [], allowInstallScripts: false }),
        ['npm install --no-audit --no-fund --ignore-scripts'],
      );
      const result = await exportTask({
        workspaceDir: repo.root,
        outDir: path.join(out, 'task'),
        weaveVersion: 'test',
      });
      assert.equal(result.verified, true, JSON.stringify(result.reasons));
      assert.deepEqual(result.task.environment_setup, ['npm install --no-audit --no-fund --ignore-scripts']);
      assert.equal(result.task.version, '0.4.1');
      assert.ok(
        (await setupSteps(result.harborDir as string)).includes(
          'npm install --no-audit --no-fund --ignore-scripts',
        ),
      );
    } finally {
      repo.cleanup();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
