// Coverage as evidence of coupling (weave graph, the panel, the agent's prompt) and of blame attribution.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { coveredInteractionMap } from '../../../src/core/coverage/coupling';
import { readCoverageStore } from '../../../src/core/coverage/store';
import { blameSpec } from '../../../src/core/blame/blame';
import { formatCouplingText, staticCoupling } from '../../../src/core/coupling/coupling';
import { indexWorkspace, loadAnchoredWorkspace } from '../../../src/core/anchors/anchoredWorkspace';
import {
  copyWorkspace,
  examplesDir,
  git,
  initRepo,
  removeDir,
  tempDir,
  writeFiles,
} from '../../support/repos';
import { LIBRARY } from './fixtures';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

void test('specs whose tests executed the same functions are paired, weighed by Jaccard', async () => {
  const dir = tempDir('weave-coverage-coupling-');
  dirs.push(dir);
  writeFiles(dir, LIBRARY);
  initRepo(dir);
  await checkWorkspace({ workspaceDir: dir, concurrency: 2 });
  const ws = await loadAnchoredWorkspace(dir);
  const coupling = staticCoupling({
    specFile: ws.specFile,
    index: ws.index,
    resolved: ws.resolved,
    workspaceDir: dir,
    coverage: await readCoverageStore(dir),
  });
  // adds ran {add}, counts ran {Counter.constructor, Counter.step, add}, twice ran {mul, twice}: 1 shared of 3.
  const first = coupling.potential[0];
  assert.deepEqual(
    [first?.a, first?.b, first?.sharedFunctions, first?.coverageWeight],
    ['adds', 'counts', ['index.js#add'], 1 / 3],
  );
  assert.ok(
    coupling.potential.every((p) => p.b !== 'twice' || p.sharedFunctions === undefined),
    'twice executed nothing the others did',
  );
  assert.match(
    formatCouplingText(coupling),
    /functions both tests executed \(Jaccard 0\.33\): index\.js#add/,
  );

  // The agent's prompt: partners by shared executed functions, only when every spec has coverage.
  const store = await readCoverageStore(dir);
  assert.deepEqual(Object.fromEntries(coveredInteractionMap(store, ['adds', 'counts', 'twice']) ?? []), {
    adds: ['counts'],
    counts: ['adds'],
    twice: [],
  });
  assert.equal(coveredInteractionMap(store, ['adds', 'not-recorded']), undefined);

  const withoutCoverage = staticCoupling({ specFile: ws.specFile, index: ws.index, resolved: ws.resolved });
  assert.ok(withoutCoverage.potential.every((p) => p.sharedFunctions === undefined));
});

void test('blame attributes the breaking edit first to the other specs whose tests execute the edited symbol', async () => {
  const dir = copyWorkspace(examplesDir);
  dirs.push(dir);
  initRepo(dir);
  const checked = await checkWorkspace({ workspaceDir: dir, concurrency: 2 });
  const store = await readCoverageStore(dir);
  const runsGet = Object.entries(store.specs)
    .filter(([, s]) => {
      const file = s.files['src/cache.js'];
      return file?.functions.some((i) => store.units[file.hash]?.[i]?.[0] === 'LruCache.get') === true;
    })
    .map(([id]) => id);
  assert.ok(runsGet.includes('cache-hit') && runsGet.includes('no-stale-read'), runsGet.join(', '));
  git(dir, 'apply', 'patches/break-staleness.patch');
  const result = await blameSpec({
    workspaceDir: dir,
    specId: 'no-stale-read',
    baselineRef: 'HEAD',
    loadIndex: (d) => indexWorkspace(d, { useCache: false }),
  });
  const [hunk] = result.hunks;
  const expected = checked.specFile.specs
    .map((s) => s.id)
    .filter((id) => id !== 'no-stale-read' && runsGet.includes(id));
  assert.deepEqual(hunk?.executedBy, expected);
  assert.deepEqual(hunk?.anchoredBy, ['cache-hit']);
  assert.match(
    result.explanation[0] ?? '',
    /^the edit to `LruCache\.get` \(src\/cache\.js:\d+-\d+\), made for `cache-hit` \(its test executes it\), breaks `no-stale-read`$/,
  );
});
