// The UI end-to-end scenarios of the trusted session that read what Weave shows and add a spec: a palette check
// with the panel open (queued specs, Problems, the Test Explorer), the panel's ids, failure lines, keyboard use
// and ELK graph with its large view, then the form and the spec it writes to specs.json, and one schema error in
// specs.json as one entry in Problems.
import fs from 'node:fs';
import { FAILING_SPEC, type DemoSession } from './e2eDemoSession';
import { specsOnDisk, type Step } from './e2eHarness';
import { MIN_LABEL_PX } from './pages/sidePanel';
import { waitUntil } from './pages/workbench';

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

/** Code under test that the demo's specs anchor (cache-hit anchors src/cache.js#LruCache.get): no test file. */
const SOURCE_FILE = 'src/cache.js';

export async function panelScenarios(demo: DemoSession, step: Step): Promise<void> {
  const { specsFile, originalComments, expectedIds, ui } = demo;
  const { palette, problems, editors, testExplorer, panel, statusBar } = ui;

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

  await step('the Test Explorer shows the palette check’s verdicts (no "No test results yet")', async () => {
    await testExplorer.focus();
    await waitUntil('test items with results', 30_000, async () => {
      const labels = await testExplorer.labels();
      return labels.some((l) => /Failed/i.test(l)) && labels.some((l) => /Passed/i.test(l));
    });
    await ui.shoot('e2e-testing.png', 'sidebar');
    await panel.open();
  });

  await step('the panel shows whole ids, the assertion under a failing spec, and one Tab stop', async () => {
    for (const id of expectedIds) {
      const { text, cut } = await panel.spec(id).idAsShown();
      if (text !== id || cut) throw new Error(`id ${id} shown as "${text}"${cut ? ' (cut off)' : ''}`);
    }
    const reason = await panel.spec(FAILING_SPEC).reason();
    // The assertion's own message leads (issue #39: "AssertionError [ERR_ASSERTI…" hid it on a narrow row).
    if (!/^the authorized response was stored in the cache/.test(reason))
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
  });

  await step(
    'a click on a row at the default width: no scrollbar appears, every verdict word and "Failing" stay',
    async () => {
      const before = await panel.layout();
      await panel.spec(FAILING_SPEC).click();
      const after = await panel.layout();
      await ui.shoot('e2e-panel-clicked.png', 'sidebar');
      if (!after.open.includes(FAILING_SPEC))
        throw new Error(`the clicked row is not open (${after.open.join()})`);
      if (after.listWidth !== before.listWidth)
        throw new Error(`the list went from ${before.listWidth} to ${after.listWidth} px wide`);
      if (after.scrollsSideways) throw new Error('the panel scrolls sideways');
      if (after.wordless.length > 0) throw new Error(`no verdict word on ${after.wordless.join(', ')}`);
      if (!after.failingLabel) throw new Error('the "Failing" label is gone');
      if (after.verdictWords.join() !== before.verdictWords.join())
        throw new Error(`verdict words ${before.verdictWords.join()} → ${after.verdictWords.join()}`);
    },
  );

  await step(
    'the panel graph is laid out by ELK, fits the width down to its minimum label size, shows whole ids; the large view opens',
    async () => {
      const { graph } = panel;
      await graph.scrollIntoView();
      if ((await graph.nodeCount()) !== expectedIds.length) throw new Error('graph nodes');
      // Fit scales the graph to the panel, but never its labels under the minimum: wider than that, it pans.
      const scroll = await graph.scrollWidths();
      const smallest = await graph.smallestLabelPx();
      if (smallest < MIN_LABEL_PX - 0.01) throw new Error(`graph labels drawn at ${smallest.toFixed(1)} px`);
      if ((scroll[0] ?? 0) > (scroll[1] ?? 0) + 1 && smallest > MIN_LABEL_PX + 0.05)
        throw new Error(
          `graph scrolls sideways (${scroll.join(' > ')}) with labels at ${smallest.toFixed(1)} px`,
        );
      // Every label whole, inside its node and inside the panel at its default width (no node cut at the edge).
      const cut = await graph.cutLabels(true);
      if (cut.length > 0) throw new Error(`graph labels cut: ${cut.join(', ')} (${scroll.join(' > ')})`);
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
      if ((await large.locator('.node').count()) !== expectedIds.length) throw new Error('large graph nodes');
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
      // A filter that the new spec will not match: saving must still show it (the filter is cleared, said so).
      await panel.filterBox().fill(FAILING_SPEC);
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
    'the Test files picker warns when a source file a spec anchors is picked as a test (protected)',
    async () => {
      const { form } = panel;
      await form.search('Test files', SOURCE_FILE);
      await form.waitForOption(SOURCE_FILE.replace('.', '\\.'), 60_000);
      await form.picker('Test files').press('Enter');
      await form.chipOf('files', SOURCE_FILE).waitFor({ timeout: 5000 });
      const warning = form.fieldError('files');
      await warning.waitFor({ timeout: 5000 });
      const text = await warning.innerText();
      const expected = new RegExp(
        `^Warning: ${SOURCE_FILE} does not look like a test and .*${NEW_SPEC.dependsOn}.* anchor it: as a test file it is protected \\(an agent may never edit it\\)\\. Is it the code under test\\?$`,
      );
      if (!expected.test(text)) throw new Error(`test files warning: "${text}"`);
      await ui.shoot('e2e-form-source-as-test.png', 'sidebar');
      await form.removeChip('test file', SOURCE_FILE);
      await warning.waitFor({ state: 'hidden', timeout: 5000 });
    },
  );

  await step(
    'saving writes the spec in the file’s style with comments kept, reveals it (filter cleared, focused, marked); the Saved note fades',
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
      const row = panel.spec(NEW_SPEC.id);
      await row.item.waitFor({ timeout: 30_000 });
      await panel.text(`Saved spec ${NEW_SPEC.id}`).waitFor({ timeout: 5000 });
      await panel.text('The filter hid it, so it was cleared.').waitFor({ timeout: 5000 });
      const filterLeft = await panel.filterBox().inputValue();
      if (filterLeft !== '') throw new Error(`the filter still says "${filterLeft}"`);
      await waitUntil(
        `${NEW_SPEC.id} focused`,
        10_000,
        async () => (await panel.focusedSpecId()) === NEW_SPEC.id,
      );
      if (!(await row.inView())) throw new Error('the new spec is not scrolled into view');
      if (!(await row.marked())) throw new Error('the new spec is not marked as just saved');
      await ui.shoot('e2e-panel-added.png', 'sidebar');
      await panel.text(`Saved spec ${NEW_SPEC.id}`).waitFor({ state: 'detached', timeout: 15_000 });
    },
  );

  await step(
    'one schema error in specs.json is one entry in Problems (Weave’s, with its field and line), a trailing comma one too',
    async () => {
      const original = fs.readFileSync(specsFile, 'utf8');
      // One bad value, and a trailing comma (which Weave accepts): VS Code's JSON features warn of the comma, so
      // their warning showing says they have validated this text, schema and syntax in one pass. Each problem
      // must show once: the kind as Weave's located error, the comma as VS Code's warning.
      const broken = original
        .replace(/("kind":\s*)"reliability"/, '$1"sturdiness"')
        .replace('"dependsOn": ["response-shape"]', '"dependsOn": ["response-shape",]');
      if (!broken.includes('"sturdiness"') || !broken.includes('"response-shape",]'))
        throw new Error('could not break specs.json');
      fs.writeFileSync(specsFile, broken);
      try {
        await palette.openFile('.weave/specs.json', 'specs.json');
        await statusBar.waitForLanguageMode('JSON with Comments', 30_000);
        await problems.open();
        await problems.waitForText('VS Code’s trailing-comma warning', /Trailing comma/, 30_000);
        await problems.waitForText('Weave’s error for the bad kind', /specs\[\d+\]\.kind/, 30_000);
        // One row per problem (aria-label "Error: … at line N and character M. generated by weave"); the
        // file's own row ("N problems in file specs.json") is not one.
        const rows = (await problems.rowLabels()).filter((r) => / at line \d+ and character \d+/.test(r));
        const kindReports = rows.filter((r) => /sturdiness|\.kind\b|Value is not accepted/.test(r));
        const commaReports = rows.filter((r) => /trailing comma/i.test(r));
        await ui.shoot('e2e-schema-error-once.png', 'panel');
        if (kindReports.length !== 1 || commaReports.length !== 1)
          throw new Error(
            `${kindReports.length} reports of one bad kind, ${commaReports.length} of one trailing comma: ${rows.join(' | ')}`,
          );
        const [report] = kindReports;
        if (!/^Error: specs\[2\]\.kind: .*"sturdiness" at line 34 .*weave/.test(report ?? ''))
          throw new Error(`the report is not Weave's, with its field and line: ${report}`);
      } finally {
        fs.writeFileSync(specsFile, original);
        await editors.closeAll();
      }
      await waitUntil('the bad kind gone from Problems', 30_000, async () =>
        (await problems.rowLabels()).every((r) => !/specs\[\d+\]\.kind/.test(r)),
      );
    },
  );
}
