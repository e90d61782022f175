// A prediction that edits only a test helper (a file the spec test requires from its test folder, not one of its
// test.files) so that the buggy code passes: the exported task ships the protected set, and every verifier lays
// the task's own helper back before scoring — `weave eval` (eval.sh in the sandbox) leaves it unresolved and
// names the edit, Harbor's test.sh (the local contract) gives it reward 0. On a node:test and a pytest library.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportTask, type ExportResult } from '../../../src/core/tasks/export/exportTask';
import { evaluate } from '../../../src/core/tasks/eval/evalTasks';
import { runHarborContract } from '../../../src/core/tasks/harbor/harborContract';
import type { Task } from '../../../src/core/tasks/taskFormat';
import { applyPatch } from '../../support/demoRepo';
import {
  makeJsHelperFixture,
  makePythonHelperFixture,
  type HelperFixture,
} from '../../support/helperFixtures';

const CONTRACT_TIMEOUT_MS = 240_000;

const conftestCheat = [
  '--- /dev/null',
  '+++ b/tests/conftest.py',
  '@@ -0,0 +1,2 @@',
  '+import helpers',
  '+helpers.assert_close = lambda actual, expected: None',
  '',
].join('\n');

for (const [name, make] of [
  ['node:test', makeJsHelperFixture],
  ['pytest', makePythonHelperFixture],
] as const) {
  describe(`a helper-only cheat on a ${name} library`, () => {
    let fixture: HelperFixture;
    let out: string;
    let result: ExportResult;
    let taskDir: string;

    before(async () => {
      fixture = make();
      out = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-helper-cheat-'));
      taskDir = path.join(out, 'task');
      result = await exportTask({ workspaceDir: fixture.repo.root, outDir: taskDir, weaveVersion: 'test' });
    });
    after(() => {
      fixture.repo.cleanup();
      fs.rmSync(out, { recursive: true, force: true });
    });

    it('exports a verified task whose protected set names the helper', () => {
      assert.equal(result.verified, true, JSON.stringify(result.reasons));
      assert.deepEqual(result.failToPass, ['exact-inch']);
      const task = JSON.parse(fs.readFileSync(path.join(taskDir, 'task.json'), 'utf8')) as Task;
      assert.ok(task.protected_files?.includes(fixture.helper), JSON.stringify(task.protected_files));
      assert.ok(task.protected_files?.includes('.weave/specs.json'));
      assert.ok(!task.patch.includes(fixture.helper), 'the helper is not part of the gold patch');
      const harbor = result.harborDir as string;
      assert.ok(fs.existsSync(path.join(harbor, 'tests/files', fixture.helper)), 'tests/ carries it');
    });

    it('weave eval: the cheat is unresolved and its helper edit named; the gold patch resolves', async () => {
      const predictions = path.join(out, 'preds.jsonl');
      const lines = [
        { instance_id: result.instanceId, model_name_or_path: 'cheat', model_patch: fixture.cheatPatch },
        { instance_id: result.instanceId, model_name_or_path: 'gold', model_patch: result.task.patch },
      ];
      const reports = await Promise.all(
        lines.map((line, i) => {
          const file = `${predictions}.${i}`;
          fs.writeFileSync(file, `${JSON.stringify(line)}\n`);
          return evaluate({ taskDirs: [taskDir], predictionsFile: file });
        }),
      );
      const cheat = reports[0]?.instances[result.instanceId];
      const gold = reports[1]?.instances[result.instanceId];
      assert.equal(cheat?.patch_successfully_applied, true, JSON.stringify(cheat));
      assert.equal(cheat?.resolved, false, JSON.stringify(cheat));
      assert.deepEqual(cheat?.edits_test_support, [fixture.helper]);
      assert.deepEqual(cheat?.edits_spec_tests, []);
      assert.deepEqual(cheat?.tests_status.FAIL_TO_PASS.failure, ['exact-inch']);
      assert.equal(gold?.resolved, true, JSON.stringify(gold));
      assert.deepEqual(gold?.edits_test_support, []);
    });

    it('Harbor’s test.sh lays the task’s helper back: the cheat scores 0', async () => {
      const cheat = path.join(out, 'harbor-cheat');
      fs.cpSync(result.harborDir as string, cheat, { recursive: true });
      // The agent stage's work, baked into the environment: the helper edit alone.
      applyPatch(path.join(cheat, 'environment/repo'), fixture.cheatPatch);
      const run = await runHarborContract({
        harborDir: cheat,
        oracle: false,
        timeoutMs: CONTRACT_TIMEOUT_MS,
      });
      assert.equal(run.rewards['spec.exact-inch'], 0, run.output);
      assert.equal(run.rewards['spec.zero'], 1, run.output);
      assert.equal(run.reward, 0);
    });

    if (name === 'pytest') {
      it('a conftest.py the patch adds cannot be restored: unresolved, named', async () => {
        const file = path.join(out, 'conftest.jsonl');
        const line = {
          instance_id: result.instanceId,
          model_name_or_path: 'conftest',
          model_patch: conftestCheat,
        };
        fs.writeFileSync(file, `${JSON.stringify(line)}\n`);
        const report = await evaluate({ taskDirs: [taskDir], predictionsFile: file });
        const r = report.instances[result.instanceId];
        assert.equal(r?.resolved, false, JSON.stringify(r));
        assert.deepEqual(r?.edits_test_support, ['tests/conftest.py']);
        assert.match(r?.error ?? '', /adds test-support files the task cannot restore: tests\/conftest\.py/);
      });
    }
  });
}
