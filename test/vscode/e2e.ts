// UI end-to-end test of Weave in a real VS Code: the packaged VSIX installed into code-server (VS Code 1.139
// server + web workbench), driven like a person would through headless Debian chromium (playwright-core).
// Trusted session on a committed copy of examples/:
//   - palette "Check constraints" while the panel is open: specs show queued / running, then Problems lists the
//     violated spec and the Test Explorer shows the same verdicts (a palette check is a TestRun too);
//   - the panel: full ids, the assertion as the failure line, one Tab stop with arrow keys, an ELK graph that
//     fits the width, and its large editor view;
//   - the form: no silent anchor from unmatched text, test files from a picker, the id rule in words, the spec
//     written to specs.json in the file's style with comments kept, the "Saved" note fading;
//   - a breaking edit: one toast for the newly broken spec, "Explain broken spec" puts blame at the hunk; after
//     the revert "Check affected" clears broken everywhere, and the notification center holds one Weave toast;
//   - the agent (scripted model): a result tab with real paths and Apply, Apply re-checks; the interaction
//     matrix of runs that all ran out of steps says "Inconclusive";
//   - specs.json opens as JSON with Comments, without "Comments are not permitted"; no CSP violation.
// Then an UNTRUSTED session ("New spec" opens the panel's form; nothing runs) and an EMPTY folder (Init specs).
// Every step saves screenshots to test-results/ (git-ignored). The steps talk to page objects (test/vscode/pages:
// the palette, Problems, the status bar, notifications, editors, the Test Explorer and the side panel).
// Usage: npm run build && node out/test/vscode/e2e.js   (prints "N passed, N failed" last; exit 1 on failure)
// Env: WEAVE_E2E_TIMEOUT_S (whole run, default 900), WEAVE_E2E_HEADED=1 (watch it, with a display).
import fs from 'node:fs';
import path from 'node:path';
import type { ScriptedServer } from '../support/scriptedOpenAiServer';
import { AGENT_STEPS, startAgentModel } from './e2eAgent';
import { RESULTS_DIR, say, Sessions, specsOnDisk, type Outcome } from './e2eHarness';
import { waitUntil, Workbench } from './pages/workbench';

const FAILING_SPEC = 'no-secret-caching';
const BROKEN_SPEC = 'no-stale-read';
const NEW_SPEC = {
  title: 'E2E added spec keeps cached bodies immutable',
  id: 'e2e-added-spec-keeps-cached-bodies-immutable',
  statement: 'When a cached response is returned, the client shall return a copy the caller cannot mutate.',
  command: 'node --test test/cache-hit.test.js',
  filesQuery: 'cache-hit.test',
  files: 'test/cache-hit.test.js',
  anchorQuery: 'LruCache.get',
  anchor: 'src/cache.js#LruCache.get',
  dependsOn: 'cache-hit',
};
// examples/patches/break-staleness.patch in one line: hot entries live forever, so no-stale-read breaks.
const TOUCH = '    // Touch: move the key to the most recently used end.\n';
const BREAK_STALENESS = `${TOUCH}    entry.expiresAt = this.now() + this.ttlMs;\n`;

