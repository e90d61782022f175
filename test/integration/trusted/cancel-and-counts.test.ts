// Cancel and counts (issue #39): the panel's Cancel (CheckService.cancel, whatever started the check) ends a check
// whose spec sleeps within 2 s, the sleeping spec and the one waiting on it "not run" in the store, the panel and
// the status bar; and the status bar counts the specs the file holds after one is added or removed on disk, as the
// panel does (it once said "Weave 8/8" beside the panel's "9 specs", and "Weave 7/9" beside "8 specs").
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { CheckAttempt } from '../../../src/extension/checks';
import {
  checkCounts,
  panelCheckView,
  panelSummaryText,
  statusBarText,
} from '../../../src/shared/checkCounts';
import { fixtureFilesForSuite, until, weaveApi, workspaceUri } from '../helpers';

const specsFile = workspaceUri('.weave', 'specs.json').fsPath;
const FIXTURE_IDS = ['add-works', 'clamp-bounds', 'counter-increments'];

interface SpecEntry {
  id: string;
  title: string;
  kind: string;
  statement: string;
  test: { command: string };
  dependsOn?: string[];
}

const sleeper: SpecEntry = {
  id: 'sleeper',
  title: 'sleeps far longer than the test waits',
  kind: 'functional',
  statement: 'It sleeps.',
  test: { command: 'sleep 60' },
};
const afterSleeper: SpecEntry = {
  id: 'after-sleeper',
  title: 'waits for sleeper',
  kind: 'functional',
  statement: 'It runs after sleeper.',
  test: { command: 'true' },
  dependsOn: ['sleeper'],
};

/** Writes specs.json on disk (not through the editor: a file changed by git or another tool) and waits for Weave. */
async function writeSpecsOnDisk(change: (specs: SpecEntry[]) => SpecEntry[]): Promise<string[]> {
  const file = JSON.parse(fs.readFileSync(specsFile, 'utf8')) as { specs: SpecEntry[] };
  file.specs = change(file.specs);
  fs.writeFileSync(specsFile, JSON.stringify(file, null, 2));
  const ids = file.specs.map((s) => s.id);
  const { store } = await weaveApi();
  await until('Weave to read specs.json from disk', () => {
    const valid = store.valid?.result;
    return valid?.ok && valid.specFile.specs.map((s) => s.id).join() === ids.join() ? true : undefined;
  });
  return ids;
}

/** "Weave 2/4 · …" → [2, 4]. */
function statusCount(text: string): [number, number] | undefined {
  const m = /Weave (\d+)\/(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

suite('cancel and counts', () => {
  fixtureFilesForSuite('.weave/specs.json');
  // Each test starts from the fixture's three specs.
  setup(() => writeSpecsOnDisk((specs) => specs.filter((s) => FIXTURE_IDS.includes(s.id))));

  test('Cancel during a sleeping spec ends the check within 2 s; it and the spec after it say "not run"', async () => {
    const api = await weaveApi();
    await writeSpecsOnDisk((specs) => [...specs, sleeper, afterSleeper]);
    const done = api.checks.check({ quiet: true });
    await until('the fixture specs to finish while sleeper sleeps', () => {
      const { done: finished, running } = api.results.activity;
      return finished === 3 && running.includes('sleeper') ? true : undefined;
    });
    const cancelledAt = performance.now();
    assert.equal(api.checks.cancel(), true, 'no check to cancel');
    const result: CheckAttempt = await done;
    const tookMs = performance.now() - cancelledAt;
    assert.ok(tookMs < 2000, `the check ended ${Math.round(tookMs)} ms after Cancel`);
    assert.ok(!result.ran && result.reason === 'cancelled', 'the check was not cancelled');

    const known = Object.fromEntries(api.results.knownResults().results.map((r) => [r.id, r]));
    assert.equal(known['add-works']?.verdict, 'pass', 'a finished verdict was lost');
    for (const id of ['sleeper', 'after-sleeper']) {
      assert.equal(known[id]?.verdict, 'skipped', `${id}: ${known[id]?.verdict}`);
      assert.match(known[id]?.reason ?? '', /^not run/);
      assert.equal(api.panelState()?.verdicts[id]?.verdict, 'skipped');
    }
    assert.match(api.statusBar().text, /Weave 2\/5 · 1 failing · 2 not run$/);
    assert.equal(api.checks.isRunning, false);
    assert.equal(api.checks.cancel(), false, 'a finished check can still be cancelled');
  });

  test('mid-check of a repeated check: the status bar counts what the panel counts, not the old verdicts', async () => {
    const api = await weaveApi();
    await writeSpecsOnDisk((specs) => [...specs, sleeper]);
    // A first check leaves verdicts for every spec (sleeper "not run": cancelled while it slept).
    const first = api.checks.check({ quiet: true });
    await until('the fixture specs to finish while sleeper sleeps', () => {
      const { done, running } = api.results.activity;
      return done === 3 && running.includes('sleeper') ? true : undefined;
    });
    api.checks.cancel();
    await first;
    assert.match(api.statusBar().text, /Weave 2\/4 · 1 failing · 1 not run$/);

    const again = api.checks.check({ quiet: true });
    await until('the fixture specs to finish again while sleeper sleeps', () => {
      const { done, running } = api.results.activity;
      return done === 3 && running.includes('sleeper') ? true : undefined;
    });
    // The panel lists sleeper as running; the status bar once still counted its old "not run" ("· 1 not run ·").
    assert.equal(api.statusBar().text, '$(sync~spin) Weave 2/4 · 1 failing · checking 3/4');
    const panel = api.panelState();
    assert.ok(panel, 'no panel state');
    assert.deepEqual(panel.running, ['sleeper']);
    // The panel's summary is checkCounts of its state: the same text, number for number.
    const counts = checkCounts(panelCheckView(panel));
    assert.equal(
      panelSummaryText(counts, new Date()),
      '4 specs · checking 3/4 · 2 pass · 1 fail · 1 running',
    );
    assert.equal(`$(sync~spin) ${statusBarText(counts, new Date())}`, api.statusBar().text);
    api.checks.cancel();
    await again;
  });

  test('after a spec is added or removed on disk the status bar counts the specs the panel lists', async () => {
    const api = await weaveApi();
    const checked = await api.checks.check();
    assert.ok(checked.ran, checked.ran ? '' : checked.message);
    const countsAgree = async (what: string, total: number): Promise<void> => {
      await until(`the status bar to count ${total} specs (${what})`, () =>
        statusCount(api.statusBar().text)?.[1] === total ? true : undefined,
      );
      assert.equal(api.panelState()?.specs.length, total, `the panel after ${what}`);
    };
    await countsAgree('a check', 3);
    await writeSpecsOnDisk((specs) => [...specs, { ...afterSleeper, id: 'added', dependsOn: [] }]);
    await countsAgree('adding a spec', 4);
    assert.match(api.statusBar().text, /· 1 unchecked/);
    await writeSpecsOnDisk((specs) => specs.filter((s) => s.id !== 'added' && s.id !== 'clamp-bounds'));
    await countsAgree('removing two specs', 2);
    assert.doesNotMatch(api.statusBar().text, /unchecked/);
  });
});
