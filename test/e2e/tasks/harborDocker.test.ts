// Exported Harbor environments proven in a real Docker engine (a private dockerd, no bridge, every build and
// container with --network none): for a node:test library, a pytest library and a lockfile-less npm library whose
// `npm install` runs at build time, `docker build` of environment/ and Harbor's order in real containers — the
// agent stage (solution/solve.sh for the oracle, nothing for the empty run, a helper-only edit for the cheat),
// tests/ copied in afterwards, tests/test.sh, /logs/verifier read back. Oracle 1, empty < 1, cheat < 1. Then
// `weave eval --env docker` and `weave bench --env docker` score in the same image, and say so clearly when no
// engine answers. The engine and base images come from test/docker/install-docker.sh (.ci/run calls it); without
// them this fails.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBench } from '../../../src/core/tasks/bench/benchRun';
import { exportTask } from '../../../src/core/tasks/export/exportTask';
import { evaluate } from '../../../src/core/tasks/eval/evalTasks';
import {
  buildHarborImage,
  harborImageTag,
  runHarborInDocker,
  type HarborAgentStage,
} from '../../../src/core/tasks/harbor/harborDocker';
import { startDockerEngine, type DockerEngine } from '../../support/dockerEngine';
import { makeJsHelperFixture, makePythonHelperFixture } from '../../support/helperFixtures';
import { CLI, type DemoRepo } from '../../support/demoRepo';
import { makeLockfileLessNpmRepo } from './fixtureRepos';

const BUILD_TIMEOUT_MS = 240_000;
const RUN_TIMEOUT_MS = 120_000;

interface Shape {
  name: string;
  make: () => { repo: DemoRepo; cheatPatch?: string };
  from: RegExp;
}

const SHAPES: Shape[] = [
  {
    name: 'node:test library (helper in test/)',
    make: makeJsHelperFixture,
    from: /^FROM node:22-bookworm$/m,
  },
  {
    name: 'pytest library (helper in tests/)',
    make: makePythonHelperFixture,
    from: /^FROM python:3\.11-slim$/m,
  },
  {
    name: 'lockfile-less npm library (npm install at build time)',
    make: () => ({ repo: makeLockfileLessNpmRepo() }),
    from: /^RUN npm install --no-audit --no-fund --ignore-scripts$/m,
  },
];

