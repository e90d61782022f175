// checkWorkspace's retries on a real temp git repository: a new failure (it passed in the recorded baseline) is run
// again before it is believed. A test that passes on the retry is flaky, not broken; one that fails again stays
// broken; a spec that failed in the baseline too is not run again. Each finished spec's progress event carries its
// change against that baseline, so the editor can show it live.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { checkWorkspace, type CheckProgress } from '../../../src/core/fullCheck/checkWorkspace';
import type { Change } from '../../../src/core/check/types';
import { isBroken } from '../../../src/core/check';
import { makeRepo } from '../../support/gitRepo';

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

// `wobbly` passes when the (git-ignored) file pass-next exists and removes it; otherwise it creates it and fails:
// so after a failure, the next run passes. `regressed` fails while broken-flag exists. `never` always fails.
const specs = {
  version: 1,
  specs: [
    {
      id: 'wobbly',
      title: 'wobbly',
      kind: 'reliability',
      statement: 'x',
      test: { command: 'if [ -f pass-next ]; then rm pass-next; else touch pass-next; exit 1; fi' },
    },
    {
      id: 'regressed',
      title: 'regressed',
      kind: 'functional',
      statement: 'x',
      test: { command: 'test ! -f broken-flag' },
    },
    { id: 'never', title: 'never', kind: 'functional', statement: 'x', test: { command: 'exit 1' } },
  ],
};

async function workspace(): Promise<string> {
  const repo = await makeRepo({
    '.weave/specs.json': JSON.stringify(specs, null, 2),
    '.gitignore': 'pass-next\nbroken-flag\n',
  });
  cleanup.push(repo);
  return repo;
}

/** A clean baseline where wobbly and regressed pass, then a tree where wobbly fails once and regressed for good. */
async function afterBaseline(): Promise<string> {
  const ws = await workspace();
  await fs.writeFile(path.join(ws, 'pass-next'), '');
  const baseline = await checkWorkspace({ workspaceDir: ws, coverage: false });
  assert.deepEqual(
    baseline.run.results.map((r) => [r.id, r.verdict]),
    [
      ['wobbly', 'pass'],
      ['regressed', 'pass'],
      ['never', 'fail'],
    ],
  );
  assert.equal(baseline.run.clean, true);
  await fs.writeFile(path.join(ws, 'broken-flag'), '');
  return ws;
}

describe('checkWorkspace retries', () => {
  it('confirms a new failure: flaky when the retry passes, broken when it fails again, old failures not rerun', async () => {
    const ws = await afterBaseline();
    const live = new Map<string, Change | undefined>();
    const onProgress = (e: CheckProgress): void => {
      if (e.type === 'finished') live.set(e.result.id, e.change);
    };
    const { run, report } = await checkWorkspace({
      workspaceDir: ws,
      retries: 1,
      coverage: false,
      onProgress,
    });
    const byId = new Map(run.results.map((r) => [r.id, r]));
    assert.equal(byId.get('wobbly')?.verdict, 'flaky');
    assert.deepEqual(byId.get('wobbly')?.repeats, ['fail', 'pass']);
    assert.equal(byId.get('wobbly')?.reason, 'failed, then passed when run again (fail, pass)');
    assert.equal(byId.get('regressed')?.verdict, 'fail');
    assert.deepEqual(byId.get('regressed')?.repeats, ['fail', 'fail']);
    assert.equal(byId.get('never')?.verdict, 'fail');
    assert.equal(byId.get('never')?.repeats, undefined, 'a failure the baseline had too is not run again');
    // What the editor shows: regressed broken, wobbly not (it passed on this very tree).
    assert.deepEqual(
      run.results.filter((r) => isBroken(r, report)).map((r) => r.id),
      ['regressed'],
    );
    assert.deepEqual(Object.fromEntries(live), report.changes, 'each live change is the final one');
  });

  it('without retries the first failure stands: the flaky spec is reported broken', async () => {
    const ws = await afterBaseline();
    const { run, report } = await checkWorkspace({ workspaceDir: ws, coverage: false });
    assert.equal(run.results.find((r) => r.id === 'wobbly')?.verdict, 'fail');
    assert.deepEqual(
      run.results.filter((r) => isBroken(r, report)).map((r) => r.id),
      ['wobbly', 'regressed'],
    );
  });
});
