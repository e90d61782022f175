import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { holdsWithin } from '../../support/polling';
import { readAuditReport, saveAuditReport } from '../../../src/core/audit/report';
import { runAudit } from '../../../src/core/audit/runAudit';
import type { AuditReport } from '../../../src/core/audit/types';
import { CheckInputError } from '../../../src/core/check/runSpecs';
import { staticCoupling, withObservedInteractions } from '../../../src/core/coupling/coupling';
import { loadAnchoredWorkspace } from '../../../src/core/anchors/anchoredWorkspace';
import {
  childProcesses,
  createDemoRepo,
  extraWorktrees,
  leftoverCheckouts,
} from '../../support/demoWorkspace';
import { removeDir, snapshot } from '../../support/repos';
import { createAuditFixture } from './fixture';

const fixture = createAuditFixture();
after(() => removeDir(fixture));

let fixtureReport: Promise<AuditReport> | undefined;
/** One audit of the fixture, shared by the tests that read it (each audit costs dozens of test runs). */
function auditFixture(): Promise<AuditReport> {
  fixtureReport ??= (async () => {
    const ws = await loadAnchoredWorkspace(fixture, { useCache: false });
    return runAudit({ ws, concurrency: 2 });
  })();
  return fixtureReport;
}

const specOf = (report: AuditReport, id: string) => {
  const found = report.specs.find((s) => s.id === id);
  assert.ok(found, `spec ${id} is in the report`);
  return found;
};

async function assertCleanedUp(root: string): Promise<void> {
  assert.deepEqual(extraWorktrees(root), [], 'no git worktree is left');
  assert.deepEqual(leftoverCheckouts(), [], 'no scratch checkout is left');
  assert.ok(await holdsWithin(() => childProcesses().length === 0, 5000), 'no child process is left');
}

test('a spec whose test asserts true is vacuous: it kills none of its mutants', async () => {
  const vacuous = specOf(await auditFixture(), 'vacuous');
  assert.ok(vacuous.mutants >= 4, `mutants of isAdult ran (${vacuous.mutants})`);
  assert.equal(vacuous.killed + vacuous.timedOut, 0);
  assert.equal(vacuous.vacuous, true);
  assert.equal(vacuous.score, 0);
  assert.equal(vacuous.codeSource, 'anchor');
});

test('the boundary spec kills the `>=` → `>` mutant; the range spec lets it survive, with its location and diff', async () => {
  const report = await auditFixture();
  const boundary = specOf(report, 'boundary');
  assert.equal(boundary.vacuous, false);
  assert.ok(
    !boundary.survivors.some((s) => s.operator === 'relational'),
    'boundary notices the relational flip',
  );
  const range = specOf(report, 'range');
  const hole = range.survivors.find((s) => s.operator === 'relational');
  assert.ok(hole, `range lets the flip survive: ${JSON.stringify(range.survivors)}`);
  assert.deepEqual([hole.file, hole.line, hole.original, hole.replacement], ['src/age.js', 4, '>=', '>']);
  assert.match(hole.diff, /^- {2}return age >= 18;$/m);
  assert.match(hole.diff, /^\+ {2}return age > 18;$/m);
  assert.ok(range.killed > 0 && range.score !== null && range.score < 1, `range score ${range.score}`);
  // A hole of the workspace is a mutant no spec notices: range misses the flip, but boundary catches it.
  assert.ok(
    !report.holes.some((h) => h.file === 'src/age.js' && h.operator === 'relational'),
    JSON.stringify(report.holes),
  );
});

test('Python code is mutated too, and its pytest test kills the boundary flip', async () => {
  const grade = specOf(await auditFixture(), 'grade-boundary');
  assert.ok(grade.mutants > 0);
  assert.ok(!grade.survivors.some((s) => s.operator === 'relational'), JSON.stringify(grade.survivors));
  assert.equal(grade.vacuous, false);
});

