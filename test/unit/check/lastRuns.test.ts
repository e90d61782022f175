// lastRunsOf on a real .weave/runs/ folder (runs written by saveRun): the newest run, older runs only for the
// specs newer ones left out, each with the report against the clean run before it that covered its specs.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { lastRunsOf } from '../../../src/core/check/lastRuns';
import { saveRun } from '../../../src/core/check/runStore';
import type { RunRecord, Verdict } from '../../../src/core/check/types';

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

function run(second: number, clean: boolean, results: Array<[string, Verdict]>): RunRecord {
  const at = `2026-11-30T00:00:${String(second).padStart(2, '0')}.000Z`;
  return {
    id: `2026-11-30T00-00-${String(second).padStart(2, '0')}-000Z-0000`,
    startedAt: at,
    finishedAt: at,
    commit: 'abc',
    clean,
    specIds: results.map(([id]) => id),
    results: results.map(([id, verdict]) => ({
      id,
      kind: 'functional',
      verdict,
      exitCode: verdict === 'pass' ? 0 : 1,
      signal: null,
      durationMs: 1,
      evidence: 'runner',
      output: '',
      truncatedBytes: 0,
    })),
  };
}

async function runsFolder(...runs: RunRecord[]): Promise<string> {
  const ws = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-last-runs-'));
  cleanup.push(ws);
  for (const r of runs) await saveRun(ws, r);
  return ws;
}

describe('lastRunsOf', () => {
  it('is empty without stored runs', async () => {
    assert.deepEqual(await lastRunsOf(await runsFolder(), ['a']), []);
  });

  it('takes the newest run, and older ones only for the specs it left out, oldest first', async () => {
    const ws = await runsFolder(
      run(1, true, [
        ['a', 'pass'],
        ['b', 'pass'],
        ['c', 'fail'],
      ]),
      run(2, false, [
        ['a', 'fail'],
        ['b', 'pass'],
        ['c', 'fail'],
      ]),
      // A check of the affected spec a only.
      run(3, false, [['a', 'pass']]),
    );
    const stored = await lastRunsOf(ws, ['a', 'b', 'c']);
    assert.deepEqual(
      stored.map((s) => s.run.id),
      ['2026-11-30T00-00-02-000Z-0000', '2026-11-30T00-00-03-000Z-0000'],
    );
    // Each against the clean run 1, as when it was recorded.
    assert.deepEqual(stored[0]?.report.changes, { a: 'broken', b: 'still-passing', c: 'still-failing' });
    assert.deepEqual(stored[1]?.report.changes, { a: 'still-passing' });
    assert.equal(stored[1]?.report.baseline?.runId, '2026-11-30T00-00-01-000Z-0000');
  });

  it('a clean run has the clean run before it as baseline, not itself', async () => {
    const ws = await runsFolder(run(1, true, [['a', 'fail']]), run(2, true, [['a', 'pass']]));
    const [only] = await lastRunsOf(ws, ['a']);
    assert.equal(only?.run.id, '2026-11-30T00-00-02-000Z-0000');
    assert.deepEqual(only?.report.changes, { a: 'fixed' });
  });
});
