// Links made earlier in the same command are followed (issue #36): a write through `t` after `ln -s test t`
// counts for test/; so do `cp -s`, hard links, and a folder holding a link renamed with mv or copied with cp -r.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { writesOf } from './readShell';

describe('links made in the same command', () => {
  test('ln -s DIR NAME: a write under NAME is a write under DIR', async () => {
    assert.deepEqual(await writesOf('ln -s test t && cat > t/x.test.js'), [
      'write /w/t',
      'write /w/t/x.test.js',
      'write /w/test/x.test.js',
    ]);
  });
  test("a relative symlink target is read from the link's folder; ln -sr from the working directory", async () => {
    assert.ok((await writesOf('ln -s ../test d/l; echo > d/l/x')).includes('write /w/test/x'));
    assert.ok((await writesOf('ln -sr test d/l; echo > d/l/x')).includes('write /w/test/x'));
  });
  test('a hard link and cp -s', async () => {
    assert.ok((await writesOf('ln test/a.js h; echo >> h')).includes('write /w/test/a.js'));
    assert.ok((await writesOf('cp -s /w/test/a.js s; echo > s')).includes('write /w/test/a.js'));
  });
  test('mkdir, a link inside, mv of the folder: followed under the new name', async () => {
    assert.ok(
      (await writesOf('mkdir d && ln -s ../test d/l && mv d e && echo > e/l/x')).includes('write /w/test/x'),
    );
    assert.ok((await writesOf('ln -s ../test d/l && cp -r d e && echo > e/l/x')).includes('write /w/test/x'));
  });
  test('links of links', async () => {
    assert.ok((await writesOf('ln -s test a; ln -s a b; echo > b/x')).includes('write /w/test/x'));
  });
  test('a link in a subshell outlives it; reads through a link are not writes', async () => {
    assert.ok((await writesOf('(ln -s test t); echo > t/x')).includes('write /w/test/x'));
    assert.deepEqual(await writesOf('ln -s test t2 && cat t2/x'), ['write /w/t2']);
  });
});
