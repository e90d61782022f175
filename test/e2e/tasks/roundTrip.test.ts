// Round trip on the demo workspace in a temp git repository: export (with an uncommitted fix, a .env, a key
// file and an ignored file around) → eval of gold, empty, fix-and-break, test-editing, non-applying, hanging
// and malformed predictions. Real git, real node:test runs, real process trees.
import { processesRunning } from '../sandbox/processes';
import { holdsWithin } from '../../support/polling';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportTask, type ExportResult } from '../../../src/core/tasks/exportTask';
import { evaluate, type EvalReport } from '../../../src/core/tasks/evalTasks';
import { taskSchema } from '../../../src/core/tasks/taskFormat';
import {
  applyPatch,
  exportedTexts,
  makeDemoRepo,
  readPatch,
  treeFingerprint,
  type DemoRepo,
} from '../../support/demoRepo';

// Built by concatenation so the repository itself holds no secret-looking literal.
const FAKE_OPENAI_KEY = ['sk-', 'proj-', 'abcdefghijklmnopqrstuvwxyz0123456789'].join('');
const FAKE_AWS_KEY = ['AKIA', 'Z7QRSTUVWX2345YZ'].join('');

describe('weave export + eval round trip on examples/', () => {
  let repo: DemoRepo;
  let scratch: string;
  let taskDir: string;
  let result: ExportResult;
  let fingerprintBefore: Map<string, string>;
  let fingerprintAfter: Map<string, string>;

  before(async () => {
    repo = makeDemoRepo();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-out-'));
    taskDir = path.join(scratch, 'task');
    applyPatch(repo.workspace, readPatch('fix-secret-caching.patch'));
    // Around the change: secrets (never exported), an ignored file, an untracked helper (exported).
    fs.writeFileSync(path.join(repo.workspace, '.env'), `OPENAI_API_KEY=${FAKE_OPENAI_KEY}\n`);
    fs.writeFileSync(path.join(repo.workspace, 'server.key'), 'not really a key, but named like one\n');
    fs.writeFileSync(path.join(repo.workspace, 'notes.txt'), `aws ${FAKE_AWS_KEY} for later\n`);
    fs.mkdirSync(path.join(repo.workspace, 'node_modules'));
    fs.writeFileSync(
      path.join(repo.workspace, 'node_modules', 'ignored.js'),
      'module.exports = "IGNORED_MARKER";\n',
    );
    fs.writeFileSync(
      path.join(repo.workspace, 'src', 'auth.js'),
      `// Lives in ${repo.workspace}\nmodule.exports = {};\n`,
    );
    fs.mkdirSync(path.join(repo.workspace, '.weave', 'cache'), { recursive: true });
    fs.writeFileSync(path.join(repo.workspace, '.weave', 'cache', 'index.json'), '"WEAVE_CACHE_MARKER"\n');
    fingerprintBefore = treeFingerprint(repo.root);
    result = await exportTask({
      workspaceDir: repo.workspace,
      outDir: taskDir,
      datasetFile: path.join(scratch, 'dataset.jsonl'),
      weaveVersion: 'test',
    });
    fingerprintAfter = treeFingerprint(repo.root);
  });

  after(() => {
    repo.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('writes a verified task whose FAIL_TO_PASS is the fixed spec and PASS_TO_PASS the rest', () => {
    assert.equal(result.written, true);
    assert.equal(result.verified, true, JSON.stringify(result.reasons));
    assert.equal(result.baseRef, 'HEAD', 'uncommitted changes make HEAD the default base');
    assert.deepEqual(result.failToPass, ['no-secret-caching']);
    assert.deepEqual([...result.passToPass].sort(), [
      'cache-hit',
      'header-names',
      'hit-rate',
      'no-error-caching',
      'no-stale-read',
      'response-shape',
      'size-budget',
    ]);
    for (const file of [
      'task.json',
      'problem_statement.md',
      'gold.patch',
      'test.patch',
      'eval.sh',
      'base.bundle',
    ]) {
      assert.ok(fs.existsSync(path.join(taskDir, file)), `${file} is written`);
    }
  });

  it('task.json has SWE-bench’s 12 fields with their types, and Weave’s specs', () => {
    const task = taskSchema.parse(JSON.parse(fs.readFileSync(path.join(taskDir, 'task.json'), 'utf8')));
    assert.match(task.base_commit, /^[0-9a-f]{40}$/);
    assert.equal(task.environment_setup_commit, task.base_commit);
    assert.equal(task.patch, fs.readFileSync(path.join(taskDir, 'gold.patch'), 'utf8'));
    assert.equal(task.test_patch, '', 'the fix touches no spec test file');
    assert.ok(task.problem_statement.includes('no-secret-caching'));
    assert.equal(task.specs.length, 8);
    assert.equal(task.specs.find((s) => s.id === 'hit-rate')?.test.timeoutSeconds, 30);
    assert.equal(task.specs.find((s) => s.id === 'cache-hit')?.test.timeoutSeconds, 60, 'defaults applied');
    assert.ok(task.declared_interactions.some(([a, b]) => a === 'header-names' && b === 'no-secret-caching'));
    assert.ok(task.potential_interactions.length > 0, 'static coupling found shared anchors');
    assert.ok(task.spec_test_files.includes('test/no-secret-caching.test.js'));
    const line = JSON.parse(fs.readFileSync(path.join(scratch, 'dataset.jsonl'), 'utf8').trim()) as Record<
      string,
      unknown
    >;
    assert.equal(line.FAIL_TO_PASS, '["no-secret-caching"]', 'JSON-encoded string in the dataset line');
    assert.equal(typeof line.PASS_TO_PASS, 'string');
    assert.equal(line.instance_id, task.instance_id);
    assert.equal(line.task_dir, 'task', 'the task folder, relative to the dataset file');
    assert.equal(line.base_bundle, 'task/base.bundle');
  });

  it('gold.patch holds the uncommitted fix and untracked files, not ignored ones', () => {
    const gold = fs.readFileSync(path.join(taskDir, 'gold.patch'), 'utf8');
    assert.match(gold, /^diff --git a\/src\/client\.js b\/src\/client\.js$/m);
    assert.match(gold, /hasAuthorization/);
    assert.match(gold, /^diff --git a\/src\/auth\.js b\/src\/auth\.js$/m, 'untracked, not ignored: included');
    assert.doesNotMatch(gold, /IGNORED_MARKER|node_modules/);
    for (const [file, text] of exportedTexts(taskDir)) {
      assert.ok(!text.includes('WEAVE_CACHE_MARKER'), `${file} carries Weave's own state (.weave/cache)`);
    }
  });

  it('never exports .env or key-like files, and says which it left out', () => {
    assert.deepEqual(
      result.excluded.map((e) => `${e.path}: ${e.reason}`),
      ['.env: secret file name', 'notes.txt: secret-like content', 'server.key: secret file name'],
    );
    for (const [file, text] of exportedTexts(taskDir)) {
      assert.ok(!text.includes(FAKE_OPENAI_KEY), `${file} carries the OpenAI-like key`);
      assert.ok(!text.includes(FAKE_AWS_KEY), `${file} carries the AWS-like key`);
      assert.ok(!text.includes('not really a key'), `${file} carries server.key`);
    }
  });

  it('scrubs absolute temp paths and the home directory from every exported file and field', () => {
    const forbidden = [repo.root, fs.realpathSync(repo.root), scratch, os.tmpdir(), os.homedir()];
    for (const [file, text] of exportedTexts(taskDir)) {
      for (const p of forbidden) assert.ok(!text.includes(p), `${file} contains ${p}`);
    }
    const gold = fs.readFileSync(path.join(taskDir, 'gold.patch'), 'utf8');
    assert.match(gold, /^\+\/\/ Lives in \.$/m, 'the workspace path became "."');
  });

  it('leaves the user’s repository byte-identical (working tree, index, .git)', () => {
    assert.deepEqual(fingerprintAfter, fingerprintBefore);
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

    it('a prediction whose code rewrites a spec test while the specs run is unresolved, naming the file', () => {
      const r = tamperReport.instances['rewrites-tests'];
      assert.ok(r, 'rewrites-tests is in its report');
      assert.deepEqual(r.tampered_files, ['test/no-secret-caching.test.js']);
      assert.equal(r.resolved, false);
      assert.match(r.error ?? '', /spec test files changed at run time: test\/no-secret-caching\.test\.js/);
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

/** A patch that adds one line at the top of Client.get in the demo's src/client.js. */
function patchClientGet(line: string): string {
  return [
    '--- a/src/client.js',
    '+++ b/src/client.js',
    '@@ -20,6 +20,7 @@ class Client {',
    '    * @param {{headers?: Record<string, string>}} [options]',
    '    */',
    '   async get(url, { headers = {} } = {}) {',
    `+    ${line}`,
    '     const cached = this.cache.get(url);',
    '     if (cached !== undefined) return copyResponse(cached);',
    ' ',
    '',
  ].join('\n');
}

function testEditingPatch(): string {
  // Turns the secret-caching assertion into one that always holds.
  return [
    '--- a/test/no-secret-caching.test.js',
    '+++ b/test/no-secret-caching.test.js',
    '@@ -18,6 +18,6 @@',
    "   await client.get('/me', { headers: { Authorization: 'Bearer s3cret' } });",
    "   await client.get('/me', { headers: { authorization: 'Bearer s3cret' } });",
    "-  assert.equal(client.cache.size, 0, 'the authorized response was stored in the cache');",
    '+  assert.ok(client.cache.size >= 0);',
    ' ',
    "   const anonymous = await client.get('/me');",
    '   assert.equal(anonymous.body, \'{"user":"anonymous"}\');',
    '',
  ].join('\n');
}

/** Makes the client print fake "spec passed" markers (old format and empty nonce) whenever it is loaded. */
function forgingPatch(): string {
  const forged = [
    '<<<<< WEAVE SPEC END no-secret-caching exit=0 timed_out=0 seconds=0',
    '<<<<< WEAVE[] SPEC END no-secret-caching exit=0 timed_out=0 seconds=0',
  ];
  return patchClientGet(`process.stdout.write(${JSON.stringify(`\n${forged.join('\n')}\n`)});`);
}

/** No fix: the code, once loaded by an earlier spec's test, replaces the failing spec's test with a passing one. */
function runtimeTamperingPatch(): string {
  const rewrite =
    "require('fs').writeFileSync(require('path').join(__dirname, '../test/no-secret-caching.test.js'), " +
    "\"require('node:test')('ok', () => {});\\n\");";
  return patchClientGet(rewrite);
}

function nonApplyingPatch(): string {
  return [
    '--- a/src/client.js',
    '+++ b/src/client.js',
    '@@ -1,3 +1,3 @@',
    '-this line is not there',
    '+nor this',
    ' at all',
    '',
  ].join('\n');
}

const hangToken = `4242.${process.pid}`;

function hangingPatch(): string {
  return patchClientGet(`require('child_process').spawnSync('sleep', [${JSON.stringify(hangToken)}]);`);
}

/** The fix with one context line changed, so only a fuzzy patch places the hunk. */
function fuzzyPatch(fix: string): string {
  return fix.replace(
    '   * @param {{headers?: Record<string, string>}} [options]',
    '   * @param {{headers?: object}} [options]',
  );
}
