import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { copyWorkspace, examplesDir, git, initRepo, removeDir, repoRoot } from '../../support/repos';

const cli = path.join(repoRoot, 'dist/cli.js');
let dir: string;

before(() => {
  dir = copyWorkspace(examplesDir);
  initRepo(dir);
});
after(() => removeDir(dir));

function weave(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

void test('weave affected --files prints the selected specs with reasons; --json is parseable', () => {
  const text = weave('affected', '--files', 'test/clock.js');
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^1 changed file \(--files\): 3 of 8 specs affected\n/);
  assert.match(
    text.stdout,
    /cache-hit\n {4}test\/clock\.js is in its import cone \(test\/cache-hit\.test\.js → test\/clock\.js\)/,
  );
  const json = weave('affected', '--files', 'test/clock.js', '--json');
  const parsed = JSON.parse(json.stdout) as { affected: Array<{ id: string }>; all: boolean };
  assert.deepEqual(
    parsed.affected.map((s) => s.id),
    ['cache-hit', 'no-stale-read', 'hit-rate'],
  );
  assert.equal(parsed.all, false);
});

void test('weave affected: bad input exits 2 with a message, not a stack trace', () => {
  const badRef = weave('affected', '--since', 'no-such-ref');
  assert.equal(badRef.code, 2);
  assert.equal(badRef.stderr, 'weave affected: --since: no-such-ref is not a commit in this repository\n');
  const both = weave('affected', '--since', 'HEAD', '--files', 'a.js');
  assert.equal(both.code, 2);
  assert.match(both.stderr, /not both/);
  const unknown = weave('affected', '--frobnicate');
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown option '--frobnicate'/);
});

void test('weave graph: text, --mermaid and --json; an invalid spec file is reported at its line', () => {
  const text = weave('graph');
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /Potential interactions found in the code:/);
  assert.match(weave('graph', '--mermaid').stdout, /^flowchart LR\n/);
  const json = JSON.parse(weave('graph', '--json').stdout) as { potential: unknown[] };
  assert.ok(json.potential.length > 0);

  const broken = copyWorkspace(dir);
  try {
    fs.writeFileSync(
      path.join(broken, '.weave/specs.json'),
      '{\n  "version": 1,\n  "specs": [ { "id": "x" } ]\n}\n',
    );
    const r = spawnSync(process.execPath, [cli, 'graph', '--workspace', broken], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /specs\.json:3:\d+: specs\[0\]/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  } finally {
    removeDir(broken);
  }
});

void test('weave blame: usage errors exit 2, nothing to blame exits 1, a breakage is explained', () => {
  assert.equal(weave('blame').code, 2);
  assert.equal(weave('blame', 'no-stale-read', '--max-runs', 'lots').code, 2);
  const missing = weave('blame', 'no-stale-read', '--baseline-ref', 'v0-missing');
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /baseline v0-missing does not exist/);
  const clean = weave('blame', 'no-stale-read', '--baseline-ref', 'HEAD');
  assert.equal(clean.code, 1);
  assert.match(clean.stderr, /nothing changed between the baseline/);

  git(dir, 'apply', 'patches/break-staleness.patch');
  const blamed = weave('blame', 'no-stale-read', '--baseline-ref', 'HEAD');
  assert.equal(blamed.code, 0, blamed.stderr);
  assert.match(
    blamed.stdout,
    /^no-stale-read is broken \(fail\) since HEAD \([0-9a-f]{12}\): 1 of 2 hunks break it, found in 3 runs/,
  );
  assert.match(
    blamed.stdout,
    /the edit to `LruCache\.get` \(src\/cache\.js:\d+-\d+\), made for `cache-hit`, breaks `no-stale-read`/,
  );
});
