import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { buildPatch, parseDiff } from '../../../src/core/git/hunks';
import { git, initRepo, removeDir, tempDir, writeFiles } from '../../support/repos';

const lines = (n: number, tag = '') =>
  Array.from({ length: n }, (_, i) => `line ${i + 1}${tag}`).join('\n') + '\n';

void test('every subset of -U0 hunks applies to the base and gives exactly those edits', () => {
  const dir = tempDir();
  try {
    writeFiles(dir, { 'a.txt': lines(20), 'gone.txt': 'bye\n', 'bin.dat': '\u0000\u0001' });
    const base = initRepo(dir);
    const edited = lines(20).split('\n');
    edited.splice(2, 1, 'line 3 changed'); // replace
    edited.splice(8, 0, 'inserted after 8', 'second insert'); // insert
    edited.splice(16, 2); // delete two lines (old 15-16)
    writeFiles(dir, {
      'a.txt': edited.join('\n'),
      'new.txt': 'hello\nworld\n',
      'bin.dat': '\u0000\u0002\u0003',
    });
    fs.rmSync(path.join(dir, 'gone.txt'));
    git(dir, 'add', '-A');
    const wanted = new Map(
      ['a.txt', 'new.txt', 'bin.dat', 'gone.txt'].map((f) => [
        f,
        fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f)) : null,
      ]),
    );
    const diff = parseDiff(
      git(dir, 'diff', '--cached', '--no-renames', '--binary', '--full-index', '-U0', base),
    );
    assert.equal(diff.hunks.length, 6);
    assert.deepEqual(
      diff.hunks.map((h) => [h.file, h.kind, h.wholeFile]),
      [
        ['a.txt', 'modified', false],
        ['a.txt', 'modified', false],
        ['a.txt', 'modified', false],
        ['bin.dat', 'modified', true],
        ['gone.txt', 'deleted', false],
        ['new.txt', 'added', false],
      ],
    );
    git(dir, 'reset', '-q', '--hard');
    for (let mask = 0; mask < 1 << diff.hunks.length; mask++) {
      const keep = new Set(diff.hunks.filter((h) => (mask >> h.id) & 1).map((h) => h.id));
      git(dir, 'reset', '-q', '--hard', base);
      git(dir, 'clean', '-fdq');
      const patch = buildPatch(diff, keep);
      if (patch !== '') {
        fs.writeFileSync(path.join(dir, '..', `${path.basename(dir)}.patch`), patch);
        git(dir, 'apply', '--unidiff-zero', path.join(dir, '..', `${path.basename(dir)}.patch`));
      }
      // With all three a.txt hunks kept the file must equal the edited one; with none, the base.
      const aIds = diff.hunks.filter((h) => h.file === 'a.txt').map((h) => h.id);
      const a = fs.readFileSync(path.join(dir, 'a.txt'), 'utf8');
      if (aIds.every((id) => keep.has(id))) assert.equal(a, wanted.get('a.txt')!.toString());
      if (aIds.every((id) => !keep.has(id))) assert.equal(a, lines(20));
      if (keep.has(aIds[0]!) && !keep.has(aIds[1]!))
        assert.match(a, /^line 1\nline 2\nline 3 changed\nline 4\n/);
      if (keep.has(aIds[2]!)) assert.ok(!a.includes('line 15\n') && !a.includes('line 16\n'));
      else assert.ok(a.includes('line 15\nline 16\n'));
      const binId = diff.hunks.find((h) => h.file === 'bin.dat')!.id;
      assert.deepEqual(
        fs.readFileSync(path.join(dir, 'bin.dat')),
        keep.has(binId) ? wanted.get('bin.dat') : Buffer.from('\u0000\u0001'),
      );
      const goneId = diff.hunks.find((h) => h.file === 'gone.txt')!.id;
      assert.equal(fs.existsSync(path.join(dir, 'gone.txt')), !keep.has(goneId));
      const newId = diff.hunks.find((h) => h.file === 'new.txt')!.id;
      assert.equal(fs.existsSync(path.join(dir, 'new.txt')), keep.has(newId));
    }
  } finally {
    fs.rmSync(`${dir}.patch`, { force: true });
    removeDir(dir);
  }
});
