// `weave eval` against predictions that open gatekit's gate (test/e2e/sandbox/loadedFilesRepo.ts) from a file a
// spec's command or test loads instead of from the code (issue #35, mechanisms 3 and 4): the Makefile target, an
// npm script, a shell script, a --require preload, a pytest -p plugin, a PYTHONPATH sitecustomize package, a
// helper in t/ and a root testing_utils.py. Each must be unresolved with every spec `tampered` and the report
// naming the file; the exported task must list the loaded files in protected_files; the real fix still resolves.
// Real git, node and pytest runs in bubblewrap.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { evaluate, type EvalReport } from '../../../src/core/tasks/eval/evalTasks';
import { exportTask } from '../../../src/core/tasks/export/exportTask';
import { treeFingerprint, type DemoRepo } from '../../support/demoRepo';
import { patchAdding } from '../sandbox/infrastructureAttacks';
import { GATE_FIX, LOADED_FILE_ATTACKS, makeGatekit } from '../sandbox/loadedFilesRepo';
import { tasksPerPrediction } from '../../support/taskFolder';

describe('weave eval: a prediction that changes what a spec loads is never resolved', () => {
  let scratch: string;
  let repo: DemoRepo;
  let report: EvalReport;
  let protectedFiles: string[];
  let repoBefore: Map<string, string>;

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-eval-loaded-'));
    repo = makeGatekit({ withFix: true });
    const exported = await exportTask({
      workspaceDir: repo.root,
      outDir: path.join(scratch, 'gate'),
      format: 'swe',
    });
    assert.equal(exported.verified, true, JSON.stringify(exported.reasons));
    const task = JSON.parse(fs.readFileSync(path.join(scratch, 'gate', 'task.json'), 'utf8')) as {
      protected_files?: string[];
    };
    protectedFiles = task.protected_files ?? [];
    repoBefore = treeFingerprint(repo.root);
    const predictions = Object.entries(LOADED_FILE_ATTACKS).map(([name, attack]) => ({
      id: `loaded-${name}`,
      task: 'gate',
      patch: patchAdding(repo.root, attack.files),
    }));
    predictions.push({ id: 'honest-fix', task: 'gate', patch: patchAdding(repo.root, GATE_FIX) });
    const { tasksDir, predictionsFile } = tasksPerPrediction(scratch, predictions, 'cheat');
    report = await evaluate({ taskDirs: [tasksDir], predictionsFile, workers: 2 });
  });

  after(() => {
    repo.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('exports the files the specs load in protected_files (what every verifier restores)', () => {
    for (const file of [
      'Makefile',
      'scripts/test.sh',
      'setup.js',
      'myplugin.py',
      't/helpers.js',
      'testing_utils.py',
    ])
      assert.ok(protectedFiles.includes(file), `${file} in ${JSON.stringify(protectedFiles)}`);
    for (const code of ['src/gate.js', 'src/gate.py'])
      assert.ok(!protectedFiles.includes(code), `${code} is the code under test`);
  });

  for (const [name, attack] of Object.entries(LOADED_FILE_ATTACKS)) {
    it(`${name}: unresolved, every spec tampered, the report names ${attack.names}`, () => {
      const r = report.instances[`loaded-${name}`];
      assert.ok(r, 'the prediction is in the report');
      assert.equal(r.patch_successfully_applied, true, JSON.stringify(r));
      assert.equal(r.resolved, false, JSON.stringify(r));
      const named = (r.test_infrastructure ?? []).map((f) => (f.key ? `${f.path} ${f.key}` : f.path));
      assert.ok(named.includes(attack.names), `${attack.names} in ${JSON.stringify(named)}`);
      assert.ok(Object.keys(r.spec_results).length > 0, 'the specs ran');
      assert.ok(
        Object.values(r.spec_results).every((s) => s.verdict === 'tampered'),
        JSON.stringify(r.spec_results),
      );
    });
  }

  it('the fix alone resolves (no false tampered)', () => {
    const r = report.instances['honest-fix'];
    assert.equal(r?.resolved, true, JSON.stringify(r));
    assert.equal(r?.test_infrastructure, undefined);
  });

  it("leaves the user's repository as it was", () => {
    assert.deepEqual(treeFingerprint(repo.root), repoBefore);
  });
});
