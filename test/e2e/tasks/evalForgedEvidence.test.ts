// `weave eval` against predictions whose code forges its verdict from inside the test's own process (issue #22,
// part 4, for predictions): eval.sh alone judges by exit codes and printed summaries, so each of these resolved
// while eval scored from eval.sh's spec runs. Now Weave runs the spec phase itself, contained, on the runner hooks'
// signed evidence: none resolves, each says why, and the real fix still resolves on the runner's results (the
// control that makes the other assertions able to fail). Real git, real node:test and pytest, bwrap.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { evaluate, type EvalReport } from '../../../src/core/tasks/eval/evalTasks';
import { exportTask } from '../../../src/core/tasks/export/exportTask';
import { applyPatch, makeDemoRepo, readPatch, type DemoRepo } from '../../support/demoRepo';
import { patchAdding } from '../sandbox/infrastructureAttacks';
import { tasksPerPrediction } from '../../support/taskFolder';
import { makePythonRepo, PYTHON_SLUG_BASE, PYTHON_SLUG_FIX } from './fixtureRepos';

// Source code (not test infrastructure: the diff policy lets it through) that makes every assertion pass.
const NO_OP_ASSERTS =
  "for (const m of ['node:assert', 'node:assert/strict']) { const a = require(m);" +
  " for (const k of Object.keys(a)) if (typeof a[k] === 'function') a[k] = () => {}; }\n";
// The wrong slugify, and a process that prints pytest's own summary and leaves before pytest can report.
const FAKE_SUMMARY_EXIT =
  'import os, sys\nsys.stdout.write("..\\n2 passed in 0.01s\\n")\nsys.stdout.flush()\nos._exit(0)\n';

describe('weave eval: a prediction cannot forge its pass from inside the test process', () => {
  let scratch: string;
  let pyRepo: DemoRepo;
  let jsRepo: DemoRepo;
  let report: EvalReport;

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-eval-forged-'));
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
    const clientJs = fs.readFileSync(path.join(jsRepo.root, 'src/client.js'), 'utf8');
    const predictions = [
      {
        id: 'py-gold',
        task: 'py',
        patch: patchAdding(pyRepo.root, { 'src/slugkit/slug.py': PYTHON_SLUG_FIX }),
      },
      {
        id: 'py-exit-zero',
        task: 'py',
        patch: patchAdding(pyRepo.root, {
          'src/slugkit/slug.py': `import os\nos._exit(0)\n${PYTHON_SLUG_BASE}`,
        }),
      },
      {
        id: 'py-fake-summary',
        task: 'py',
        patch: patchAdding(pyRepo.root, { 'src/slugkit/slug.py': `${FAKE_SUMMARY_EXIT}${PYTHON_SLUG_BASE}` }),
      },
      { id: 'js-gold', task: 'js', patch: fix },
      {
        id: 'js-no-op-asserts',
        task: 'js',
        patch: patchAdding(jsRepo.root, { 'src/client.js': `${NO_OP_ASSERTS}${clientJs}` }),
      },
    ];
    const { tasksDir, predictionsFile } = tasksPerPrediction(scratch, predictions, 'forger');
    report = await evaluate({ taskDirs: [tasksDir], predictionsFile, workers: 2 });
  });

  after(() => {
    pyRepo.cleanup();
    jsRepo.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const instance = (id: string): EvalReport['instances'][string] => {
    const r = report.instances[id];
    assert.ok(r, `${id} is in the report`);
    return r;
  };

  it('controls: the real fixes resolve, every spec passing on the runner’s own results', () => {
    for (const id of ['py-gold', 'js-gold']) {
      const r = instance(id);
      assert.equal(r.resolved, true, JSON.stringify(r));
      assert.ok(
        Object.values(r.spec_results).every((s) => s.verdict === 'pass'),
        JSON.stringify(r),
      );
    }
  });

  it('os._exit(0) while pytest collects: the runner never finished, an error, unresolved', () => {
    const r = instance('py-exit-zero');
    assert.equal(r.resolved, false, JSON.stringify(r));
    assert.equal(r.patch_successfully_applied, true);
    for (const s of Object.values(r.spec_results)) assert.notEqual(s.verdict, 'pass', JSON.stringify(s));
  });

  it('a printed "2 passed" and os._exit(0): the summary is not the runner’s word, unresolved', () => {
    const r = instance('py-fake-summary');
    assert.equal(r.resolved, false, JSON.stringify(r));
    const slug = r.spec_results['strips-punctuation'];
    assert.ok(slug, JSON.stringify(r.spec_results));
    assert.notEqual(slug.verdict, 'pass', JSON.stringify(slug));
  });

  it('source that turns node:assert into no-ops: the specs it ran in are tampered, naming what it replaced', () => {
    const r = instance('js-no-op-asserts');
    assert.equal(r.resolved, false, JSON.stringify(r));
    const results = Object.values(r.spec_results);
    const tampered = results.filter((s) => s.verdict === 'tampered');
    // The specs that ran are tampered; those depending on them are blocked by it. None passes.
    assert.ok(tampered.length > 0, JSON.stringify(r.spec_results));
    for (const s of tampered)
      assert.match(s.reason ?? '', /node:assert(\/strict)?\.\w+ was replaced by code under test/);
    for (const s of results)
      assert.ok(s.verdict === 'tampered' || s.verdict === 'blocked', JSON.stringify(s));
  });

  it('counts none of the forgeries as resolved', () => {
    assert.deepEqual([...report.resolved_ids].sort(), ['js-gold', 'py-gold']);
  });
});
