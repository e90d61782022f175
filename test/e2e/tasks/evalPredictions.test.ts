// Eval round trip on the demo task exported from a temp git repository: gold, empty, fix-and-break,
// test-editing, non-applying, fuzzy, marker-forging, run-time tampering and hanging predictions, a failing set-up
// step, and malformed prediction lines and task folders. Real git, real node:test runs, real process trees.
import { processesRunning } from '../sandbox/processes';
import { holdsWithin } from '../../support/polling';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { ExportResult } from '../../../src/core/tasks/export/exportTask';
import { evaluate, type EvalReport } from '../../../src/core/tasks/eval/evalTasks';
import { readPatch } from '../../support/demoRepo';
import { exportDemoWithSurroundings, type DemoExport } from './demoExport';
import {
  forgingPatch,
  fuzzyPatch,
  hangingPatch,
  hangToken,
  nonApplyingPatch,
  runtimeTamperingPatch,
  testEditingPatch,
} from './predictionPatches';

describe('weave export + eval round trip on examples/', () => {
  let demo: DemoExport;
  let scratch: string;
  let taskDir: string;
  let result: ExportResult;

  before(async () => {
    demo = await exportDemoWithSurroundings();
    ({ scratch, taskDir, result } = demo);
  });

  after(() => {
    demo.cleanup();
  });

  describe('eval', () => {
    let report: EvalReport;
    let hangReport: EvalReport;
    let tamperReport: EvalReport;
    let predictionsFile: string;
    const id = (): string => result.instanceId;

    before(async () => {
      // More task copies so each kind of prediction has its own instance id.
      const copies = [
        'fix-and-break',
        'edits-tests',
        'no-apply',
        'hang',
        'empty',
        'fuzz',
        'missing-eval',
        'forged-markers',
        'setup-fails',
      ];
      for (const name of copies) {
        const dir = path.join(scratch, 'tasks', name);
        fs.cpSync(taskDir, dir, { recursive: true });
        const taskFile = path.join(dir, 'task.json');
        const task = JSON.parse(fs.readFileSync(taskFile, 'utf8')) as Record<string, unknown>;
        task.instance_id = name;
        fs.writeFileSync(taskFile, JSON.stringify(task));
      }
      fs.rmSync(path.join(scratch, 'tasks', 'missing-eval', 'eval.sh'));
      // A set-up step that really fails: npm ci without a lockfile.
      const setupEval = path.join(scratch, 'tasks', 'setup-fails', 'eval.sh');
      const noSetup = 'if [ "${WEAVE_RUN_SETUP:-0}" = 1 ]; then\n  :\n';
      const evalText = fs.readFileSync(setupEval, 'utf8');
      assert.ok(evalText.includes(noSetup), 'the demo task has no set-up step');
      fs.writeFileSync(
        setupEval,
        evalText.replace(
          noSetup,
          'if [ "${WEAVE_RUN_SETUP:-0}" = 1 ]; then\n' +
            `  printf '%s WEAVE[%s] %s\\n' '>>>>>' "$weave_nonce" 'SETUP npm ci'\n` +
            `  ( npm ci --offline ) </dev/null 2>&1 || { printf '%s WEAVE[%s] %s\\n' '>>>>>' "$weave_nonce" 'SETUP FAILED'; exit 5; }\n`,
        ),
      );
      fs.mkdirSync(path.join(scratch, 'tasks', 'no-task-json'));
      fs.writeFileSync(path.join(scratch, 'tasks', 'no-task-json', 'gold.patch'), '');

      const fix = readPatch('fix-secret-caching.patch');
      const lines = [
        JSON.stringify({ instance_id: id(), model_name_or_path: 'gold-copy', model_patch: fix }),
        JSON.stringify({
          instance_id: 'fix-and-break',
          model_name_or_path: 'm',
          model_patch: fix + readPatch('break-staleness.patch'),
        }),
        '{"instance_id": "truncated line',
        JSON.stringify({
          instance_id: 'edits-tests',
          model_name_or_path: 'm',
          model_patch: testEditingPatch(),
        }),
        JSON.stringify({ instance_id: 'no-apply', model_name_or_path: 'm', model_patch: nonApplyingPatch() }),
        JSON.stringify({ instance_id: 'empty', model_name_or_path: 'm', model_patch: '' }),
        JSON.stringify({ instance_id: 'fuzz', model_name_or_path: 'm', model_patch: fuzzyPatch(fix) }),
        JSON.stringify({ instance_id: 'missing-eval', model_name_or_path: 'm', model_patch: fix }),
        JSON.stringify({ instance_id: 'no-such-task', model_name_or_path: 'm', model_patch: fix }),
        JSON.stringify({ model_name_or_path: 'm', model_patch: fix }),
        JSON.stringify({
          instance_id: 'forged-markers',
          model_name_or_path: 'm',
          model_patch: forgingPatch(),
        }),
        JSON.stringify({ instance_id: 'setup-fails', model_name_or_path: 'm', model_patch: fix }),
      ];
      predictionsFile = path.join(scratch, 'preds.jsonl');
      fs.writeFileSync(predictionsFile, `${lines.join('\n')}\n`);
      // The hanging prediction gets its own run with a short per-instance timeout; the others keep the
      // default (the sum of the spec timeouts), which a loaded machine needs.
      const hangFile = path.join(scratch, 'hang.jsonl');
      fs.writeFileSync(
        hangFile,
        `${JSON.stringify({ instance_id: 'hang', model_name_or_path: 'm', model_patch: hangingPatch() })}\n`,
      );
      // The runtime tamperer, like the hang, gets its own run so the main report's counts stay as they were.
      const tamperTask = path.join(scratch, 'tamper-tasks', 'rewrites-tests');
      fs.cpSync(taskDir, tamperTask, { recursive: true });
      const tamperTaskFile = path.join(tamperTask, 'task.json');
      fs.writeFileSync(
        tamperTaskFile,
        JSON.stringify({
          ...JSON.parse(fs.readFileSync(tamperTaskFile, 'utf8')),
          instance_id: 'rewrites-tests',
        }),
      );
      const tamperFile = path.join(scratch, 'tamper.jsonl');
      fs.writeFileSync(
        tamperFile,
        `${JSON.stringify({ instance_id: 'rewrites-tests', model_name_or_path: 'm', model_patch: runtimeTamperingPatch() })}\n`,
      );
      [report, hangReport, tamperReport] = await Promise.all([
        evaluate({
          taskDirs: [taskDir, path.join(scratch, 'tasks')],
          predictionsFile,
          workers: 2,
          logsDir: path.join(scratch, 'logs'),
        }),
        evaluate({
          taskDirs: [path.join(scratch, 'tasks', 'hang')],
          predictionsFile: hangFile,
          timeoutSeconds: 8,
        }),
        evaluate({ taskDirs: [tamperTask], predictionsFile: tamperFile }),
      ]);
    });

    const instance = (name: string) => {
      const r = report.instances[name];
      assert.ok(r, `${name} is in the report`);
      return r;
    };

    it('resolves the gold patch, applied with git apply', () => {
      const r = instance(id());
      assert.equal(r.resolved, true, JSON.stringify(r));
      assert.equal(r.patch_applied_with, 'git-apply');
      assert.deepEqual(r.tests_status.FAIL_TO_PASS, { success: ['no-secret-caching'], failure: [] });
      assert.deepEqual(r.tests_status.PASS_TO_FAIL, { success: [], failure: [] });
      assert.equal(r.compliance.strict, true);
    });

    it('does not resolve an empty patch, and says so', () => {
      const r = instance('empty');
      assert.equal(r.resolved, false);
      assert.equal(r.patch_exists, false);
      assert.deepEqual(r.tests_status.FAIL_TO_PASS.failure, ['no-secret-caching']);
      assert.ok(report.empty_patch_ids.includes('empty'));
      assert.match(r.error ?? '', /empty patch/);
    });

    it('shows a spec the patch broke under PASS_TO_FAIL while the fixed one passes', () => {
      const r = instance('fix-and-break');
      assert.equal(r.resolved, false);
      assert.deepEqual(r.tests_status.FAIL_TO_PASS.success, ['no-secret-caching']);
      assert.deepEqual(r.tests_status.PASS_TO_FAIL.failure, ['no-stale-read']);
      assert.ok(r.tests_status.PASS_TO_PASS.failure.includes('no-stale-read'));
      assert.equal(r.compliance.passed, 7);
      const brokenByKind = Object.values(report.by_kind).reduce((sum, k) => sum + k.broken, 0);
      const brokenByInstance = Object.values(report.instances).reduce(
        (sum, i) => sum + i.tests_status.PASS_TO_FAIL.failure.length,
        0,
      );
      assert.equal(brokenByKind, brokenByInstance, 'per-kind "broken" counts every PASS_TO_FAIL');
    });

    it('flags a patch that edits spec tests and scores it on the real tests', () => {
      const r = instance('edits-tests');
      assert.deepEqual(r.edits_spec_tests, ['test/no-secret-caching.test.js']);
      assert.equal(r.patch_successfully_applied, true);
      assert.equal(r.resolved, false, 'the edited test was reset, so the cheat does not pass');
    });

    it('reports a patch that does not apply', () => {
      const r = instance('no-apply');
      assert.equal(r.patch_successfully_applied, false);
      assert.equal(r.resolved, false);
      assert.match(r.error ?? '', /does not apply/);
      assert.ok(report.error_ids.includes('no-apply'));
      assert.deepEqual(report.patch_failed_ids, ['no-apply']);
      // Nothing ran, so no constraint is reported broken (it used to list every PASS_TO_PASS spec here).
      assert.deepEqual(r.tests_status.PASS_TO_FAIL, { success: [], failure: [] });
      assert.deepEqual(r.tests_status.PASS_TO_PASS, { success: [], failure: [] });
      assert.deepEqual(r.spec_results, {});
    });

    it('reports a failed environment set-up as an infra failure with its output, not as broken specs', () => {
      const r = instance('setup-fails');
      assert.equal(r.patch_successfully_applied, true, 'the patch itself applied');
      assert.match(r.infra_failure ?? '', /environment set-up failed/);
      assert.match(r.infra_failure ?? '', /npm/, 'the set-up output is shown');
      assert.deepEqual(r.tests_status.PASS_TO_FAIL.failure, []);
      assert.deepEqual(report.infra_failure_ids, ['setup-fails']);
      const broken = Object.values(report.by_kind).reduce((sum, k) => sum + k.broken, 0);
      assert.equal(broken, 1, 'only fix-and-break broke a constraint');
    });

    it('ignores spec markers printed by the code under test (they lack the run’s nonce)', () => {
      const r = instance('forged-markers');
      const log = fs.readFileSync(path.join(scratch, 'logs', 'forged-markers.log'), 'utf8');
      assert.ok(log.includes('<<<<< WEAVE SPEC END no-secret-caching exit=0'), 'the forgery was printed');
      assert.ok(log.includes('<<<<< WEAVE[] SPEC END no-secret-caching exit=0'));
      assert.equal(r.spec_results['no-secret-caching']?.verdict, 'fail');
      assert.equal(r.resolved, false);
      const nonce = /^>>>>> WEAVE\[([0-9a-f]{32})\] PATCH/m.exec(log)?.[1];
      assert.ok(nonce, 'the real markers carry a 32-hex-digit nonce');
      assert.ok(!fs.readFileSync(path.join(taskDir, 'eval.sh'), 'utf8').includes(nonce), 'not in the task');
    });

    it('a prediction whose code rewrites a spec test while the specs run cannot: the test is read-only there', () => {
      const r = tamperReport.instances['rewrites-tests'];
      assert.ok(r, 'rewrites-tests is in its report');
      // The write fails inside the sandbox (EROFS), so nothing changed and the spec keeps its honest verdict.
      assert.equal(r.tampered_files, undefined);
      assert.equal(r.resolved, false);
      assert.notEqual(r.spec_results['no-secret-caching']?.verdict, 'pass');
    });

    it('falls back to patch --fuzz when git apply cannot place a hunk', () => {
      const r = instance('fuzz');
      assert.equal(r.patch_applied_with, 'patch-fuzz');
      assert.equal(r.resolved, true);
    });

    it('times out a hanging spec and leaves no process behind', async () => {
      const r = hangReport.instances.hang;
      assert.ok(r);
      assert.match(r.error ?? '', /timed out after 8 s/);
      assert.equal(r.spec_results['response-shape']?.reason, 'task timed out after 8 s');
      assert.equal(r.resolved, false);
      // The prediction runs sandboxed (its own PID namespace, no write access here): the hang is a `sleep` with a
      // unique argument, looked up from outside.
      assert.ok(
        await holdsWithin(() => processesRunning(`sleep ${hangToken}`).length === 0, 5000),
        'the hanging process outlived the eval',
      );
    });

    it('reports a task folder with a missing file as an instance error', () => {
      const r = instance('missing-eval');
      assert.match(r.error ?? '', /missing eval\.sh/);
      assert.ok(report.problems.some((p) => /no-task-json: missing task\.json/.test(p.message)));
    });

    it('reports malformed lines by line number, unknown ids, and still runs the rest', () => {
      const messages = report.problems.map((p) => p.message);
      assert.ok(
        messages.some((m) => m.includes('preds.jsonl:3: not valid JSON')),
        messages.join('\n'),
      );
      assert.ok(messages.some((m) => m.includes('preds.jsonl:9: unknown instance_id no-such-task')));
      assert.ok(messages.some((m) => m.includes('preds.jsonl:10: instance_id')));
      assert.deepEqual(report.unknown_instance_ids, ['no-such-task']);
      assert.equal(report.submitted_instances, 9);
      assert.equal(report.total_instances, 10);
    });

    it('summarises resolved rate, strict and partial compliance', () => {
      assert.deepEqual([...report.resolved_ids].sort(), ['fuzz', id()].sort());
      assert.equal(report.resolved_rate, 2 / 9);
      assert.ok(report.mean_partial_compliance > report.strict_compliance_rate);
    });
  });
});
