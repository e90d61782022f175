// jest 30 and `node --test` map every time (issue #40): the vitest 4 URL library's shape (8 specs over several
// test files, a class with a constructor and a getter) under jest's worker pool and under Node's own type
// stripping, recorded by three full checks in a row at concurrency 2 (tsRunnerLibraries.ts).
//   jest: jest-worker asks a child to end, then SIGTERMs it after 500 ms and SIGKILLs it 500 ms later; the
//   fixture's workers are slow to exit (2 s busy, as on a loaded machine), so coverage written only at exit is
//   lost for every spec. Written when the end request arrives, every spec has its functions each time.
//   node --test: Node appends a sourceURL comment to the TypeScript it strips, so the code that ran was longer
//   than the file and every .ts file was kept whole; the offsets are the file's, and every spec maps.
// When a map is genuinely absent (a transform configured without source maps), the reason names jest and its
// version, not the pool's child package.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, test } from 'node:test';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { readCoverageStore } from '../../../src/core/coverage/store';
import { initRepo, removeDir, tempDir } from '../../support/repos';
import { REPO_ROOT } from '../../support/paths';
import {
  TS_RUNNER_EXPECTED,
  TS_RUNNER_SPECS,
  writeTsRunnerLibrary,
  type TsRunner,
  type TsRunnerOptions,
} from '../../support/tsRunnerLibraries';
import { executed } from './fixtures';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

function library(runner: TsRunner, options: TsRunnerOptions): string {
  const dir = tempDir(`weave-${runner}-maps-`);
  dirs.push(dir);
  writeTsRunnerLibrary(dir, runner, options);
  initRepo(dir);
  return dir;
}

async function threeChecksMapEverySpec(dir: string): Promise<void> {
  for (let round = 1; round <= 3; round++) {
    const result = await checkWorkspace({ workspaceDir: dir, concurrency: 2, freshCoverage: true });
    for (const r of result.run.results)
      assert.equal(r.verdict, 'pass', `check ${round}, ${r.id}: ${r.output}`);
    assert.equal(result.coverage?.specs, TS_RUNNER_SPECS.length, `check ${round}`);
    const store = await readCoverageStore(dir);
    for (const { id } of TS_RUNNER_SPECS) {
      const files = store.specs[id]?.files ?? {};
      const whole = Object.entries(files)
        .filter(([, c]) => c.wholeFile === true)
        .map(([file, c]) => `${file}: ${c.wholeFileBecause ?? ''}`);
      assert.deepEqual(whole, [], `check ${round}, ${id}: files kept whole`);
      const ran = (await executed(dir, id)).filter((label) => label.startsWith('src/'));
      for (const label of TS_RUNNER_EXPECTED[id]!)
        assert.ok(ran.includes(label), `check ${round}, ${id} did not run ${label}: ${ran.join(', ')}`);
    }
  }
}

void test('jest 30 worker pool, workers slow to exit: three full checks map every spec to functions', async () => {
  await threeChecksMapEverySpec(library('jest', { slowToEnd: true }));
});

void test('node --test on TypeScript through Node’s own type stripping: three full checks map every spec', async () => {
  await threeChecksMapEverySpec(library('node', {}));
});

void test('a jest transform without source maps: each file kept whole names jest and its version', async () => {
  const dir = library('jest', { sourceMaps: false });
  const result = await checkWorkspace({ workspaceDir: dir, concurrency: 2, freshCoverage: true });
  for (const r of result.run.results) assert.equal(r.verdict, 'pass', `${r.id}: ${r.output}`);
  const jest = (createRequire(`${REPO_ROOT}/`)('jest/package.json') as { version: string }).version;
  const store = await readCoverageStore(dir);
  const url = store.specs.origin?.files['src/url.ts'];
  assert.equal(url?.wholeFile, true, JSON.stringify(url));
  assert.match(
    url.wholeFileBecause ?? '',
    new RegExp(`transformed in memory by jest ${jest.replace(/\./g, '\\.')},`),
  );
});
