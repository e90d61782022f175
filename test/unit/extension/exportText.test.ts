// The export command's words: the refusal carries each spec's output, and a typed folder that does not exist yet
// (with or without a trailing slash) is accepted while a file is refused.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { exportPathProblem, reasonLine, refusalText } from '../../../src/extension/views/exportText';

// The shape core/tasks/export/exportVerification.ts gives a failed spec's reason: a head, then indented output.
const FAILED = {
  spec: 'clamp-bounds',
  reason:
    'base + test.patch: pass, expected fail; its output ends:\n      first line\n      AssertionError: 3 !== 5\n      at test.js:4',
};

test('a refused spec is followed by the end of its output, not by nothing', () => {
  assert.equal(
    reasonLine(FAILED),
    'clamp-bounds: base + test.patch: pass, expected fail; its output ends: AssertionError: 3 !== 5',
  );
  assert.equal(reasonLine({ spec: '*', reason: 'no git repository' }), 'task: no git repository');
  const text = refusalText([
    FAILED,
    { spec: 'b', reason: 'x' },
    { spec: 'c', reason: 'y' },
    { spec: 'd', reason: 'z' },
  ]);
  assert.match(
    text,
    /^Weave: the task did not verify, so nothing was written\. clamp-bounds: .*its output ends: Assert/,
  );
  assert.match(text, / · b: x · c: y \(\+1 more in the output\)$/);
});

// What `weave export` gave for the demo with break-staleness.patch (node:test's failure cut to its last 12 lines):
// the last lines are Node's inspected error, so the plain tail read "diff: 'simple' ⏎ }".
const DEMO_REASON = {
  spec: 'no-stale-read',
  reason: [
    'passes on base + test.patch but does not pass with the gold patch: fail (exit code 1: 1 of 1 test failed (node:test)); its output ends:',
    "        'v1' !== 'v2'",
    '        ',
    '            at TestContext.<anonymous> ($TMPDIR/weave-eval-YF3att/repo/test/no-stale-read.test.js:23:10)',
    '            at async Test.run (node:internal/test_runner/test:1409:7)',
    '            at async startSubtestAfterBootstrap (node:internal/test_runner/harness:387:3) {',
    '          generatedMessage: false,',
    "          code: 'ERR_ASSERTION',",
    "          actual: 'v1',",
    "          expected: 'v2',",
    "          operator: 'strictEqual',",
    "          diff: 'simple'",
    '        }',
  ].join('\n'),
};

test("a node:test failure's reason shows the assertion's line, not the inspected error's closing brace", () => {
  assert.equal(
    reasonLine(DEMO_REASON),
    "no-stale-read: passes on base + test.patch but does not pass with the gold patch: fail (exit code 1: 1 of 1 test failed (node:test)); its output ends: 'v1' !== 'v2'",
  );
});

test('a new folder is accepted with or without a trailing slash; a file or the workspace itself is refused', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-export-path-'));
  try {
    const workspace = path.join(root, 'ws');
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(root, 'a-file'), 'x');
    assert.equal(exportPathProblem(path.join(root, 'new', 'task'), workspace), undefined);
    assert.equal(exportPathProblem(`${path.join(root, 'new-task')}/`, workspace), undefined);
    assert.equal(exportPathProblem('../relative-task', workspace), undefined);
    assert.equal(exportPathProblem(root, workspace), undefined, 'an existing folder');
    assert.match(
      exportPathProblem(path.join(root, 'a-file'), workspace) ?? '',
      /a-file is a file, not a folder/,
    );
    assert.match(
      exportPathProblem(path.join(root, 'a-file', 'task'), workspace) ?? '',
      /is a file, so .* cannot be created/,
    );
    assert.match(exportPathProblem('  ', workspace) ?? '', /Type the folder/);
    assert.match(exportPathProblem('.', workspace) ?? '', /the workspace itself/);
    assert.equal(fs.existsSync(path.join(root, 'new')), false, 'checking a path must not create it');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
