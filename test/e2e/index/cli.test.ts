import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { ParserReport } from '../../../src/core/index';
import { locateGrammars } from '../../../src/core/grammarLocation';
import { loadNativeTreeSitter } from '../../../src/core/index/nativeTreeSitter';
import { copyDir, langsFixture, repoRoot, tempDir } from '../../support/indexHelpers';

const cli = path.join(repoRoot, 'dist/cli.js');
const weave = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

describe('weave index (CLI)', () => {
  const dir = tempDir('cli');
  copyDir(langsFixture, dir);
  fs.writeFileSync(path.join(dir, 'blob.py'), Buffer.from([0, 1, 2]));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints files, languages, symbols, time and skipped files with reasons', () => {
    const r = weave(['index', '--workspace', dir]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^indexed 20 files \([\d.]+ KB\) in \d+ ms — \d+ symbols, 0 from cache$/m);
    assert.match(r.stdout, /^languages: .*typescript 4.*$/m);
    assert.match(r.stdout, /1 file\(s\) with syntax errors/);
    assert.match(r.stdout, /^skipped 2: binary 1, unknown-language 1$/m);
    assert.match(r.stdout, /^ {2}blob\.py: binary$/m);
  });

  it('--json gives one document; the second run is served from the cache', () => {
    const r = weave(['index', '--workspace', dir, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as {
      stats: { files: number; cacheHits: number; symbols: number };
      files: Array<{ path: string; imports: string[] }>;
      skipped: Array<{ path: string; reason: string }>;
    };
    assert.equal(report.stats.files, 20);
    assert.equal(report.stats.cacheHits, 20);
    assert.deepEqual(report.files.find((f) => f.path === 'web/view.tsx')?.imports, ['web/client.ts']);
    assert.deepEqual(report.skipped, [
      { path: 'blob.py', reason: 'binary' },
      { path: 'gosrc/go.mod', reason: 'unknown-language' },
    ]);
    const noCache = JSON.parse(
      weave(['index', '--workspace', dir, '--json', '--no-cache']).stdout,
    ) as typeof report;
    assert.equal(noCache.stats.cacheHits, 0);
  });

  it('bad flags and a missing folder are bad input (exit 2) with a message', () => {
    const unknown = weave(['index', '--bogus']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /weave index: .*bogus/);
    const missing = weave(['index', '--workspace', path.join(dir, 'nope')]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /not a folder/);
    const workers = weave(['index', '--workers', 'many']);
    assert.equal(workers.status, 2);
  });
});

describe('weave index (CLI): which parser ran', () => {
  // Over the in-thread threshold (1 MB) so the parse workers run: the fixture plus TypeScript's lib .d.ts files.
  const dir = tempDir('cli-parser');
  copyDir(langsFixture, dir);
  const lib = path.join(repoRoot, 'node_modules/typescript/lib');
  fs.mkdirSync(path.join(dir, 'tslib'));
  for (const f of fs.readdirSync(lib).filter((n) => n.startsWith('lib.') && n.endsWith('.d.ts')))
    fs.copyFileSync(path.join(lib, f), path.join(dir, 'tslib', f));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const native = loadNativeTreeSitter(locateGrammars());

  it(
    'parse workers use the native binding where it loads, and --json and the summary say so',
    {
      skip: native.ok ? false : native.reason,
    },
    () => {
      const r = weave(['index', '--workspace', dir, '--json', '--no-cache', '--workers', '2']);
      assert.equal(r.status, 0, r.stderr);
      const { stats } = JSON.parse(r.stdout) as { stats: { parser: ParserReport } };
      assert.equal(stats.parser.ran, 'native', JSON.stringify(stats.parser));
      assert.equal(stats.parser.where, 'workers');
      assert.equal(stats.parser.byLanguage.typescript, 'native');
      assert.deepEqual(stats.parser.fallbacks, {});
      const text = weave(['index', '--workspace', dir, '--no-cache', '--workers', '2']);
      assert.match(text.stdout, /^parser: native tree-sitter in worker threads$/m);
    },
  );

  it('in the main thread (--workers 0) it is web-tree-sitter; from the cache nothing is parsed', () => {
    const r = weave(['index', '--workspace', dir, '--json', '--workers', '0']);
    assert.equal(r.status, 0, r.stderr);
    const { stats } = JSON.parse(r.stdout) as { stats: { parser: ParserReport } };
    assert.equal(stats.parser.ran, 'wasm');
    assert.equal(stats.parser.where, 'calling-thread');
    const again = weave(['index', '--workspace', dir]);
    assert.match(again.stdout, /^parser: none \(nothing parsed\)$/m);
  });
});
