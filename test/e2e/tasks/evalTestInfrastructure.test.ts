// `weave eval` against predictions that change how the tests run instead of the code (issue #22): a failure-
// flipping conftest.py, the same plugin through pyproject's addopts, a new pytest.toml or a dist-info entry
// point, a pytest.py that stands in for pytest, package.json's test keys and a vite.config setup file beside a
// real fix. Each must come out unresolved, its report naming the file (and key), every spec `tampered`; a fix
// with a change to other keys of the same manifests still resolves. Real git, real pytest and node runs, bwrap.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { evaluate, type EvalReport } from '../../../src/core/tasks/eval/evalTasks';
import { exportTask } from '../../../src/core/tasks/export/exportTask';
import { applyPatch, makeDemoRepo, readPatch, treeFingerprint, type DemoRepo } from '../../support/demoRepo';
import {
  demoPackageJsonWith,
  PACKAGE_JSON_ATTACKS,
  patchAdding,
  PYTHON_ATTACK_FINDINGS,
  PYTHON_ATTACKS,
  VITE_CONFIG,
} from '../sandbox/infrastructureAttacks';
import { tasksPerPrediction } from '../../support/taskFolder';
import { makePythonRepo, PYTHON_SLUG_FIX } from './fixtureRepos';

const FLIP_JS = "require('node:assert').equal = () => {};\n";

describe('weave eval: a prediction that changes test infrastructure is never resolved', () => {
  let scratch: string;
  let pyRepo: DemoRepo;
  let jsRepo: DemoRepo;
  let report: EvalReport;
  let pyBefore: Map<string, string>;
  let jsBefore: Map<string, string>;
  const expected = new Map<string, string>();

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-eval-infra-'));
    pyRepo = makePythonRepo();
    jsRepo = makeDemoRepo();
    const fix = readPatch('fix-secret-caching.patch');
    applyPatch(jsRepo.workspace, fix);
    const [py, js] = await Promise.all([
      exportTask({ workspaceDir: pyRepo.root, outDir: path.join(scratch, 'py'), format: 'swe' }),
      exportTask({ workspaceDir: jsRepo.root, outDir: path.join(scratch, 'js'), format: 'swe' }),
    ]);
    assert.equal(py.verified, true, JSON.stringify(py.reasons));
    assert.equal(js.verified, true, JSON.stringify(js.reasons));
    pyBefore = treeFingerprint(pyRepo.root);
    jsBefore = treeFingerprint(jsRepo.root);

    const predictions: Array<{ id: string; task: string; patch: string }> = [];
    for (const [name, files] of Object.entries(PYTHON_ATTACKS)) {
      predictions.push({ id: `py-${name}`, task: 'py', patch: patchAdding(pyRepo.root, files) });
      expected.set(`py-${name}`, PYTHON_ATTACK_FINDINGS[name]!);
    }
    const pkg = fs.readFileSync(path.join(jsRepo.workspace, 'package.json'), 'utf8');
    for (const [name, attack] of Object.entries(PACKAGE_JSON_ATTACKS)) {
      const files = { 'package.json': demoPackageJsonWith(pkg, attack.edit), 'flip.js': FLIP_JS };
      predictions.push({ id: `js-${name}`, task: 'js', patch: patchAdding(jsRepo.root, files, fix) });
      expected.set(`js-${name}`, `package.json ${attack.key}`);
    }
    predictions.push({
      id: 'js-vite-config',
      task: 'js',
      patch: patchAdding(jsRepo.root, { 'vite.config.mjs': VITE_CONFIG, 'flip.js': FLIP_JS }, fix),
    });
    expected.set('js-vite-config', 'vite.config.mjs');
    // Controls: the same manifests changed in keys that are not the tests', beside a real fix.
    predictions.push({
      id: 'js-fix-and-dependency',
      task: 'js',
      patch: patchAdding(
        jsRepo.root,
        { 'package.json': demoPackageJsonWith(pkg, (p) => (p.devDependencies = { 'left-pad': '1.3.0' })) },
        fix,
      ),
    });
    predictions.push({
      id: 'py-fix-and-description',
      task: 'py',
      patch: patchAdding(pyRepo.root, {
        'src/slugkit/slug.py': PYTHON_SLUG_FIX,
        'pyproject.toml': fs
          .readFileSync(path.join(pyRepo.root, 'pyproject.toml'), 'utf8')
          .replace('name = "slugkit"', 'name = "slugkit"\ndescription = "Slugs"'),
      }),
    });

    const { tasksDir, predictionsFile } = tasksPerPrediction(scratch, predictions, 'cheat');
    report = await evaluate({ taskDirs: [tasksDir], predictionsFile, workers: 2 });
  });

  after(() => {
    pyRepo.cleanup();
    jsRepo.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const attacks = [...Object.keys(PYTHON_ATTACKS).map((n) => `py-${n}`)]
    .concat(Object.keys(PACKAGE_JSON_ATTACKS).map((n) => `js-${n}`))
    .concat(['js-vite-config']);
  for (const id of attacks) {
    it(`${id}: unresolved, every spec tampered, the report names the file and key`, () => {
      const r = report.instances[id];
      assert.ok(r, `${id} is in the report`);
      assert.equal(r.patch_successfully_applied, true, JSON.stringify(r));
      assert.equal(r.resolved, false, JSON.stringify(r));
      const named = (r.test_infrastructure ?? []).map((f) => (f.key ? `${f.path} ${f.key}` : f.path));
      assert.ok(named.includes(expected.get(id)!), `${expected.get(id)} in ${JSON.stringify(named)}`);
      assert.ok(Object.keys(r.spec_results).length > 0, 'the specs ran');
      assert.ok(
        Object.values(r.spec_results).every((s) => s.verdict === 'tampered'),
        JSON.stringify(r.spec_results),
      );
      assert.match(r.error ?? '', new RegExp(expected.get(id)!.replace(/[.[\]]/g, '\\$&')));
      assert.ok(report.unresolved_ids.includes(id));
    });
  }

  it('a fix beside a dependency key or another pyproject key still resolves', () => {
    for (const id of ['js-fix-and-dependency', 'py-fix-and-description']) {
      const r = report.instances[id];
      assert.equal(r?.resolved, true, JSON.stringify(r));
      assert.equal(r?.test_infrastructure, undefined);
    }
  });

  it("leaves the user's repositories as they were", () => {
    assert.deepEqual(treeFingerprint(pyRepo.root), pyBefore);
    assert.deepEqual(treeFingerprint(jsRepo.root), jsBefore);
  });
});
