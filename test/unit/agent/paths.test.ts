// The worktree jail and the file tools on a temp folder: confinement, protection, edit semantics, ranges.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { WorkspaceJail } from '../../../src/core/agent/paths';
import type { ToolContext } from '../../../src/core/agent/toolContract';
import { runTool } from '../../../src/core/agent/toolbox';

let root: string;
let outside: string;
let ctx: ToolContext;

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-jail-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-outside-'));
  fs.mkdirSync(path.join(root, 'src'));
  fs.mkdirSync(path.join(root, 'test'));
  fs.writeFileSync(
    path.join(root, 'src/a.js'),
    Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join('\n'),
  );
  fs.writeFileSync(path.join(root, 'test/a.test.js'), 'assert.ok(true);\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'top secret');
  fs.symlinkSync(outside, path.join(root, 'out-link'));
  fs.symlinkSync(path.join(root, 'test/a.test.js'), path.join(root, 'src/alias.js'));
  ctx = {
    jail: await WorkspaceJail.create(root, ['./test/a.test.js']),
    specIds: ['a'],
    runSpecs: () => Promise.reject(new Error('not in this test')),
    symbols: () => Promise.reject(new Error('index unavailable')),
    signal: new AbortController().signal,
  };
});
after(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

const call = (name: string, args: unknown) => runTool(name, JSON.stringify(args), ctx);

describe('workspace jail and file tools', () => {
  test('read_file reads ranges with line numbers and says how to continue', async () => {
    const first = await call('read_file', { path: 'src/a.js' });
    assert.match(first.content, /^src\/a\.js \(lines 1-400 of 500\)\n {4}1 {2}line 1\n/);
    assert.match(first.content, /read with startLine=401\)$/);
    const range = await call('read_file', { path: './src//a.js', startLine: 499, endLine: 900 });
    assert.match(range.content, /\(lines 499-500 of 500\)\n {2}499 {2}line 499\n {2}500 {2}line 500$/);
    assert.equal((await call('read_file', { path: 'src/a.js', startLine: 501 })).ok, false);
  });

  test('symlinks leading out are refused, symlinks to protected files are read-only', async () => {
    const escaped = await call('read_file', { path: 'out-link/secret.txt' });
    assert.equal(escaped.refused, 'outside');
    assert.ok(!escaped.content.includes('top secret'));
    assert.equal((await call('create_file', { path: 'out-link/new.txt', content: 'x' })).refused, 'outside');
    assert.ok(!fs.existsSync(path.join(outside, 'new.txt')));
    const alias = await call('edit', { path: 'src/alias.js', search: 'true', replace: 'false' });
    assert.equal(alias.refused, 'protected');
    assert.equal(fs.readFileSync(path.join(root, 'test/a.test.js'), 'utf8'), 'assert.ok(true);\n');
    assert.equal(
      (await call('read_file', { path: 'test/a.test.js' })).ok,
      true,
      'protected files stay readable',
    );
  });

  test('edit replaces exactly one occurrence, create_file makes folders', async () => {
    assert.equal(
      (await call('edit', { path: 'src/a.js', search: 'line 7\n', replace: 'line seven\n' })).ok,
      true,
    );
    assert.match(fs.readFileSync(path.join(root, 'src/a.js'), 'utf8'), /line 6\nline seven\nline 8/);
    const ambiguous = await call('edit', { path: 'src/a.js', search: 'line 1', replace: 'x' });
    assert.match(ambiguous.content, /occurs 111 times/);
    const created = await call('create_file', { path: 'src/deep/new.js', content: 'module.exports = 1;\n' });
    assert.equal(created.ok, true);
    assert.equal(fs.readFileSync(path.join(root, 'src/deep/new.js'), 'utf8'), 'module.exports = 1;\n');
    assert.equal((await call('create_file', { path: '.git/config', content: '' })).refused, 'protected');
  });

  test('search_text and list_files stay inside and skip what they should', async () => {
    const hits = await call('search_text', { query: 'line 49\\d$', regex: true });
    assert.match(hits.content, /^src\/a\.js:490: line 490\n/);
    const bad = await call('search_text', { query: '(', regex: true });
    assert.match(bad.content, /Invalid regular expression/);
    const list = await call('list_files', {});
    assert.ok(list.content.split('\n').includes('test/a.test.js'));
    assert.ok(!list.content.includes('secret.txt'), 'symlinked folders are not followed');
  });

  test('outline without an index is a clear error result', async () => {
    const outline = await call('outline', { path: 'src/a.js' });
    assert.equal(outline.ok, false);
    assert.match(outline.content, /outline failed: index unavailable/);
  });
});

describe('tool robustness against real models', () => {
  test('a catastrophic regular expression is matched in linear time (RE2), not hung on', async () => {
    fs.writeFileSync(path.join(root, 'src/many-a.txt'), `${'A'.repeat(50_000)}B\n`);
    const result = await call('search_text', { query: '^(A+)+$', regex: true, path: 'src' });
    assert.equal(result.ok, true);
    assert.match(result.content, /no match/i);
    const found = await call('search_text', { query: '^(A+)+B$', regex: true, path: 'src/many-a.txt' });
    assert.match(found.content, /many-a\.txt:1:/);
  });

  test('a tool named after an Object.prototype member is an unknown tool, not a crash', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const result = await call(name, {});
      assert.equal(result.ok, false);
      assert.match(result.content, new RegExp(`Unknown tool '${name}'`));
    }
  });

  test('extra argument keys are ignored with a note; the call still works', async () => {
    const result = await call('read_file', { path: 'src/a.js', endLine: 1, reasoning: 'I want line 1' });
    assert.equal(result.ok, true);
    assert.match(result.content, /line 1/);
    assert.match(result.content, /Ignored unknown argument\(s\) of read_file: reasoning/);
    const finish = await call('finish', { summary: 'done', confidence: 0.9 });
    assert.equal(finish.ok, true);
    assert.deepEqual(finish.finish, { summary: 'done' });
  });

  test('a cancelled run stops a search between files', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runTool('search_text', JSON.stringify({ query: 'line' }), {
      ...ctx,
      signal: controller.signal,
    });
    assert.equal(result.ok, false);
    assert.match(result.content, /search_text failed: .*abort/i);
  });
});
