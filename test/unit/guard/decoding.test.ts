// Spellings the reader decodes as bash would (issue #36): ANSI-C and locale quoting, arrays and word splitting,
// `+=`, the tildes `~+`/`~-`, every redirection operator; and variables whose value the reader stops trusting
// (a loop variable, `read`, a function body read where it is defined).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeAnsiC } from '../../../src/cli/guard/shellDecoding';
import { writesOf } from './readShell';

describe('decoding', () => {
  test('ANSI-C escapes: \\x, octal, \\u, \\U, \\n, \\c, an unknown one kept', () => {
    assert.equal(decodeAnsiC('\\x74est'), 'test');
    assert.equal(decodeAnsiC('\\164est'), 'test');
    assert.equal(decodeAnsiC('\\u0074\\U00000065'), 'te');
    assert.equal(decodeAnsiC("a\\nb\\tc\\\\d\\'e"), "a\nb\tc\\d'e");
    assert.equal(decodeAnsiC('\\cA'), '\x01');
    assert.equal(decodeAnsiC('\\q'), '\\q');
  });
  test('$\'…\' and $"…" name the file they spell', async () => {
    assert.deepEqual(await writesOf("cp x $'\\x74/a.test.js'"), ['write /w/t/a.test.js']);
    assert.deepEqual(await writesOf("cat > $'\\164'/a.test.js"), ['write /w/t/a.test.js']);
    assert.deepEqual(await writesOf('echo > $"t/a.test.js"'), ['write /w/t/a.test.js']);
  });
  test('a literal array as the command is its elements; an unknown one is refused', async () => {
    assert.deepEqual(await writesOf('a=(sed -i s/x/y/ t/a.js); "${a[@]}"'), [
      'write /w/s/x/y',
      'write /w/t/a.js',
    ]);
    assert.deepEqual(await writesOf('a=(rm); a+=(t/a.js); ${a[*]}'), ['write /w/t/a.js']);
    assert.deepEqual(await writesOf('"${b[@]}"'), ['unresolved "${b[@]}"']);
    assert.deepEqual(await writesOf('a=(rm $(x)); "${a[@]}"'), ['unresolved "${a[@]}"']);
  });
  test('an unquoted known variable is split into words; += appends', async () => {
    assert.deepEqual(await writesOf('c="rm t/a.js"; $c'), ['write /w/t/a.js']);
    assert.deepEqual(await writesOf('f=t/; f+=a.js; rm $f'), ['write /w/t/a.js']);
    assert.deepEqual(await writesOf('f="a b"; rm "$f"'), ['write /w/a b']);
  });
  test('~+ is the working directory, ~- the previous one, ~user unknown', async () => {
    assert.deepEqual(await writesOf('cd t && rm ~+/a.js'), ['write /w/t/a.js']);
    assert.deepEqual(await writesOf('cd t && rm ~-/a.js'), ['write /w/a.js']);
    assert.deepEqual(await writesOf('rm ~-/a.js'), ['unresolved ~-/a.js']);
    assert.deepEqual(await writesOf('rm ~root/a.js'), ['unresolved ~root/a.js']);
  });
  test('every redirection that opens a file for writing is a write', async () => {
    for (const op of ['>', '>>', '>|', '&>', '&>>', '1<>', '<>', '2>', '3>'])
      assert.deepEqual(await writesOf(`cat x ${op}t/a.js`), ['write /w/t/a.js'], op);
    assert.deepEqual(await writesOf('exec 3<>t/a.js'), ['write /w/t/a.js']);
    assert.deepEqual(await writesOf('cat <t/a.js 2>&1 >&2 <<<hi'), []);
  });
  test('a variable the reader cannot follow is unknown: loop variables, read, functions', async () => {
    assert.deepEqual(await writesOf('x=ok; for x in "rm t/a"; do eval "$x"; done'), ['unresolved "$x"']);
    assert.deepEqual(await writesOf('x=ok; read x <<< "rm t/a"; eval "$x"'), ['unresolved "$x"']);
    assert.deepEqual(await writesOf('x=ok; printf -v x %s "rm t/a"; eval "$x"'), ['unresolved "$x"']);
    assert.deepEqual(await writesOf('x=ok; f() { eval "$x"; }; x="rm t/a"; f'), ['unresolved "$x"']);
    assert.deepEqual(await writesOf('x="rm t/a"; eval "$x"'), ['write /w/t/a']);
  });
  test('what follows a heredoc on its line: a redirection, a pipe, a list', async () => {
    assert.deepEqual(await writesOf("cat <<'EOF' > t/a.js\nx\nEOF"), ['write /w/t/a.js']);
    assert.deepEqual(await writesOf("cat <<'EOF' | sh\nrm t/a.js\nEOF"), ['write /w/t/a.js']);
    assert.deepEqual(await writesOf("cat <<'EOF' && rm t/a.js\nx\nEOF"), ['write /w/t/a.js']);
    assert.deepEqual(await writesOf("cat <<'EOF' | python3\nopen('t/a.js', 'w')\nEOF"), [
      "inline open('t/a.js', 'w')\n",
    ]);
  });
});