describe('Harbor environments in a real Docker engine', () => {
  let engine: DockerEngine;
  let out: string;

  before(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-harbor-docker-'));
    engine = await startDockerEngine();
  });
  after(async () => {
    await engine?.stop();
    fs.rmSync(out, { recursive: true, force: true });
  });

  for (const shape of SHAPES) {
    it(`${shape.name}: oracle 1, empty < 1${shape.name.includes('helper') ? ', helper cheat < 1' : ''}`, async () => {
      const fixture = shape.make();
      try {
        const exported = await exportTask({
          workspaceDir: fixture.repo.root,
          outDir: path.join(out, shape.name.split(' ')[0] as string),
          weaveVersion: 'test',
        });
        assert.equal(exported.verified, true, JSON.stringify(exported.reasons));
        const harborDir = exported.harborDir as string;
        assert.match(fs.readFileSync(path.join(harborDir, 'environment/Dockerfile'), 'utf8'), shape.from);
        const image = harborImageTag(exported.instanceId);
        await buildHarborImage(harborDir, image, BUILD_TIMEOUT_MS);
        const run = (agent: HarborAgentStage) =>
          runHarborInDocker({ harborDir, image, agent, timeoutMs: RUN_TIMEOUT_MS });
        const oracle = await run({ kind: 'oracle' });
        assert.equal(oracle.reward, 1, oracle.output);
        assert.equal(oracle.rewards.reward, 1, oracle.output);
        const empty = await run({ kind: 'none' });
        assert.notEqual(empty.reward, null, empty.output);
        assert.ok((empty.reward as number) < 1, empty.output);
        for (const id of exported.passToPass) assert.equal(empty.rewards[`spec.${id}`], 1, empty.output);
        if (fixture.cheatPatch !== undefined) {
          const cheat = await run({ kind: 'patch', patch: fixture.cheatPatch });
          assert.equal(cheat.patchMethod, 'git-apply', cheat.output);
          assert.notEqual(cheat.reward, null, cheat.output);
          assert.ok((cheat.reward as number) < 1, cheat.output);
          assert.equal(cheat.rewards['spec.exact-inch'], 0, cheat.output);
        }
      } finally {
        fixture.repo.cleanup();
      }
    });
  }

  it('weave eval --env docker: the gold patch resolves in the task’s image, the helper cheat does not', async () => {
    const fixture = makeJsHelperFixture();
    try {
      const taskDir = path.join(out, 'eval-docker');
      const exported = await exportTask({
        workspaceDir: fixture.repo.root,
        outDir: taskDir,
        weaveVersion: 'test',
      });
      assert.equal(exported.verified, true, JSON.stringify(exported.reasons));
      const predictions = path.join(out, 'eval-docker.jsonl');
      const line = (model: string, patch: string) =>
        JSON.stringify({ instance_id: exported.instanceId, model_name_or_path: model, model_patch: patch });
      fs.writeFileSync(predictions, `${line('cheat', fixture.cheatPatch)}\n`);
      const cli = spawnSync(
        process.execPath,
        [CLI, 'eval', '--tasks', taskDir, '--predictions', predictions, '--env', 'docker', '--json'],
        { encoding: 'utf8' },
      );
      // Exit 1: the cheat is an instance with an error (it changes test infrastructure), not a scoring failure.
      assert.equal(cli.status, 1, `${cli.stderr}${cli.stdout}`);
      const cheat = (JSON.parse(cli.stdout) as Awaited<ReturnType<typeof evaluate>>).instances[
        exported.instanceId
      ];
      assert.match(cheat?.error ?? '', /test infrastructure: test\/helpers\.js/);
      assert.equal(cheat?.patch_applied_with, 'git-apply', JSON.stringify(cheat));
      assert.equal(cheat?.resolved, false, JSON.stringify(cheat));
      // The diff policy makes every spec of a prediction that changes test infrastructure `tampered`.
      assert.equal(cheat?.spec_results['exact-inch']?.verdict, 'tampered');
      assert.equal(cheat?.spec_results.zero?.verdict, 'tampered');
      assert.deepEqual(cheat?.edits_test_support, ['test/helpers.js']);
      const gold = await evaluate({ taskDirs: [taskDir], gold: true, env: 'docker' });
      assert.equal(gold.resolved_instances, 1, JSON.stringify(gold.instances));
    } finally {
      fixture.repo.cleanup();
    }
  });

  it('weave bench --env docker scores an agent command’s patch in the task’s image', async () => {
    const fixture = makePythonHelperFixture();
    try {
      const taskDir = path.join(out, 'bench-docker', 'task');
      const exported = await exportTask({
        workspaceDir: fixture.repo.root,
        outDir: taskDir,
        weaveVersion: 'test',
      });
      assert.equal(exported.verified, true, JSON.stringify(exported.reasons));
      const answer = path.join(out, 'bench-docker', 'answer.patch');
      fs.copyFileSync(path.join(taskDir, 'gold.patch'), answer);
      const result = await runBench({
        taskDirs: [taskDir],
        models: ['gold-agent'],
        baseUrl: '',
        // The agent command cannot see the task folder (bench hides it): the oracle's answer is kept elsewhere.
        agentCommand: `git apply '${answer}'`,
        workers: 1,
        outDir: path.join(out, 'bench-docker', 'out'),
        env: 'docker',
      });
      const report = result.reports['gold-agent'];
      assert.equal(report?.resolved_instances, 1, JSON.stringify(report?.instances));
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('--env docker without an engine', () => {
  it('weave eval and weave bench say that no engine answers, and run nothing', () => {
    const env = { ...process.env, DOCKER_HOST: `unix://${path.join(os.tmpdir(), 'no-such-engine.sock')}` };
    for (const args of [
      ['eval', '--tasks', os.tmpdir(), '--gold', '--env', 'docker'],
      [
        'bench',
        '--tasks',
        os.tmpdir(),
        '--model',
        'm',
        '--agent-command',
        'true',
        '--out',
        os.tmpdir(),
        '--env',
        'docker',
      ],
    ]) {
      const cli = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env });
      assert.equal(cli.status, 2, `${args[0]}: ${cli.stderr}`);
      assert.match(cli.stderr, /no Docker engine answers .*score with --env sandbox/, args[0]);
    }
  });

  it('--env accepts only sandbox or docker', () => {
    const cli = spawnSync(process.execPath, [CLI, 'eval', '--tasks', os.tmpdir(), '--gold', '--env', 'vm'], {
      encoding: 'utf8',
    });
    assert.equal(cli.status, 2);
    assert.match(cli.stderr, /--env must be one of sandbox, docker, got 'vm'/);
  });
});
