// A prediction that changes no code and no test, only adds `.weave-venv/bin/python3` (and `python`): a fake
// interpreter on the set-up venv's path, which a verifier that puts that venv first on PATH would run for every
// `python3 -m pytest` spec — and for its own scorer. Every verifier runs with the interpreter and PATH the task
// fixed at export: `weave eval` (eval.sh + the contained spec runs, real bwrap) runs the real tests (the wrong
// code fails, unresolved), Harbor's tests/test.sh scores 0 with the local contract and in a real Docker engine,
// and `weave eval --env docker` reads the same per-spec results and does not resolve it. The gold patch still
// resolves everywhere.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportTask, type ExportResult } from '../../../src/core/tasks/export/exportTask';
import { evaluate } from '../../../src/core/tasks/eval/evalTasks';
import { runHarborContract } from '../../../src/core/tasks/harbor/harborContract';
import {
  buildHarborImage,
  harborImageTag,
  runHarborInDocker,
} from '../../../src/core/tasks/harbor/harborDocker';
import { applyPatch, type DemoRepo } from '../../support/demoRepo';
import { startDockerEngine, type DockerEngine } from '../../support/dockerEngine';
import { FAKE_VENV_PATCH, makePathPythonRepo, VENV_PTH_PATCH } from '../../support/verifierFixtures';

const CONTRACT_TIMEOUT_MS = 240_000;
const BUILD_TIMEOUT_MS = 240_000;
const RUN_TIMEOUT_MS = 120_000;

describe('a fake interpreter on the set-up venv’s path', () => {
  let repo: DemoRepo;
  let out: string;
  let exported: ExportResult;
  let taskDir: string;

  before(async () => {
    repo = makePathPythonRepo();
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-fake-interpreter-'));
    taskDir = path.join(out, 'task');
    exported = await exportTask({ workspaceDir: repo.root, outDir: taskDir, weaveVersion: 'test' });
  });
  after(() => {
    repo.cleanup();
    fs.rmSync(out, { recursive: true, force: true });
  });

  const predictionsFile = (name: string, patch: string): string => {
    const file = path.join(out, `${name}.jsonl`);
    const line = { instance_id: exported.instanceId, model_name_or_path: name, model_patch: patch };
    fs.writeFileSync(file, `${JSON.stringify(line)}\n`);
    return file;
  };

  it('exports a verified task with no set-up venv of its own', () => {
    assert.equal(exported.verified, true, JSON.stringify(exported.reasons));
    assert.deepEqual(exported.failToPass, ['exact-inch']);
    assert.deepEqual(exported.task.environment_setup, []);
  });

  it('weave eval (sandbox): the real tests run, the wrong code fails, unresolved; gold resolves', async () => {
    const report = await evaluate({
      taskDirs: [taskDir],
      predictionsFile: predictionsFile('fake-venv', FAKE_VENV_PATCH),
    });
    const fake = report.instances[exported.instanceId];
    assert.equal(fake?.patch_successfully_applied, true, JSON.stringify(fake));
    assert.equal(fake?.resolved, false, JSON.stringify(fake));
    // Judged by the real pytest, not by the fake's "1 passed": an assertion failure.
    assert.equal(fake?.spec_results['exact-inch']?.verdict, 'fail', JSON.stringify(fake));
    assert.equal(fake?.spec_results.zero?.verdict, 'pass', JSON.stringify(fake));
    const gold = await evaluate({ taskDirs: [taskDir], gold: true });
    assert.equal(gold.resolved_instances, 1, JSON.stringify(gold.instances));
  });

  it('Harbor’s test.sh (local contract): reward 0, the real verdicts written', async () => {
    const harbor = path.join(out, 'harbor-fake');
    fs.cpSync(exported.harborDir as string, harbor, { recursive: true });
    applyPatch(path.join(harbor, 'environment/repo'), FAKE_VENV_PATCH);
    const run = await runHarborContract({ harborDir: harbor, oracle: false, timeoutMs: CONTRACT_TIMEOUT_MS });
    assert.equal(run.reward, 0, run.output);
    assert.equal(run.rewards['spec.exact-inch'], 0, run.output);
    assert.equal(run.rewards['spec.zero'], 1, run.output);
    assert.equal(run.verdicts['exact-inch']?.verdict, 'fail', run.output);
  });

  describe('in a real Docker engine', () => {
    let engine: DockerEngine;
    before(async () => {
      engine = await startDockerEngine();
    });
    after(async () => {
      await engine?.stop();
    });

    it('Harbor’s verifier in the task’s image: reward < 1; oracle 1', async () => {
      const harborDir = exported.harborDir as string;
      const image = harborImageTag(exported.instanceId);
      await buildHarborImage(harborDir, image, BUILD_TIMEOUT_MS);
      const fake = await runHarborInDocker({
        harborDir,
        image,
        agent: { kind: 'patch', patch: FAKE_VENV_PATCH },
        timeoutMs: RUN_TIMEOUT_MS,
      });
      assert.equal(fake.patchMethod, 'git-apply', fake.output);
      assert.equal(fake.reward, 0, fake.output);
      assert.equal(fake.verdicts['exact-inch']?.verdict, 'fail', fake.output);
      const oracle = await runHarborInDocker({
        harborDir,
        image,
        agent: { kind: 'oracle' },
        timeoutMs: RUN_TIMEOUT_MS,
      });
      assert.equal(oracle.reward, 1, oracle.output);
    });

    it('weave eval --env docker: every spec’s result read, unresolved; gold resolves', async () => {
      const report = await evaluate({
        taskDirs: [taskDir],
        predictionsFile: predictionsFile('fake-venv-docker', FAKE_VENV_PATCH),
        env: 'docker',
      });
      const fake = report.instances[exported.instanceId];
      assert.equal(fake?.resolved, false, JSON.stringify(fake));
      assert.equal(fake?.infra_failure, undefined, JSON.stringify(fake));
      assert.deepEqual(Object.keys(fake?.spec_results ?? {}).sort(), ['exact-inch', 'zero']);
      assert.equal(fake?.spec_results['exact-inch']?.verdict, 'fail', JSON.stringify(fake));
      assert.deepEqual(fake?.tests_status.PASS_TO_FAIL.failure, [], JSON.stringify(fake));
      const gold = await evaluate({ taskDirs: [taskDir], gold: true, env: 'docker' });
      assert.equal(gold.resolved_instances, 1, JSON.stringify(gold.instances));
    });
  });
});