test('mutants killed by two specs are observed interactions, stored for weave graph beside declared and potential ones', async () => {
  const report = await auditFixture();
  const pair = report.observed.find((o) => o.a === 'boundary' && o.b === 'range');
  assert.ok(pair, `boundary ↔ range observed: ${JSON.stringify(report.observed)}`);
  assert.ok(pair.mutants >= 1 && pair.examples[0]?.startsWith('src/age.js:4'));
  assert.ok(
    !report.observed.some((o) => o.a === 'vacuous' || o.b === 'vacuous'),
    'a vacuous spec observes nothing',
  );
  assert.ok(!report.observed.some((o) => o.a === 'grade-boundary' || o.b === 'grade-boundary'));

  const before = snapshot(fixture);
  await saveAuditReport(fixture, report);
  const stored = await readAuditReport(fixture);
  assert.deepEqual(stored?.observed, report.observed);
  const ws = await loadAnchoredWorkspace(fixture, { useCache: false });
  const coupling = withObservedInteractions(
    staticCoupling({ specFile: ws.specFile, index: ws.index, resolved: ws.resolved, workspaceDir: fixture }),
    stored,
  );
  assert.deepEqual(
    coupling.observed?.map((o) => [o.a, o.b, o.declared]),
    report.observed.map((o) => [o.a, o.b, false]),
  );
  // The cache file is the only thing written, and git ignores it.
  const after = snapshot(fixture);
  const added = [...after.keys()].filter((k) => !before.has(k)).sort();
  assert.deepEqual(added, ['.weave/cache/.gitignore', '.weave/cache/audit.json']);
});

test('the audit leaves the user’s files byte-identical and no checkout or process behind', async () => {
  const before = snapshot(fixture);
  const ws = await loadAnchoredWorkspace(fixture, { useCache: false });
  const report = await runAudit({ ws, only: ['boundary'], concurrency: 2 });
  assert.equal(report.specs.length, 1);
  assert.deepEqual(snapshot(fixture), before);
  await assertCleanedUp(fixture);
});

test('unpruned, every mutant runs against every spec: more test runs, the same verdicts for the specs', async () => {
  const ws = await loadAnchoredWorkspace(fixture, { useCache: false });
  const only = ['vacuous', 'boundary', 'grade-boundary'];
  const pruned = await runAudit({ ws, only, concurrency: 2, maxMutants: 6 });
  const everySpec = await runAudit({ ws, only, concurrency: 2, maxMutants: 6, prune: false });
  assert.ok(everySpec.totals.testRuns > pruned.totals.testRuns, 'the yardstick does more work');
  // A Python mutant never reaches the JavaScript specs' code: the unpruned run only adds survivors there.
  assert.equal(specOf(everySpec, 'boundary').killed, specOf(pruned, 'boundary').killed);
  assert.equal(specOf(everySpec, 'vacuous').vacuous, true);
});

test('cancelling stops the audit, leaves the user’s files as they were and removes every checkout', async () => {
  const ws = await loadAnchoredWorkspace(fixture, { useCache: false });
  const before = snapshot(fixture);
  const abort = new AbortController();
  const report = await runAudit({
    ws,
    concurrency: 1,
    signal: abort.signal,
    onProgress: (e) => {
      if (e.type === 'mutant') abort.abort();
    },
  });
  assert.equal(report.totals.stoppedBy, 'cancelled');
  assert.ok(report.totals.ran < report.totals.selected);
  assert.deepEqual(snapshot(fixture), before);
  await assertCleanedUp(fixture);
});

test('bad input: an unknown spec id and a zero budget are clear errors', async () => {
  const ws = await loadAnchoredWorkspace(fixture, { useCache: false });
  await assert.rejects(runAudit({ ws, only: ['nope'] }), (e: unknown) => {
    assert.ok(e instanceof CheckInputError);
    assert.match(e.message, /unknown spec id: nope/);
    return true;
  });
  await assert.rejects(runAudit({ ws, maxMutants: 0 }), /max-mutants must be a number > 0/);
});

test('the demo: which specs have holes, and the one failing spec is reported rather than audited', async () => {
  const demo = createDemoRepo();
  try {
    const ws = await loadAnchoredWorkspace(demo.workspace, { useCache: false });
    const report = await runAudit({
      ws,
      only: ['response-shape', 'no-secret-caching'],
      maxMutants: 12,
      concurrency: 2,
    });
    const secret = specOf(report, 'no-secret-caching');
    assert.equal(secret.mutants, 0);
    assert.match(secret.note ?? '', /does not pass on the current code/);
    const shape = specOf(report, 'response-shape');
    assert.ok(shape.mutants > 0);
    assert.ok(shape.survivors.length > 0, 'response-shape has holes in Client.get');
    assert.ok(shape.survivors.every((s) => s.file === 'src/client.js' && s.diff.includes(`@@ -${s.line},`)));
    await assertCleanedUp(demo.root);
  } finally {
    demo.dispose();
  }
});
