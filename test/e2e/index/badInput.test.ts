import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createIndexer } from '../../../src/core/index';
import { tempDir } from '../../support/indexHelpers';

describe('index: bad input', () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const workspace = (files: Record<string, string | Buffer>): string => {
    const dir = tempDir('bad');
    dirs.push(dir);
    for (const [rel, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), content);
    }
    return dir;
  };
  const index = async (dir: string) => {
    const indexer = createIndexer({ workspaceDir: dir, useCache: false, workers: 0 });
    try {
      return await indexer.indexWorkspace();
    } finally {
      indexer.dispose();
    }
  };
  const reasonOf = (skipped: Array<{ path: string; reason: string }>, file: string) =>
    skipped.find((s) => s.path === file)?.reason;

  it('a binary file with a source extension is skipped as binary', async () => {
    const dir = workspace({
      'ok.js': 'function ok() {}\n',
      'blob.js': Buffer.from([0x66, 0x00, 0x01, 0x02, 0xff]),
    });
    const result = await index(dir);
    assert.equal(reasonOf(result.skipped, 'blob.js'), 'binary');
    assert.deepEqual([...result.files.keys()], ['ok.js']);
  });

  it('a 50 MB file is skipped as too-large without reading it; the rest is indexed', async () => {
    const dir = workspace({ 'ok.py': 'def ok():\n    pass\n' });
    const big = path.join(dir, 'huge.py');
    const fd = fs.openSync(big, 'w');
    const line = Buffer.from('x = 1\n'.repeat(10_000));
    for (let written = 0; written < 50 * 1024 * 1024; written += line.length) fs.writeSync(fd, line);
    fs.closeSync(fd);
    const before = process.memoryUsage().rss;
    const result = await index(dir);
    assert.equal(reasonOf(result.skipped, 'huge.py'), 'too-large');
    assert.match(result.skipped.find((s) => s.path === 'huge.py')!.detail ?? '', /bytes > 2097152/);
    assert.deepEqual([...result.files.keys()], ['ok.py']);
    assert.ok(process.memoryUsage().rss - before < 40 * 1024 * 1024, 'the big file was not read into memory');
  });

  it('unknown extensions are listed as unknown-language, not parsed', async () => {
    const dir = workspace({
      'a.ts': 'export const a = 1;\n',
      'notes.md': '# hi\n',
      'data.bin': 'x',
      Makefile: 'all:\n',
    });
    const result = await index(dir);
    assert.deepEqual(
      result.skipped.map((s) => `${s.path}:${s.reason}`),
      ['Makefile:unknown-language', 'data.bin:unknown-language', 'notes.md:unknown-language'],
    );
    assert.deepEqual([...result.files.keys()], ['a.ts']);
  });

  it('a symlink loop (a folder linking to its ancestor, links to each other) ends, reported', async () => {
    const dir = workspace({ 'src/a.js': 'function a() {}\n' });
    fs.symlinkSync('..', path.join(dir, 'src', 'up'));
    fs.symlinkSync('loop2.js', path.join(dir, 'loop1.js'));
    fs.symlinkSync('loop1.js', path.join(dir, 'loop2.js'));
    const result = await index(dir);
    assert.deepEqual([...result.files.keys()], ['src/a.js']);
    assert.equal(reasonOf(result.skipped, 'src/up'), 'symlink-loop');
    assert.equal(reasonOf(result.skipped, 'loop1.js'), 'symlink-loop');
    assert.equal(reasonOf(result.skipped, 'loop2.js'), 'symlink-loop');
  });

  it('the same symlink loop inside a git repository', async () => {
    const dir = workspace({ 'src/a.js': 'function a() {}\n' });
    fs.symlinkSync('..', path.join(dir, 'src', 'up'));
    fs.symlinkSync('loop2.js', path.join(dir, 'loop1.js'));
    fs.symlinkSync('loop1.js', path.join(dir, 'loop2.js'));
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const result = await index(dir);
    assert.deepEqual([...result.files.keys()], ['src/a.js']);
    assert.equal(reasonOf(result.skipped, 'loop1.js'), 'symlink-loop');
  });

  it('outside git: .gitignore files are applied (nested, negation, folders), node_modules never listed', async () => {
    const dir = workspace({
      '.gitignore': 'build/\n*.gen.ts\n!keep.gen.ts\n/rootonly.js\n',
      'src/.gitignore': 'local.py\n',
      'src/app.ts': 'export function app() {}\n',
      'src/x.gen.ts': 'export const x = 1;\n',
      'src/keep.gen.ts': 'export const k = 1;\n',
      'src/local.py': 'x = 1\n',
      'src/rootonly.js': 'function r() {}\n',
      'rootonly.js': 'function r() {}\n',
      'build/out.js': 'function b() {}\n',
      'node_modules/dep/index.js': 'function d() {}\n',
    });
    const result = await index(dir);
    assert.deepEqual([...result.files.keys()], ['src/app.ts', 'src/keep.gen.ts', 'src/rootonly.js']);
  });

  it('inside git: git decides what is ignored (untracked files included)', async () => {
    const dir = workspace({
      '.gitignore': 'ignored/\n',
      'tracked.js': 'function t() {}\n',
      'ignored/x.js': 'function x() {}\n',
    });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', 'tracked.js'], { cwd: dir });
    fs.writeFileSync(path.join(dir, 'untracked.py'), 'def u():\n    pass\n');
    const result = await index(dir);
    assert.deepEqual([...result.files.keys()], ['tracked.js', 'untracked.py']);
  });

  it('a workspace that its enclosing repository ignores is walked instead of listed empty', async () => {
    const dir = workspace({ '.gitignore': 'corpus/\n', 'corpus/a.js': 'function a() {}\n' });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const result = await index(path.join(dir, 'corpus'));
    assert.deepEqual([...result.files.keys()], ['a.js']);
  });

  it('the same ignored workspace opened through a symlinked path', async () => {
    const dir = workspace({ '.gitignore': 'corpus/\n', 'corpus/a.js': 'function a() {}\n' });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const link = path.join(dir, '..', `${path.basename(dir)}-link`);
    fs.symlinkSync(path.join(dir, 'corpus'), link);
    dirs.push(link);
    const result = await index(link);
    assert.deepEqual([...result.files.keys()], ['a.js']);
  });

  it('invalid UTF-8 and an empty file are indexed without throwing', async () => {
    const dir = workspace({ 'empty.ts': '', 'latin1.py': Buffer.from('s = "caf\xe9"\n', 'latin1') });
    const result = await index(dir);
    assert.deepEqual([...result.files.keys()], ['empty.ts', 'latin1.py']);
    assert.deepEqual(result.files.get('empty.ts')!.symbols, []);
  });
});
