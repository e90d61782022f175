// Codex's apply_patch envelope and the apply_patch command in a shell line, in-process: which paths a patch
// writes, and that a patch the guard cannot read is reported as an unresolved write (denied by the guard).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { argvAsShell, patchEnvelopeTargets } from '../../../src/cli/guard/applyPatch';
import { bashParse } from '../../../src/cli/guard/bashSyntax';
import { readShell } from '../../../src/cli/guard/shellReader';
import type { ShellParse } from '../../../src/cli/guard/shellSyntax';

const PATCH = `*** Begin Patch
*** Add File: test/new.test.js
+test('x', () => {});
*** Update File: src/a.js
*** Move to: test/moved.test.js
@@
-a
+b
*** Delete File: test/old.test.js
*** End Patch`;

describe('the apply_patch envelope', () => {
  test('every Add, Update, Delete and Move to path, in order, with its operation', () => {
    assert.deepEqual(patchEnvelopeTargets(PATCH), [
      { path: 'test/new.test.js', op: 'add' },
      { path: 'src/a.js', op: 'update' },
      { path: 'test/moved.test.js', op: 'move' },
      { path: 'test/old.test.js', op: 'delete' },
    ]);
  });

  test('markers as Codex accepts them: indented, CRLF line ends, trailing blanks', () => {
    const loose =
      '  *** Begin Patch\r\n  *** Update File: test/a.test.js  \r\n@@\r\n-x\r\n+y\r\n*** End Patch\r\n';
    assert.deepEqual(patchEnvelopeTargets(loose), [{ path: 'test/a.test.js', op: 'update' }]);
  });

  test('lines that only look like markers inside a hunk body (+/- prefixed) are content, not targets', () => {
    const body = '*** Begin Patch\n*** Update File: a.js\n@@\n-*** Delete File: test/x.js\n+y\n*** End Patch';
    assert.deepEqual(patchEnvelopeTargets(body), [{ path: 'a.js', op: 'update' }]);
  });

  test('no envelope: no targets', () => {
    assert.deepEqual(patchEnvelopeTargets('diff --git a/x b/x\n'), []);
    assert.deepEqual(patchEnvelopeTargets(''), []);
  });
});

describe('apply_patch in a shell line', () => {
  let bash: ShellParse;
  before(async () => {
    bash = await bashParse();
  });
  const writes = (command: string, cwd = '/ws'): string[] =>
    readShell(bash, command, cwd).map((e) =>
      e.kind === 'path'
        ? `${e.access} ${e.dirs?.join(',')}:${e.word.text}`
        : `${e.kind} ${'text' in e ? e.text : ''}`,
    );

  test('a heredoc (the form Codex runs itself): each target is a write, from the directory a cd left', () => {
    assert.deepEqual(writes(`cd test && apply_patch <<'EOF'\n${PATCH}\nEOF`), [
      'write /ws/test:test/new.test.js',
      'write /ws/test:src/a.js',
      'write /ws/test:test/moved.test.js',
      'write /ws/test:test/old.test.js',
    ]);
  });

  test('the patch as an argument, and printed by a literal printf into a pipe', () => {
    const one = '*** Begin Patch\n*** Delete File: test/old.test.js\n*** End Patch';
    assert.deepEqual(writes(`apply_patch "${one}"`), ['write /ws:test/old.test.js']);
    assert.deepEqual(writes(`apply_patch "${one.replace('old', 'ölder')}"`), [
      'write /ws:test/ölder.test.js',
    ]);
    assert.deepEqual(writes(`printf '%s' '${one}' | applypatch`), ['write /ws:test/old.test.js']);
    assert.deepEqual(
      writes(String.raw`printf '*** Begin Patch\n*** Add File: t.js\n+x\n*** End Patch\n' | apply_patch`),
      ['write /ws:t.js'],
    );
  });

  test('a patch the guard cannot read is an unresolved write', () => {
    for (const command of [
      'cat /tmp/p.patch | apply_patch',
      'base64 -d <<< KioqIEJlZ2lu | apply_patch',
      'apply_patch "$(cat /tmp/p.patch)"',
      'apply_patch < /nonexistent/p.patch',
      'apply_patch',
      "apply_patch 'not a patch'",
    ]) {
      const effects = readShell(bash, command, '/ws');
      assert.ok(
        effects.some(
          (e) => e.kind === 'unresolved' && /apply_patch with a patch the guard cannot read/.test(e.how),
        ),
        `${command}: ${JSON.stringify(effects)}`,
      );
    }
  });

  test('an argument array reads as the shell line it amounts to', () => {
    const argv = ['apply_patch', "*** Begin Patch\n*** Update File: it's.js\n@@\n-a\n+b\n*** End Patch"];
    assert.deepEqual(writes(argvAsShell(argv)), ["write /ws:it's.js"]);
    // (A redirection after `cd d &&` is read from both directories: tree-sitter hangs it on the whole list.)
    assert.deepEqual(writes(argvAsShell(['bash', '-lc', 'cd test && echo x > a.test.js'])), [
      'write /ws/test,/ws:a.test.js',
    ]);
  });
});