async function main(): Promise<number> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const outcomes: Outcome[] = [];
  let sessions: Sessions | undefined;
  let model: ScriptedServer | undefined;
  const cleanup = async (): Promise<void> => {
    await sessions?.stop();
    await model?.close();
  };
  const timeoutS = Number(process.env.WEAVE_E2E_TIMEOUT_S ?? 900);
  const watchdog = setTimeout(() => {
    say(`TIMEOUT after ${timeoutS} s`);
    void cleanup().finally(() => process.exit(124));
  }, timeoutS * 1000);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  }
  const step = async (name: string, body: () => Promise<void>): Promise<void> => {
    const t0 = Date.now();
    try {
      await body();
      outcomes.push({ name });
      say(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      const error = e instanceof Error ? (e.message.split('\n')[0] ?? e.message) : String(e);
      outcomes.push({ name, error });
      say(`FAIL ${name}: ${error}`);
    }
  };

  try {
    model = await startAgentModel();
    sessions = new Sessions();
    const trusted = await sessions.open('trusted', true, {
      settings: {
        // One test at a time, so a check visibly queues specs; the agent talks to the scripted model.
        'weave.concurrency': 1,
        'weave.agent.baseUrl': model.baseURL,
        'weave.agent.model': 'scripted-model',
        'weave.agent.modelReview': false,
        'weave.agent.maxSteps': AGENT_STEPS + 1,
        'weave.agent.matrixConcurrency': 2,
      },
    });
    const { workspace, cspViolations } = trusted;
    const specsFile = path.join(workspace, '.weave/specs.json');
    const cacheFile = path.join(workspace, 'src/cache.js');
    const originalCache = fs.readFileSync(cacheFile, 'utf8');
    const originalComments = specsOnDisk(specsFile).text.match(/^\s*\/\/.*$/gm) ?? [];
    const expectedIds = specsOnDisk(specsFile).specs.map((s) => String(s['id']));
    const ui = new Workbench(trusted.page);
    const { palette, problems, statusBar, notifications, editors, testExplorer, panel } = ui;

    await step(
      'palette check with the panel open: specs wait as queued, then Problems lists the violation',
      async () => {
        await panel.open();
        await palette.run('Weave: Check constraints');
        await waitUntil('a queued spec in the panel', 60_000, async () => (await panel.queuedCount()) > 0);
        await waitUntil('the summary to count the check', 10_000, async () =>
          /checking \d+\/\d+/.test(await panel.summary()),
        );
        await ui.shoot('e2e-panel-queued.png', 'sidebar');
        await waitUntil('the check to end', 120_000, async () => (await panel.busyCount()) === 0);
        await problems.open();
        await problems.waitForText(`${FAILING_SPEC} in the Problems panel`, FAILING_SPEC, 60_000);
        await ui.shoot('e2e-problems.png', 'panel');
      },
    );

    await step(
      'the Test Explorer shows the palette check’s verdicts (no "No test results yet")',
      async () => {
        await testExplorer.focus();
        await waitUntil('test items with results', 30_000, async () => {
          const labels = await testExplorer.labels();
          return labels.some((l) => /Failed/i.test(l)) && labels.some((l) => /Passed/i.test(l));
        });
        await ui.shoot('e2e-testing.png', 'sidebar');
        await panel.open();
      },
    );

    await step(
      'the panel shows whole ids, the assertion under a failing spec, and one Tab stop',
      async () => {
        for (const id of expectedIds) {
          const { text, cut } = await panel.spec(id).idAsShown();
          if (text !== id || cut) throw new Error(`id ${id} shown as "${text}"${cut ? ' (cut off)' : ''}`);
        }
        const reason = await panel.spec(FAILING_SPEC).reason();
        if (/^exit code/.test(reason) || !/assert|expected|Error|not ok/i.test(reason))
          throw new Error(`failure line: ${reason}`);
        await panel.spec(expectedIds[0] ?? '').focus();
        await panel.press('ArrowDown');
        const focused = await panel.focusedSpecId();
        if (focused !== expectedIds[1]) throw new Error(`ArrowDown focused ${focused}`);
        await panel.press('ArrowRight');
        const onButton = await panel.focusedTag();
        if (onButton !== 'BUTTON') throw new Error(`ArrowRight focused a ${onButton}`);
        await panel.press('Escape');
        const tabStops = await panel.tabStopsInList();
        if (tabStops !== 1) throw new Error(`${tabStops} Tab stops in the list`);
        await ui.shoot('e2e-panel.png', 'sidebar');
        await panel.press('Tab');
        if (await panel.focusIsInList()) throw new Error('Tab stayed inside the list');
      },
    );

    await step(
      'the panel graph is laid out by ELK, fits the width, shows whole ids; the large view opens',
      async () => {
        const { graph } = panel;
        await graph.scrollIntoView();
        if ((await graph.nodeCount()) !== expectedIds.length) throw new Error('graph nodes');
        const scroll = await graph.scrollWidths();
        if ((scroll[0] ?? 0) > (scroll[1] ?? 0) + 1)
          throw new Error(`graph scrolls sideways: ${scroll.join(' > ')}`);
        for (const id of expectedIds) {
          const label = await graph.label(id);
          if (label !== id) throw new Error(`node ${id} labelled "${label}"`);
        }
        if ((await graph.dependencyEdgeCount()) === 0) throw new Error('no dependency edges');
        await ui.shoot('e2e-panel-graph.png', 'sidebar');
        // Pointing at a spec fades the edges that are not its own; potential interactions show on request.
        await graph.hover(FAILING_SPEC);
        if ((await graph.highlightedEdgeCount()) === 0)
          throw new Error('hovering a spec highlights none of its edges');
        if ((await graph.potentialEdgeCount()) !== 0)
          throw new Error('potential interactions crowd the panel graph by default');
        await graph.showPotentialInteractions(true);
        await graph.scrollIntoView();
        await ui.shoot('e2e-panel-graph-hover.png', 'sidebar');
        await graph.showPotentialInteractions(false);
        await graph.openLargeView();
        const large = await editors.webview('.graph-page svg.graph .node');
        if ((await large.locator('.node').count()) !== expectedIds.length)
          throw new Error('large graph nodes');
        await large.getByRole('button', { name: 'Zoom in' }).click();
        await ui.shoot('e2e-graph-editor.png', 'editor');
        await editors.closeAll();
        await editors.waitForNoTab('Weave: spec graph', 10_000);
      },
    );

    await step(
      'the form: unmatched text is not an anchor, test files are picked, id rule in words',
      async () => {
        const { form } = panel;
        await panel.button('New spec').click();
        await form.field('Title').fill(NEW_SPEC.title);
        if ((await form.field('Id', true).inputValue()) !== NEW_SPEC.id)
          throw new Error('the id was not derived from the title');
        await form.field('Id', true).fill('');
        await form.field('Kind').focus();
        const idError = await form.idError();
        if (!/Give the spec an id/.test(idError) || /\^\[/.test(idError))
          throw new Error(`id error: ${idError}`);
        await form.field('Id', true).fill(NEW_SPEC.id);
        await form.field('Kind').selectOption('reliability');
        await form.field('Statement').fill(NEW_SPEC.statement);
        await form.field('Test command').fill(NEW_SPEC.command);
        await form.search('Anchors', 'src/no-such-module.js');
        await waitUntil('the search to answer', 30_000, async () =>
          /suggestion/.test(await form.anchorsFieldText()),
        );
        await form.picker('Anchors').press('Enter');
        await panel
          .text('Nothing in the workspace index matches “src/no-such-module.js”')
          .waitFor({ timeout: 5000 });
        if ((await form.chip('no-such-module').count()) > 0)
          throw new Error('unmatched text became an anchor on the first Enter');
        await ui.shoot('e2e-form-nomatch.png', 'sidebar');
        await form.search('Anchors', '');
        await form.search('Test files', NEW_SPEC.filesQuery);
        await form.waitForOption(NEW_SPEC.filesQuery, 60_000);
        await form.picker('Test files').press('Enter');
        await form.chip(NEW_SPEC.files).waitFor({ timeout: 5000 });
        await form.search('Anchors', NEW_SPEC.anchorQuery);
        await form.waitForOption(NEW_SPEC.anchorQuery, 60_000);
        await form.picker('Anchors').press('Enter');
        await form.chip(NEW_SPEC.anchor).waitFor({ timeout: 5000 });
        await form.checkDependsOn(NEW_SPEC.dependsOn);
        await ui.shoot('e2e-panel-form.png', 'sidebar');
      },
    );

    await step(
      'saving writes the spec in the file’s style with comments kept; the Saved note fades',
      async () => {
        await panel.button('Add spec').click();
        await waitUntil(`${NEW_SPEC.id} in specs.json on disk`, 30_000, () =>
          specsOnDisk(specsFile).specs.some((s) => s['id'] === NEW_SPEC.id),
        );
        const { text, specs } = specsOnDisk(specsFile);
        const added = specs.find((s) => s['id'] === NEW_SPEC.id) ?? {};
        const expected = {
          id: NEW_SPEC.id,
          title: NEW_SPEC.title,
          kind: 'reliability',
          statement: NEW_SPEC.statement,
          test: { command: NEW_SPEC.command, files: [NEW_SPEC.files] },
          anchors: [NEW_SPEC.anchor],
          dependsOn: [NEW_SPEC.dependsOn],
          interactsWith: [],
        };
        if (JSON.stringify(added) !== JSON.stringify(expected))
          throw new Error(`written spec: ${JSON.stringify(added)}`);
        if (!text.includes(`"files": ["${NEW_SPEC.files}"]`))
          throw new Error('the added spec is not in the file’s style');
        const lost = originalComments.filter((c) => !text.includes(c.trim()));
        if (originalComments.length === 0 || lost.length > 0)
          throw new Error(`comments lost: ${lost.join(' | ')}`);
        await panel.spec(NEW_SPEC.id).item.waitFor({ timeout: 30_000 });
        await panel.text(`Saved spec ${NEW_SPEC.id}`).waitFor({ timeout: 5000 });
        await ui.shoot('e2e-panel-added.png', 'sidebar');
        await panel.text(`Saved spec ${NEW_SPEC.id}`).waitFor({ state: 'detached', timeout: 15_000 });
      },
    );

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
        const stale = (await testExplorer.labels()).filter(
          (l) => l.includes(BROKEN_SPEC) && /Failed/i.test(l),
        );
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
        const result = await editors.webview('h1:has-text("Agent run")', 180_000);
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
    await ui.shoot('e2e-window.png');
    await trusted.close();

    const untrusted = await sessions.open('untrusted', false);
    const restrictedUi = new Workbench(untrusted.page);
    await step('"Weave: New spec" opens the panel (not open yet) on its form', async () => {
      await restrictedUi.palette.run('Weave: New spec');
      const form = restrictedUi.panel.form.newSpecForm();
      await form.waitFor({ timeout: 60_000 });
      await form.getByRole('button', { name: 'Cancel' }).click();
    });
    await step('in an untrusted folder the panel says nothing runs and offers no check', async () => {
      const restricted = restrictedUi.panel;
      await restricted.open();
      await restricted.text('Weave runs nothing in an untrusted folder').waitFor({ timeout: 30_000 });
      for (const name of ['Check all', 'Check affected', `Check ${FAILING_SPEC}`]) {
        if (!(await restricted.button(name, true).isDisabled()))
          throw new Error(`"${name}" is enabled in an untrusted folder`);
      }
      if (!(await restricted.button('New spec').isEnabled()))
        throw new Error('editing specs must stay possible in an untrusted folder');
      const badges = await restricted.badges();
      if (badges.some((b) => b.trim() !== 'unchecked'))
        throw new Error(`verdicts in an untrusted folder: ${badges}`);
      await restrictedUi.shoot('e2e-panel-untrusted.png', 'sidebar');
    });
    await untrusted.close();

    const empty = await sessions.open('empty', true, { empty: true });
    const emptyUi = new Workbench(empty.page);
    await step(
      'an empty folder: the panel offers Init specs, Check all is off; Init writes specs.json',
      async () => {
        const fresh = emptyUi.panel;
        await fresh.reveal();
        const init = fresh.button('Init specs');
        await init.waitFor({ timeout: 60_000 });
        if (!(await fresh.button('Check all', true).isDisabled()))
          throw new Error('"Check all" is enabled without a spec file');
        await emptyUi.shoot('e2e-empty-folder.png', 'sidebar');
        await init.click();
        const file = path.join(empty.workspace, '.weave/specs.json');
        await waitUntil('specs.json on disk', 30_000, () => fs.existsSync(file));
        await fresh.firstSpec().waitFor({ timeout: 30_000 });
        await emptyUi.shoot('e2e-empty-folder-init.png');
      },
    );
  } catch (e) {
    outcomes.push({ name: 'set-up', error: e instanceof Error ? e.message : String(e) });
    say(`FAIL set-up: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    clearTimeout(watchdog);
    await cleanup();
  }
  const failed = outcomes.filter((o) => o.error !== undefined).length;
  console.log(`screenshots: ${path.relative(path.dirname(RESULTS_DIR), RESULTS_DIR)}/e2e-*.png`);
  console.log(`${outcomes.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