describe('a .pth file added to the set-up venv of a task that makes one', () => {
  let repo: DemoRepo;
  let out: string;
  let exported: ExportResult;

  before(async () => {
    repo = makePathPythonRepo({ setupVenv: true });
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-venv-pth-'));
    exported = await exportTask({
      workspaceDir: repo.root,
      outDir: path.join(out, 'task'),
      weaveVersion: 'test',
    });
  });
  after(() => {
    repo.cleanup();
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('Harbor’s test.sh: the venv differs from the manifest the set-up recorded, every spec tampered, reward 0', async () => {
    assert.equal(exported.verified, true, JSON.stringify(exported.reasons));
    assert.match(exported.task.environment_setup.join('\n'), /-m venv .*\.weave-venv/);
    // The agent stage comes after the environment's set-up: the contract's oracle stage, with the .pth as the
    // "solution", is exactly there.
    const harbor = path.join(out, 'harbor-pth');
    fs.cpSync(exported.harborDir as string, harbor, { recursive: true });
    fs.writeFileSync(path.join(harbor, 'solution/gold.patch'), VENV_PTH_PATCH);
    const pth = await runHarborContract({ harborDir: harbor, oracle: true, timeoutMs: CONTRACT_TIMEOUT_MS });
    assert.equal(pth.reward, 0, pth.output);
    assert.equal(pth.verdicts['exact-inch']?.verdict, 'tampered', pth.output);
    assert.match(pth.verdicts['exact-inch']?.reason ?? '', /virtual environment \(\.weave-venv\)/);
    // The venv as the set-up left it passes the check: the real oracle scores 1.
    const oracle = await runHarborContract({
      harborDir: exported.harborDir as string,
      oracle: true,
      timeoutMs: CONTRACT_TIMEOUT_MS,
    });
    assert.equal(oracle.reward, 1, oracle.output);
  });
});
