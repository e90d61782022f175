// vitest 4 maps every time (issue #40): a TypeScript library with 8 specs over several test files, half in the
// forks pool and half in threads, recorded by three full checks in a row. vitest asks a worker to stop over IPC
// (or its port), then ends it — a fork with SIGTERM and SIGKILL 500 ms later. Its forks here are slow to handle
// SIGTERM (2 s busy, as on a loaded machine), so coverage written only at SIGTERM never is; written when the stop
// request arrives, every spec's coverage, source maps included, is there each time.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { readCoverageStore } from '../../../src/core/coverage/store';
import { initRepo, removeDir, tempDir } from '../../support/repos';
import { VITEST4_SPECS, writeVitest4Library } from '../../support/vitest4Library';
import { executed } from './fixtures';

let dir = '';
before(() => {
  dir = tempDir('weave-vitest4-maps-');
  writeVitest4Library(dir, { slowToEnd: true });
  initRepo(dir);
});
after(() => removeDir(dir));

/** What each spec's test must be seen running, in the original TypeScript (through vite's source maps). */
const EXPECTED: Record<string, string[]> = {
  percent: ['src/percent.ts#percentDecode', 'src/percent.ts#percentEncode'],
  ipv4: ['src/host.ts#isIPv4'],
  'host-port': ['src/host.ts#normalizeHost', 'src/host.ts#splitHostPort'],
  'dot-segments': ['src/path.ts#joinPath', 'src/path.ts#normalizePath'],
  query: ['src/percent.ts#percentDecode', 'src/query.ts#parseQuery', 'src/query.ts#stringifyQuery'],
  parse: [
    'src/host.ts#splitHostPort',
    'src/path.ts#normalizePath',
    'src/query.ts#parseQuery',
    'src/url.ts#parseUrl',
  ],
  errors: ['src/url.ts#UrlError.constructor'],
  origin: ['src/url.ts#Url.constructor', 'src/url.ts#Url.origin'],
};

void test('three full checks in a row: every spec’s coverage maps to functions of the TypeScript it ran', async () => {
  for (let round = 1; round <= 3; round++) {
    const result = await checkWorkspace({ workspaceDir: dir, concurrency: 4, freshCoverage: true });
    for (const r of result.run.results)
      assert.equal(r.verdict, 'pass', `check ${round}, ${r.id}: ${r.output}`);
    assert.equal(result.coverage?.specs, VITEST4_SPECS.length, `check ${round}`);
    const store = await readCoverageStore(dir);
    for (const { id } of VITEST4_SPECS) {
      const files = store.specs[id]?.files ?? {};
      const perFile = Object.entries(files)
        .filter(([, c]) => c.wholeFile === true)
        .map(([file, c]) => `${file}: ${c.wholeFileBecause ?? ''}`);
      assert.deepEqual(perFile, [], `check ${round}, ${id}: files kept whole`);
      const ran = (await executed(dir, id)).filter((label) => label.startsWith('src/'));
      for (const label of EXPECTED[id]!)
        assert.ok(ran.includes(label), `check ${round}, ${id}: ${ran.join(', ')}`);
    }
  }
});
