// Export round trip on the demo workspace in a temp git repository: the export of an uncommitted fix with a .env,
// a key file and an ignored file around it — what it wrote, what it left out, and that the user's repository is
// untouched. Real git, real node:test runs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExportResult } from '../../../src/core/tasks/export/exportTask';
import { taskSchema } from '../../../src/core/tasks/taskFormat';
import { exportedTexts, type DemoRepo } from '../../support/demoRepo';
import {
  exportDemoWithSurroundings,
  FAKE_AWS_KEY,
  FAKE_GOOGLE_KEY,
  FAKE_OPENAI_KEY,
  type DemoExport,
} from './demoExport';

describe('weave export + eval round trip on examples/', () => {
  let demo: DemoExport;
  let repo: DemoRepo;
  let scratch: string;
  let taskDir: string;
  let result: ExportResult;
  let fingerprintBefore: Map<string, string>;
  let fingerprintAfter: Map<string, string>;

  before(async () => {
    demo = await exportDemoWithSurroundings();
    ({ repo, scratch, taskDir, result, fingerprintBefore, fingerprintAfter } = demo);
  });

  after(() => {
    demo.cleanup();
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
      [
        '.env: secret file name',
        '.envrc: secret file name',
        'env.local: secret file name',
        'notes.txt: secret-like content',
        'server.key: secret file name',
        'src/maps.js: secret-like content',
      ],
    );
    for (const [file, text] of exportedTexts(taskDir)) {
      assert.ok(!text.includes(FAKE_OPENAI_KEY), `${file} carries the OpenAI-like key`);
      assert.ok(!text.includes(FAKE_AWS_KEY), `${file} carries the AWS-like key`);
      assert.ok(!text.includes('not really a key'), `${file} carries server.key`);
      assert.ok(!/direnv-value|local-value/.test(text), `${file} carries .envrc or env.local`);
      assert.ok(!text.includes(FAKE_GOOGLE_KEY), `${file} carries the Google API key`);
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
});
