// The UI end-to-end scenarios of the trusted session that change the workspace under Weave: a breaking edit (one
// toast, blame at the hunk) and its revert (broken cleared everywhere, one Weave notification in all), the agent's
// fix applied and re-checked, and an inconclusive interaction matrix; then what must still hold after all of it:
// specs.json opens as JSON with Comments, and the webviews ran without a CSP violation.
import fs from 'node:fs';
import path from 'node:path';
import type { DemoSession } from './e2eDemoSession';
import type { Step } from './e2eHarness';
import { waitUntil } from './pages/workbench';

const BROKEN_SPEC = 'no-stale-read';
// examples/patches/break-staleness.patch in one line: hot entries live forever, so no-stale-read breaks.
const TOUCH = '    // Touch: move the key to the most recently used end.\n';
const BREAK_STALENESS = `${TOUCH}    entry.expiresAt = this.now() + this.ttlMs;\n`;

export async function changeScenarios(demo: DemoSession, step: Step): Promise<void> {
  const { workspace, cspViolations, cacheFile, originalCache, ui } = demo;
  const { palette, problems, statusBar, notifications, editors, testExplorer, panel } = ui;

  await step(
    'a breaking edit: one toast for the newly broken spec; "Explain broken spec" marks the hunk',
    async () => {
      fs.writeFileSync(cacheFile, originalCache.replace(TOUCH, BREAK_STALENESS));
      await palette.run('Weave: Check affected constraints');
      // Not the progress notification (it names running specs too): the one that says "broken now".
      const toastText = await notifications.waitForToast(/broken now/, 120_000);
      if (!toastText.includes(BROKEN_SPEC)) throw new Error(`the toast says: ${toastText}`);
      await waitUntil(`${BROKEN_SPEC} broken in the panel`, 30_000, async () =>
        /broken/.test(await panel.spec(BROKEN_SPEC).badge()),
      );
      if (!/1 broken/.test(await statusBar.weaveText()))
        throw new Error(`status bar: ${await statusBar.weaveText()}`);
      await ui.shoot('e2e-broken-toast.png');
      await palette.run('Weave: Explain broken spec');
      await palette.pick(BROKEN_SPEC);
      await problems.open();
      await problems.waitForText('blame at the hunk in Problems', /breaks `?no-stale-read`?/, 180_000);
      await editors.waitForTab('cache.js', 30_000);
      await ui.shoot('e2e-blame.png');
    },
  );

  await step(
    'after the revert, "Check affected" clears broken everywhere; one Weave notification in all',
    async () => {
      fs.writeFileSync(cacheFile, originalCache);
      await palette.run('Weave: Check affected constraints');
      await waitUntil(`${BROKEN_SPEC} passing in the panel`, 120_000, async () =>
        /pass/.test(await panel.spec(BROKEN_SPEC).badge()),
      );
      await waitUntil(
        'the status bar without broken',
        10_000,
        async () => !/broken/.test(await statusBar.weaveText()),
      );
      await waitUntil('the check to end', 60_000, async () => !/checking/.test(await panel.summary()));
      await testExplorer.focus();
      const stale = (await testExplorer.labels()).filter((l) => l.includes(BROKEN_SPEC) && /Failed/i.test(l));
      if (stale.length > 0) throw new Error(`Test Explorer still says ${stale.join(', ')}`);
      await ui.shoot('e2e-reverted.png');
      await panel.open();
      const texts = await notifications.weaveNotificationsInCenter(palette);
      // Three checks ran by now (all, affected twice) and a blame: one toast, for the newly broken spec.
      if (texts.length !== 1 || !/broken now/.test(texts[0] ?? ''))
        throw new Error(`${texts.length} Weave notifications: ${texts.join(' | ')}`);
      await ui.shoot('e2e-notifications.png');
      await ui.pressEscape();
    },
  );

  await step(
    'the agent’s result stays in a tab with real paths; Apply writes the fix and re-checks',
    async () => {
      await palette.run('Weave: Run agent on all constraints');
      const result = await editors.webview('h1:has-text("Make every spec pass")', 180_000);
      const text = await result.locator('body').innerText();
      if (!text.includes('src/client.js') || /\/tmp\/|weave-agent-review/.test(text))
        throw new Error(`result page paths: ${text.slice(0, 300)}`);
      if (!/Finished after 4 steps/.test(text)) throw new Error(`ending: ${text.slice(0, 200)}`);
      if (/weave-agent-review|\/tmp\//.test(await editors.text()))
        throw new Error('the diff shows a temp path');
      await ui.shoot('e2e-agent-result.png', 'editor');
      await result.getByText('Apply to 1 file').click();
      await editors.webview(String.raw`text=/Re-checked: Weave (\d+)\/\1\b/`, 180_000);
      if (!fs.readFileSync(path.join(workspace, 'src/client.js'), 'utf8').includes('hasAuthorization'))
        throw new Error('the fix is not on disk');
      await ui.shoot('e2e-agent-applied.png');
    },
  );

  await step(
    'an interaction matrix whose runs all ran out of steps says it is inconclusive, and why',
    async () => {
      await editors.closeAll();
      await palette.run('Weave: Show interaction matrix');
      const matrix = await editors.webview('text=/Inconclusive:/', 420_000);
      const text = await matrix.locator('body').innerText();
      if (/None: no spec broke another/.test(text)) throw new Error('the matrix gives an all-clear');
      if (!/finish/.test(text)) throw new Error('the matrix does not name the failing tool call');
      await matrix.getByText('Flagged interactions').scrollIntoViewIfNeeded();
      await ui.shoot('e2e-matrix-inconclusive.png', 'editor');
    },
  );

  await step('specs.json opens as JSON with Comments: no "Comments are not permitted"', async () => {
    await palette.openFile('.weave/specs.json', 'specs.json');
    await statusBar.waitForLanguageMode('JSON with Comments', 30_000);
    await problems.open();
    const shown = await problems.text();
    if (/Comments are not permitted|Unable to load schema/.test(shown)) throw new Error(shown);
    await ui.shoot('e2e-specs-jsonc.png');
  });

  await step('the webviews ran under their CSP without violations', async () => {
    if (cspViolations.length > 0) throw new Error(cspViolations.slice(0, 3).join(' | '));
  });
}
