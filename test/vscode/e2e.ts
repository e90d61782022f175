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
// Every step saves screenshots to test-results/ (git-ignored).
// Usage: npm run build && node out/test/vscode/e2e.js   (prints "N passed, N failed" last; exit 1 on failure)
// Env: WEAVE_E2E_TIMEOUT_S (whole run, default 900), WEAVE_E2E_HEADED=1 (watch it, with a display).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { ScriptedServer } from '../support/scriptedOpenAiServer';
import { AGENT_STEPS, startAgentModel } from './e2eAgent';
import {
  frameWith,
  openWeavePanel,
  panelFrame,
  RESULTS_DIR,
  runCommand,
  say,
  Sessions,
  shoot,
  specsOnDisk,
  until,
  type Outcome,
} from './e2eHarness';

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

/** The Weave status bar entry's text ("Weave 7/8 · 1 broken"). */
async function statusBarText(page: Page): Promise<string> {
  return (
    await page
      .locator('.statusbar-item', { hasText: /Weave \d+\/\d+/ })
      .first()
      .innerText()
  ).trim();
}

/** Rows of the Test Explorer tree (aria labels carry the state, e.g. "no-secret-caching, Failed"). */
async function testExplorerLabels(page: Page): Promise<string[]> {
  return page
    .locator('.test-explorer .monaco-list-row')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
}

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
    const { page, workspace, cspViolations } = trusted;
    const specsFile = path.join(workspace, '.weave/specs.json');
    const cacheFile = path.join(workspace, 'src/cache.js');
    const originalCache = fs.readFileSync(cacheFile, 'utf8');
    const originalComments = specsOnDisk(specsFile).text.match(/^\s*\/\/.*$/gm) ?? [];
    const expectedIds = specsOnDisk(specsFile).specs.map((s) => String(s['id']));
    const panel = panelFrame(page);

    await step(
      'palette check with the panel open: specs wait as queued, then Problems lists the violation',
      async () => {
        await openWeavePanel(page);
        await runCommand(page, 'Weave: Check constraints');
        await until(
          'a queued spec in the panel',
          60_000,
          async () => (await panel.locator('.badge.status-queued').count()) > 0,
        );
        await until('the summary to count the check', 10_000, async () =>
          /checking \d+\/\d+/.test(await panel.locator('.summary').innerText()),
        );
        await shoot(page, 'e2e-panel-queued.png', '.part.sidebar');
        await until(
          'the check to end',
          120_000,
          async () => (await panel.locator('.badge.status-queued, .badge.status-running').count()) === 0,
        );
        await page.keyboard.press('Control+Shift+M');
        const problems = page.locator('.markers-panel');
        await until(`${FAILING_SPEC} in the Problems panel`, 60_000, async () =>
          (await problems.first().innerText()).includes(FAILING_SPEC),
        );
        await shoot(page, 'e2e-problems.png', '.part.panel');
      },
    );

    await step(
      'the Test Explorer shows the palette check’s verdicts (no "No test results yet")',
      async () => {
        await runCommand(page, 'Testing: Focus on Test Explorer View');
        await until('test items with results', 30_000, async () => {
          const labels = await testExplorerLabels(page);
          return labels.some((l) => /Failed/i.test(l)) && labels.some((l) => /Passed/i.test(l));
        });
        await shoot(page, 'e2e-testing.png', '.part.sidebar');
        await openWeavePanel(page);
      },
    );

    await step(
      'the panel shows whole ids, the assertion under a failing spec, and one Tab stop',
      async () => {
        for (const id of expectedIds) {
          const idCell = panel.locator(`li[data-spec-id="${id}"] .spec-id`);
          const { text, cut } = await idCell.evaluate((el) => ({
            text: el.textContent,
            cut: el.scrollWidth > el.clientWidth + 1,
          }));
          if (text !== id || cut) throw new Error(`id ${id} shown as "${text}"${cut ? ' (cut off)' : ''}`);
        }
        const reason = await panel.locator(`li[data-spec-id="${FAILING_SPEC}"] .spec-reason`).innerText();
        if (/^exit code/.test(reason) || !/assert|expected|Error|not ok/i.test(reason))
          throw new Error(`failure line: ${reason}`);
        const first = panel.locator(`li[data-spec-id="${expectedIds[0]}"]`);
        await first.focus();
        await page.keyboard.press('ArrowDown');
        const focused = await panel.locator(':focus').getAttribute('data-spec-id');
        if (focused !== expectedIds[1]) throw new Error(`ArrowDown focused ${focused}`);
        await page.keyboard.press('ArrowRight');
        const onButton = await panel.locator(':focus').evaluate((el) => el.tagName);
        if (onButton !== 'BUTTON') throw new Error(`ArrowRight focused a ${onButton}`);
        await page.keyboard.press('Escape');
        const tabStops = await panel.locator('.spec-list [tabindex="0"]').count();
        if (tabStops !== 1) throw new Error(`${tabStops} Tab stops in the list`);
        await shoot(page, 'e2e-panel.png', '.part.sidebar');
        await page.keyboard.press('Tab');
        const inList = await panel.locator('.spec-list :focus, .spec-list:focus-within').count();
        if (inList > 0) throw new Error('Tab stayed inside the list');
      },
    );

    await step(
      'the panel graph is laid out by ELK, fits the width, shows whole ids; the large view opens',
      async () => {
        const graph = panel.locator('svg.graph');
        await graph.scrollIntoViewIfNeeded();
        if ((await panel.locator('svg.graph .node').count()) !== expectedIds.length)
          throw new Error('graph nodes');
        const scroll = await panel
          .locator('.graph-scroll')
          .evaluate((el) => [el.scrollWidth, el.clientWidth]);
        if ((scroll[0] ?? 0) > (scroll[1] ?? 0) + 1)
          throw new Error(`graph scrolls sideways: ${scroll.join(' > ')}`);
        for (const id of expectedIds) {
          const label = await panel.locator(`g.node[data-spec-id="${id}"] text`).evaluate((t) =>
            Array.from(t.querySelectorAll('tspan'))
              .map((s) => s.textContent)
              .join(''),
          );
          if (label !== id) throw new Error(`node ${id} labelled "${label}"`);
        }
        if ((await panel.locator('svg.graph path.edge.depends').count()) === 0)
          throw new Error('no dependency edges');
        await shoot(page, 'e2e-panel-graph.png', '.part.sidebar');
        // Pointing at a spec fades the edges that are not its own; potential interactions show on request.
        await panel.locator(`g.node[data-spec-id="${FAILING_SPEC}"]`).hover();
        if ((await panel.locator('svg.graph.highlighting .edge.hl').count()) === 0)
          throw new Error('hovering a spec highlights none of its edges');
        if ((await panel.locator('svg.graph .edge.potential').count()) !== 0)
          throw new Error('potential interactions crowd the panel graph by default');
        await panel.getByLabel(/potential interactions \(\d+\)/).check();
        await panel.locator('svg.graph .edge.potential').first().waitFor({ timeout: 10_000 });
        await panel.locator('svg.graph').scrollIntoViewIfNeeded();
        await shoot(page, 'e2e-panel-graph-hover.png', '.part.sidebar');
        await panel.getByLabel(/potential interactions \(\d+\)/).uncheck();
        await panel.getByRole('button', { name: 'Open the graph in an editor tab' }).click();
        const large = await frameWith(page, '.graph-page svg.graph .node');
        if ((await large.locator('.node').count()) !== expectedIds.length)
          throw new Error('large graph nodes');
        await large.getByRole('button', { name: 'Zoom in' }).click();
        await shoot(page, 'e2e-graph-editor.png', '.part.editor');
        // Keys typed into a webview stay there: close the tab through the palette.
        await runCommand(page, 'View: Close All Editors');
        await until(
          'the graph tab to close',
          10_000,
          async () =>
            (await page.locator('.tabs-container .tab', { hasText: 'Weave: spec graph' }).count()) === 0,
        );
      },
    );

    await step(
      'the form: unmatched text is not an anchor, test files are picked, id rule in words',
      async () => {
        await panel.getByRole('button', { name: 'New spec' }).click();
        await panel.getByLabel('Title').fill(NEW_SPEC.title);
        if ((await panel.getByLabel('Id', { exact: true }).inputValue()) !== NEW_SPEC.id)
          throw new Error('the id was not derived from the title');
        await panel.getByLabel('Id', { exact: true }).fill('');
        await panel.getByLabel('Kind').focus();
        const idError = await panel.locator('#err-id').innerText();
        if (!/Give the spec an id/.test(idError) || /\^\[/.test(idError))
          throw new Error(`id error: ${idError}`);
        await panel.getByLabel('Id', { exact: true }).fill(NEW_SPEC.id);
        await panel.getByLabel('Kind').selectOption('reliability');
        await panel.getByLabel('Statement').fill(NEW_SPEC.statement);
        await panel.getByLabel('Test command').fill(NEW_SPEC.command);
        const anchors = panel.getByRole('combobox', { name: 'Anchors' });
        await anchors.fill('src/no-such-module.js');
        await until('the search to answer', 30_000, async () =>
          /suggestion/.test(
            await panel.locator('.field', { has: panel.locator('#field-anchors') }).innerText(),
          ),
        );
        await anchors.press('Enter');
        await panel
          .getByText('Nothing in the workspace index matches “src/no-such-module.js”')
          .waitFor({ timeout: 5000 });
        if ((await panel.locator('.chip', { hasText: 'no-such-module' }).count()) > 0)
          throw new Error('unmatched text became an anchor on the first Enter');
        await shoot(page, 'e2e-form-nomatch.png', '.part.sidebar');
        await anchors.fill('');
        const files = panel.getByRole('combobox', { name: 'Test files' });
        await files.fill(NEW_SPEC.filesQuery);
        await panel
          .getByRole('option', { name: new RegExp(NEW_SPEC.filesQuery) })
          .first()
          .waitFor({ timeout: 60_000 });
        await files.press('Enter');
        await panel.locator('.chip', { hasText: NEW_SPEC.files }).waitFor({ timeout: 5000 });
        await anchors.fill(NEW_SPEC.anchorQuery);
        await panel
          .getByRole('option', { name: new RegExp(NEW_SPEC.anchorQuery) })
          .first()
          .waitFor({ timeout: 60_000 });
        await anchors.press('Enter');
        await panel.locator('.chip', { hasText: NEW_SPEC.anchor }).waitFor({ timeout: 5000 });
        await panel
          .locator('fieldset', { hasText: 'Depends on' })
          .getByLabel(NEW_SPEC.dependsOn, { exact: true })
          .check();
        await shoot(page, 'e2e-panel-form.png', '.part.sidebar');
      },
    );

    await step(
      'saving writes the spec in the file’s style with comments kept; the Saved note fades',
      async () => {
        await panel.getByRole('button', { name: 'Add spec' }).click();
        await until(`${NEW_SPEC.id} in specs.json on disk`, 30_000, () =>
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
        await panel.locator(`.spec-list > li[data-spec-id="${NEW_SPEC.id}"]`).waitFor({ timeout: 30_000 });
        await panel.getByText(`Saved spec ${NEW_SPEC.id}`).waitFor({ timeout: 5000 });
        await shoot(page, 'e2e-panel-added.png', '.part.sidebar');
        await panel.getByText(`Saved spec ${NEW_SPEC.id}`).waitFor({ state: 'detached', timeout: 15_000 });
      },
    );

    await step(
      'a breaking edit: one toast for the newly broken spec; "Explain broken spec" marks the hunk',
      async () => {
        fs.writeFileSync(cacheFile, originalCache.replace(TOUCH, BREAK_STALENESS));
        await runCommand(page, 'Weave: Check affected constraints');
        // Not the progress notification (it names running specs too): the one that says "broken now".
        const toast = page.locator('.notifications-toasts .notification-toast', { hasText: /broken now/ });
        await toast.first().waitFor({ timeout: 120_000 });
        const toastText = await toast.first().innerText();
        if (!toastText.includes(BROKEN_SPEC)) throw new Error(`the toast says: ${toastText}`);
        await until(`${BROKEN_SPEC} broken in the panel`, 30_000, async () =>
          /broken/.test(await panel.locator(`li[data-spec-id="${BROKEN_SPEC}"] .badge`).innerText()),
        );
        if (!/1 broken/.test(await statusBarText(page)))
          throw new Error(`status bar: ${await statusBarText(page)}`);
        await shoot(page, 'e2e-broken-toast.png');
        await runCommand(page, 'Weave: Explain broken spec');
        const pick = page.locator('.quick-input-widget input');
        await pick.waitFor({ timeout: 10_000 });
        await pick.fill(BROKEN_SPEC);
        await page.locator('.quick-input-list .monaco-list-row', { hasText: BROKEN_SPEC }).first().click();
        await page.keyboard.press('Control+Shift+M');
        await until('blame at the hunk in Problems', 180_000, async () =>
          /breaks `?no-stale-read`?/.test(await page.locator('.markers-panel').first().innerText()),
        );
        await until(
          'cache.js open at the hunk',
          30_000,
          async () =>
            (await page.locator('.editor-group-container .tab', { hasText: 'cache.js' }).count()) > 0,
        );
        await shoot(page, 'e2e-blame.png');
      },
    );

    await step(
      'after the revert, "Check affected" clears broken everywhere; one Weave notification in all',
      async () => {
        fs.writeFileSync(cacheFile, originalCache);
        await runCommand(page, 'Weave: Check affected constraints');
        await until(`${BROKEN_SPEC} passing in the panel`, 120_000, async () =>
          /pass/.test(await panel.locator(`li[data-spec-id="${BROKEN_SPEC}"] .badge`).innerText()),
        );
        await until(
          'the status bar without broken',
          10_000,
          async () => !/broken/.test(await statusBarText(page)),
        );
        await until(
          'the check to end',
          60_000,
          async () => !/checking/.test(await panel.locator('.summary').innerText()),
        );
        await runCommand(page, 'Testing: Focus on Test Explorer View');
        const stale = (await testExplorerLabels(page)).filter(
          (l) => l.includes(BROKEN_SPEC) && /Failed/i.test(l),
        );
        if (stale.length > 0) throw new Error(`Test Explorer still says ${stale.join(', ')}`);
        await shoot(page, 'e2e-reverted.png');
        await openWeavePanel(page);
        await runCommand(page, 'Notifications: Show Notifications');
        const rows = page.locator('.notifications-center .monaco-list-row', { hasText: 'Weave' });
        await rows.first().waitFor({ timeout: 10_000 });
        const texts = await rows.allInnerTexts();
        // Three checks ran by now (all, affected twice) and a blame: one toast, for the newly broken spec.
        if (texts.length !== 1 || !/broken now/.test(texts[0] ?? ''))
          throw new Error(`${texts.length} Weave notifications: ${texts.join(' | ')}`);
        await shoot(page, 'e2e-notifications.png');
        await page.keyboard.press('Escape');
      },
    );

    await step(
      'the agent’s result stays in a tab with real paths; Apply writes the fix and re-checks',
      async () => {
        await runCommand(page, 'Weave: Run agent on all constraints');
        const result = await frameWith(page, 'h1:has-text("Agent run")', 180_000);
        const text = await result.locator('body').innerText();
        if (!text.includes('src/client.js') || /\/tmp\/|weave-agent-review/.test(text))
          throw new Error(`result page paths: ${text.slice(0, 300)}`);
        if (!/Finished after 4 steps/.test(text)) throw new Error(`ending: ${text.slice(0, 200)}`);
        const editors = await page.locator('.part.editor').innerText();
        if (/weave-agent-review|\/tmp\//.test(editors)) throw new Error('the diff shows a temp path');
        await shoot(page, 'e2e-agent-result.png', '.part.editor');
        await result.getByText('Apply to 1 file').click();
        await frameWith(page, String.raw`text=/Re-checked: Weave (\d+)\/\1\b/`, 180_000);
        if (!fs.readFileSync(path.join(workspace, 'src/client.js'), 'utf8').includes('hasAuthorization'))
          throw new Error('the fix is not on disk');
        await shoot(page, 'e2e-agent-applied.png');
      },
    );

    await step(
      'an interaction matrix whose runs all ran out of steps says it is inconclusive, and why',
      async () => {
        await runCommand(page, 'View: Close All Editors');
        await runCommand(page, 'Weave: Show interaction matrix');
        const matrix = await frameWith(page, 'text=/Inconclusive:/', 420_000);
        const text = await matrix.locator('body').innerText();
        if (/None: no spec broke another/.test(text)) throw new Error('the matrix gives an all-clear');
        if (!/finish/.test(text)) throw new Error('the matrix does not name the failing tool call');
        await matrix.getByText('Flagged interactions').scrollIntoViewIfNeeded();
        await shoot(page, 'e2e-matrix-inconclusive.png', '.part.editor');
      },
    );

    await step('specs.json opens as JSON with Comments: no "Comments are not permitted"', async () => {
      await page.keyboard.press('Control+P');
      await page.locator('.quick-input-widget input').fill('.weave/specs.json');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'specs.json' }).first().click();
      await until(
        'the language mode',
        30_000,
        async () => (await page.locator('.statusbar-item', { hasText: 'JSON with Comments' }).count()) > 0,
      );
      await page.keyboard.press('Control+Shift+M');
      const problems = await page.locator('.markers-panel').first().innerText();
      if (/Comments are not permitted|Unable to load schema/.test(problems)) throw new Error(problems);
      await shoot(page, 'e2e-specs-jsonc.png');
    });

    await step('the webviews ran under their CSP without violations', async () => {
      if (cspViolations.length > 0) throw new Error(cspViolations.slice(0, 3).join(' | '));
    });
    await shoot(page, 'e2e-window.png');
    await trusted.close();

    const untrusted = await sessions.open('untrusted', false);
    await step('"Weave: New spec" opens the panel (not open yet) on its form', async () => {
      await runCommand(untrusted.page, 'Weave: New spec');
      const form = panelFrame(untrusted.page).getByRole('form', { name: 'New spec' });
      await form.waitFor({ timeout: 60_000 });
      await form.getByRole('button', { name: 'Cancel' }).click();
    });
    await step('in an untrusted folder the panel says nothing runs and offers no check', async () => {
      const restricted = await openWeavePanel(untrusted.page);
      await restricted.getByText('Weave runs nothing in an untrusted folder').waitFor({ timeout: 30_000 });
      for (const name of ['Check all', 'Check affected', `Check ${FAILING_SPEC}`]) {
        if (!(await restricted.getByRole('button', { name, exact: true }).isDisabled()))
          throw new Error(`"${name}" is enabled in an untrusted folder`);
      }
      if (!(await restricted.getByRole('button', { name: 'New spec' }).isEnabled()))
        throw new Error('editing specs must stay possible in an untrusted folder');
      const badges = await restricted.locator('.spec-list > li .badge').allInnerTexts();
      if (badges.some((b) => b.trim() !== 'unchecked'))
        throw new Error(`verdicts in an untrusted folder: ${badges}`);
      await shoot(untrusted.page, 'e2e-panel-untrusted.png', '.part.sidebar');
    });
    await untrusted.close();

    const empty = await sessions.open('empty', true, { empty: true });
    await step(
      'an empty folder: the panel offers Init specs, Check all is off; Init writes specs.json',
      async () => {
        const tab = empty.page.getByRole('tab', { name: /^Weave/ }).first();
        if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
        const fresh = panelFrame(empty.page);
        const init = fresh.getByRole('button', { name: 'Init specs' });
        await init.waitFor({ timeout: 60_000 });
        if (!(await fresh.getByRole('button', { name: 'Check all', exact: true }).isDisabled()))
          throw new Error('"Check all" is enabled without a spec file');
        await shoot(empty.page, 'e2e-empty-folder.png', '.part.sidebar');
        await init.click();
        const file = path.join(empty.workspace, '.weave/specs.json');
        await until('specs.json on disk', 30_000, () => fs.existsSync(file));
        await fresh.locator('.spec-list > li').first().waitFor({ timeout: 30_000 });
        await shoot(empty.page, 'e2e-empty-folder-init.png');
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
