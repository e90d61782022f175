import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
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
