// A refused Apply names each conflicting file in words: the patch splits into one patch per file, and git's
// stderr for a file becomes a kind and a sentence (no "error: patch failed" reaches the user).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  classifyApplyFailure,
  conflictSummary,
  splitPatchByFile,
} from '../../../src/core/agent/patchConflicts';

const PATCH = [
  'diff --git a/src/math.js b/src/math.js',
  'index 1111111..2222222 100644',
  '--- a/src/math.js',
  '+++ b/src/math.js',
  '@@ -1,3 +1,3 @@',
  ' function clamp(v, low, high) {',
  '-  return Math.max(low, v);',
  '+  return Math.min(high, Math.max(low, v));',
  ' }',
  'diff --git a/src/gone.js b/src/gone.js',
  'deleted file mode 100644',
  'index 3333333..0000000',
  '--- a/src/gone.js',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-old',
  'diff --git a/src/new.js b/src/new.js',
  'new file mode 100644',
  'index 0000000..4444444',
  '--- /dev/null',
  '+++ b/src/new.js',
  '@@ -0,0 +1 @@',
  '+new',
  '',
].join('\n');

describe('splitPatchByFile', () => {
  it('gives one patch per file, each a whole patch of its own, named by its path', () => {
    const files = splitPatchByFile(PATCH);
    assert.deepEqual(
      files.map((f) => f.path),
      ['src/math.js', 'src/gone.js', 'src/new.js'],
    );
    assert.equal(files.map((f) => f.patch).join(''), PATCH);
    for (const f of files) {
      assert.match(f.patch, /^diff --git /);
      assert.equal(f.patch.match(/^diff --git /gm)?.length, 1);
      assert.ok(f.patch.endsWith('\n'));
    }
  });

  it('gives nothing for an empty patch', () => {
    assert.deepEqual(splitPatchByFile(''), []);
  });
});

describe('classifyApplyFailure', () => {
  it("reads git apply's messages into kinds", () => {
    assert.equal(
      classifyApplyFailure('error: patch failed: src/math.js:1\nerror: src/math.js: patch does not apply\n'),
      'edited',
    );
    assert.equal(classifyApplyFailure('error: src/gone.js: No such file or directory\n'), 'missing');
    assert.equal(classifyApplyFailure('error: src/new.js: already exists in working directory\n'), 'exists');
    assert.equal(classifyApplyFailure('fatal: something else\n'), 'other');
  });
});

describe('conflictSummary', () => {
  it('names the one conflicting file, says nothing changed, and what still applies', () => {
    const text = conflictSummary([{ path: 'src/math.js', kind: 'edited', reason: '' }], ['src/counter.js']);
    assert.equal(
      text,
      "The agent's change was not applied: src/math.js conflicts with your edits; nothing was changed. src/counter.js still applies on its own.",
    );
    assert.doesNotMatch(text, /error:|patch failed/);
  });

  it('lists several conflicting files', () => {
    const text = conflictSummary(
      [
        { path: 'a.js', kind: 'edited', reason: '' },
        { path: 'b.js', kind: 'missing', reason: '' },
      ],
      [],
    );
    assert.match(text, /2 files conflict with your edits: a\.js, b\.js; nothing was changed\.$/);
  });
});
