// UI end-to-end scenarios for a panel that adapts (issue #25, items 9–12 and 15), on a generated 40-spec
// workspace (fortySpecs.ts) checked once: the sidebar dragged to its 170 px minimum (ids on one line, compact
// rows, actions on hover/focus), the filter box and "Failing only" with the keyboard, the graph's minimum label
// size and its large view filling a 1,600 px window, Dark High Contrast (failing rows, badges and nodes keep a
// visible border and an icon), after a click into the list at 170 px and in both High Contrast themes every failing
// id readable and every row a verdict word (issue #39), and the Extensions page (the user-facing README and the icon).
// Screenshots: test-results/e2e-adapt-*.png.
import type { FrameLocator, Page } from 'playwright-core';
import { type Sessions, type Step } from './e2eHarness';
import { FORTY_SPECS, writeFortySpecWorkspace } from './fortySpecs';
import { MIN_LABEL_PX, smallestLabelPx } from './pages/sidePanel';
import { waitUntil, Workbench } from './pages/workbench';

const NARROW_PX = 170;
const WIDE_WINDOW_PX = 1600;

/** Drags the sash on the sidebar's right edge until the sidebar is `px` wide (VS Code's minimum is 170). */
async function setSidebarWidth(page: Page, px: number): Promise<number> {
  const sidebar = page.locator('.part.sidebar').first();
  const box = await sidebar.boundingBox();
  if (!box) throw new Error('no sidebar');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + px + 1, y, { steps: 8 });
  await page.mouse.up();
  return (await sidebar.boundingBox())?.width ?? 0;
}

interface RowBox {
  id: string;
  rowHeight: number;
  idHeight: number;
  idWidth: number;
  idLineHeight: number;
  tooltip: string;
  actionsVisible: boolean;
}

/** What each shown row measures, as laid out now. */
function rowBoxes(panel: FrameLocator): Promise<RowBox[]> {
  return panel.locator('.spec-list').evaluate((list) =>
    Array.from(list.querySelectorAll<HTMLElement>(':scope > li.spec:not([hidden])')).map((row) => {
      const id = row.querySelector<HTMLElement>('.spec-id');
      const actions = row.querySelector<HTMLElement>('.spec-actions');
      const idRect = id?.getBoundingClientRect();
      const style = id ? getComputedStyle(id) : undefined;
      const lineHeight = style ? parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.4 : 0;
      return {
        id: row.dataset['specId'] ?? '',
        rowHeight: row.getBoundingClientRect().height,
        idHeight: idRect?.height ?? 0,
        idWidth: idRect?.width ?? 0,
        idLineHeight: lineHeight,
        tooltip: id?.title ?? '',
        actionsVisible: actions
          ? getComputedStyle(actions).visibility === 'visible' && getComputedStyle(actions).opacity !== '0'
          : false,
      };
    }),
  );
}

interface RowText {
  id: string;
  failing: boolean;
  /** The id element's text is cut (ellipsis or clipped): its content is wider or taller than its box. */
  cut: boolean;
  /** Visible action buttons lie over the id. */
  covered: boolean;
  open: boolean;
  /** The verdict word a person sees on the row (the badge's, or the second line's in a narrow list). */
  verdictWord: string;
  actionsVisible: boolean;
}

/** What a person reads on each row: whether the id is whole and uncovered, and which verdict word, as laid out now. */
function rowTexts(panel: FrameLocator): Promise<RowText[]> {
  return panel.locator('.spec-list').evaluate((list) =>
    Array.from(list.querySelectorAll<HTMLElement>(':scope > li.spec:not([hidden])')).map((row) => {
      const id = row.querySelector<HTMLElement>('.spec-id');
      const shown = (el: HTMLElement | null): boolean =>
        el !== null && el.getClientRects().length > 0 && getComputedStyle(el).visibility === 'visible';
      const words = [
        row.querySelector<HTMLElement>('.badge-label'),
        row.querySelector<HTMLElement>('.spec-verdict'),
      ];
      const actions = row.querySelector<HTMLElement>('.spec-actions');
      const actionsVisible = actions !== null && getComputedStyle(actions).opacity !== '0';
      const a = actions?.getBoundingClientRect();
      const i = id?.getBoundingClientRect();
      return {
        id: row.dataset['specId'] ?? '',
        failing: row.dataset['failing'] === 'true',
        cut:
          id === null ||
          id.textContent !== row.dataset['specId'] ||
          id.scrollWidth > id.clientWidth + 1 ||
          id.scrollHeight > id.clientHeight + 1,
        covered:
          actionsVisible &&
          a !== undefined &&
          i !== undefined &&
          a.left < i.right - 1 &&
          a.right > i.left + 1 &&
          a.top < i.bottom - 1 &&
          a.bottom > i.top + 1,
        open: row.classList.contains('open'),
        verdictWord: words.find(shown)?.textContent ?? '',
        actionsVisible,
      };
    }),
  );
}

/**
 * After a click into the list (`:focus-within` and hover then apply, as a person meets them): every spec's id
 * shows whole (not ellipsised, not under the action buttons), every row a verdict word, and only the clicked row
 * is open and shows actions.
 */
async function assertRowsReadable(panel: FrameLocator, clicked: string): Promise<void> {
  const rows = await rowTexts(panel);
  if (rows.length === 0) throw new Error('no rows');
  for (const row of rows) {
    if (row.cut) throw new Error(`${row.id}: the id is cut`);
    if (row.covered) throw new Error(`${row.id}: the action buttons cover the id`);
    if (row.verdictWord === '') throw new Error(`${row.id}: no verdict word shows`);
    if (row.actionsVisible && row.id !== clicked)
      throw new Error(`${row.id}: actions show on a row not clicked`);
    if (row.open !== (row.id === clicked)) throw new Error(`${row.id}: ${row.open ? 'open' : 'not open'}`);
  }
}

/** Clicks a row on its id, as a person opens it. */
async function clickRow(panel: FrameLocator, id: string): Promise<void> {
  await panel.locator(`.spec-list > li[data-spec-id="${id}"] .spec-id`).click({ position: { x: 4, y: 4 } });
}

/** The row's height and where its id sits, to tell whether the layout moved. */
function rowGeometry(panel: FrameLocator, id: string): Promise<string> {
  return panel.locator(`.spec-list > li[data-spec-id="${id}"]`).evaluate((row) => {
    const r = row.getBoundingClientRect();
    return `${r.width.toFixed(0)}x${r.height.toFixed(0)} open=${row.classList.contains('open')}`;
  });
}

async function shownIds(panel: FrameLocator): Promise<string[]> {
  return panel
    .locator('.spec-list > li.spec:not([hidden])')
    .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset['specId'] ?? ''));
}

const FAILING = FORTY_SPECS.filter((s) => s.failing).map((s) => s.id);

export async function panelAdaptScenarios(sessions: Sessions, step: Step): Promise<void> {
  const session = await sessions.open('forty', true, {
    workspace: writeFortySpecWorkspace,
    // The secondary side bar (chat) would take a third of the window the large graph view is measured in.
    settings: {
      'weave.concurrency': 2,
      'weave.coverage': false,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
    },
  });
  const ui = new Workbench(session.page);
  const { page } = session;
  const { panel, palette } = ui;
  const frame = panel.frame;
  try {
    await step('40 specs: a check gives each its verdict in the panel', async () => {
      await panel.open();
      await palette.run('Weave: Check constraints');
      await waitUntil('the 40 specs checked', 240_000, async () => {
        const summary = await panel.summary();
        return summary.includes(`${FORTY_SPECS.length - FAILING.length} pass`) && summary.includes('fail');
      });
    });

    await step(
      'at 170 px every id shows whole (wrapped at its dashes, never cut), one line under it, icons on hover/focus',
      async () => {
        const width = await setSidebarWidth(page, NARROW_PX);
        if (Math.abs(width - NARROW_PX) > 2) throw new Error(`sidebar is ${width} px wide`);
        const rows = await rowBoxes(frame);
        if (rows.length !== FORTY_SPECS.length) throw new Error(`${rows.length} rows`);
        const texts = await rowTexts(frame);
        for (const row of rows) {
          if (row.idWidth < 60) throw new Error(`${row.id}: id squeezed to ${row.idWidth.toFixed(0)} px`);
          // The id's lines plus one line for the kind and failure (about 1.4 lines of a smaller font and padding).
          if (row.rowHeight > row.idHeight + row.idLineHeight * 1.6)
            throw new Error(`${row.id}: row ${row.rowHeight.toFixed(0)} px tall for a ${row.idHeight} px id`);
          if (!row.tooltip.includes(row.id)) throw new Error(`${row.id}: tooltip "${row.tooltip}"`);
          if (row.actionsVisible) throw new Error(`${row.id}: action icons shown without hover or focus`);
        }
        const cut = texts.filter((t) => t.cut).map((t) => t.id);
        if (cut.length > 0) throw new Error(`ids cut before any click: ${cut.join(', ')}`);
        const first = rows[0]?.id ?? '';
        await panel.spec(first).focus();
        const focused = (await rowBoxes(frame))[0];
        if (!focused?.actionsVisible) throw new Error('the focused row shows no action icons');
        await ui.shoot('e2e-adapt-170px.png', 'sidebar');
      },
    );

    await step(
      'at 170 px after a click: every id whole and uncovered, every row a verdict word',
      async () => {
        const clicked = FAILING[0] ?? '';
        await clickRow(frame, clicked);
        await assertRowsReadable(frame, clicked);
        await ui.shoot('e2e-adapt-170px-clicked.png', 'sidebar');
        // The clicked row stays open when the focus leaves the list: nothing moves under the pointer.
        const before = await rowGeometry(frame, clicked);
        await frame.getByRole('searchbox', { name: /Filter specs/ }).click();
        const after = await rowGeometry(frame, clicked);
        if (after !== before)
          throw new Error(`the clicked row changed as focus left it: ${before} → ${after}`);
        await assertRowsReadable(frame, clicked);
      },
    );

    await step('filter box: id, title, kind and verdict narrow the 40 rows; "Failing only"', async () => {
      const filter = frame.getByRole('searchbox', { name: /Filter specs/ });
      const expectShown = async (what: string, expected: string[]): Promise<void> => {
        await waitUntil(`${what}: ${expected.length} rows`, 10_000, async () => {
          const ids = await shownIds(frame);
          return ids.length === expected.length && expected.every((id) => ids.includes(id));
        });
      };
      await filter.fill('security');
      await expectShown(
        'kind security',
        FORTY_SPECS.filter((s) => s.kind === 'security').map((s) => s.id),
      );
      await filter.fill('refund rule');
      await expectShown(
        'id words',
        FORTY_SPECS.filter((s) => s.id.startsWith('refund-')).map((s) => s.id),
      );
      await filter.fill('constraints holds');
      await expectShown(
        'title words',
        FORTY_SPECS.map((s) => s.id),
      );
      await filter.fill('fail');
      await expectShown('verdict fail', FAILING);
      await frame
        .getByText(`${FAILING.length} of ${FORTY_SPECS.length} specs shown`)
        .waitFor({ timeout: 5000 });
      await filter.fill('');
      await expectShown(
        'no filter',
        FORTY_SPECS.map((s) => s.id),
      );
      await frame.getByRole('button', { name: 'Show failing specs only' }).click();
      await expectShown('failing only', FAILING);
      await ui.shoot('e2e-adapt-170px-failing-only.png', 'sidebar');
    });

    await step(
      'keyboard with a filter: ↓ from the box enters the list, arrows move over the rows shown',
      async () => {
        const filter = frame.getByRole('searchbox', { name: /Filter specs/ });
        await filter.focus();
        await panel.press('ArrowDown');
        if ((await panel.focusedSpecId()) !== FAILING[0])
          throw new Error(`↓ focused ${await panel.focusedSpecId()}`);
        await panel.press('ArrowDown');
        if ((await panel.focusedSpecId()) !== FAILING[1])
          throw new Error(`↓ again focused ${await panel.focusedSpecId()}`);
        await panel.press('End');
        if ((await panel.focusedSpecId()) !== FAILING.at(-1)) throw new Error('End');
        await panel.press('ArrowRight');
        if ((await panel.focusedTag()) !== 'BUTTON') throw new Error('→ did not reach a button');
        await panel.press('Escape');
        if ((await panel.tabStopsInList()) !== 1)
          throw new Error(`${await panel.tabStopsInList()} Tab stops`);
        await frame.getByRole('button', { name: 'Show failing specs only' }).click();
        await waitUntil(
          'all rows back',
          10_000,
          async () => (await shownIds(frame)).length === FORTY_SPECS.length,
        );
      },
    );

    await step('graph at 170 px: labels never under the minimum size; it pans instead', async () => {
      const { graph } = panel;
      await graph.scrollIntoView();
      if ((await graph.nodeCount()) !== FORTY_SPECS.length) throw new Error('graph nodes');
      const smallest = await panel.graph.smallestLabelPx();
      if (smallest < MIN_LABEL_PX - 0.01) throw new Error(`labels drawn at ${smallest.toFixed(1)} px`);
      const [scrollWidth = 0, clientWidth = 0] = await graph.scrollWidths();
      if (scrollWidth <= clientWidth) throw new Error('the graph fits 170 px only by shrinking');
      await ui.shoot('e2e-adapt-170px-graph.png', 'sidebar');
    });

    await step(
      'at 1,600 px the large graph view fills its tab (Fit too), labels at least the minimum',
      async () => {
        await page.setViewportSize({ width: WIDE_WINDOW_PX, height: 1000 });
        await setSidebarWidth(page, 320);
        // At a usual sidebar width a click opens the row: the verdict words stay (a scrollbar once hid them).
        const clicked = FAILING[1] ?? '';
        await clickRow(frame, clicked);
        const words = await rowTexts(frame);
        const wordless = words.filter((r) => r.verdictWord === '').map((r) => r.id);
        if (wordless.length > 0) throw new Error(`no verdict word on ${wordless.join(', ')}`);
        // At 320 px (where the issue saw "cache-hit-varia…"): every id whole, the part that tells them apart too.
        await assertRowsReadable(frame, clicked);
        await setSidebarWidth(page, 420);
        await ui.shoot('e2e-adapt-1600px-panel.png');
        // The extension README's screenshot (resources/readme/panel.png is copied from this one).
        await frame.locator('.summary').scrollIntoViewIfNeeded();
        await ui.shoot('e2e-adapt-420px-sidebar.png', 'sidebar');
        await panel.graph.openLargeView();
        const large = await ui.editors.webview('.graph-page svg.graph .node');
        // The tab widens once the sidebar is hidden: the graph follows it.
        await palette.run('View: Toggle Primary Side Bar Visibility');
        const measure = (): Promise<{ share: number; natural: number; tab: number }> =>
          large.locator('.graph-page').evaluate((pageEl) => {
            const svg = pageEl.querySelector('svg.graph');
            const tab = document.documentElement.clientWidth;
            return {
              share: (svg?.getBoundingClientRect().width ?? 0) / tab,
              natural: Number(svg?.getAttribute('data-width') ?? 0),
              tab,
            };
          });
        await waitUntil('a tab wider than 1,400 px', 10_000, async () => (await measure()).tab > 1400);
        const before = await measure();
        // Without scaling up, the graph would stay at its natural width: this fixture must be narrower than 90%.
        if (before.natural >= before.tab * 0.9)
          throw new Error(`fixture: the graph's natural ${before.natural} px already fills ${before.tab} px`);
        await waitUntil('the graph to fill the tab', 10_000, async () => (await measure()).share >= 0.9);
        await large.getByRole('button', { name: 'Zoom out' }).click();
        await large.getByRole('button', { name: 'Fit to width' }).click();
        const after = await measure();
        if (after.share < 0.9)
          throw new Error(`after Fit the graph is ${(after.share * 100).toFixed(0)}% of the tab`);
        const smallest = await smallestLabelPx(large.locator('svg.graph'));
        if (smallest < MIN_LABEL_PX - 0.01) throw new Error(`large view labels at ${smallest.toFixed(1)} px`);
        // Above 15 specs the potential (static) interactions start hidden; the legend's toggle draws them.
        const potential = (): Promise<number> => large.locator('svg.graph .edge.potential').count();
        if ((await potential()) !== 0)
          throw new Error(`${await potential()} potential edges drawn by default`);
        const toggle = large.getByLabel(/potential interactions \((\d+)\)/);
        const named = Number(
          /\((\d+)\)/.exec((await toggle.locator('xpath=..').innerText()) ?? '')?.[1] ?? 0,
        );
        if (named === 0) throw new Error('fixture: the workspace has no potential interactions to hide');
        await toggle.check();
        await waitUntil('the potential edges drawn', 10_000, async () => (await potential()) > 0);
        await ui.shoot('e2e-adapt-1600px-graph-potential.png');
        await toggle.uncheck();
        await ui.shoot('e2e-adapt-1600px-graph.png');
        await ui.editors.closeAll();
        await palette.run('View: Toggle Primary Side Bar Visibility');
        await panel.open();
      },
    );

    await step(
      'Dark High Contrast: failing rows, badges and nodes keep a visible border and an icon',
      async () => {
        await palette.run('Preferences: Color Theme');
        await palette.pick('Dark High Contrast');
        await waitUntil('the panel in high contrast', 20_000, async () =>
          frame
            .locator('body.vscode-high-contrast')
            .count()
            .then((n) => n > 0),
        );
        await panel.open(); // the sidebar, even when the step before stopped with it hidden
        await setSidebarWidth(page, NARROW_PX);
        const looks = await frame.locator('.spec-list').evaluate((list) => {
          const visible = (c: string): boolean =>
            c !== '' && c !== 'transparent' && !/rgba\(.*, 0\)$/.test(c);
          return Array.from(list.querySelectorAll<HTMLElement>(':scope > li.spec')).map((row) => {
            const style = getComputedStyle(row);
            const badge = row.querySelector<HTMLElement>('.badge');
            const icon = badge?.querySelector('.codicon');
            const badgeStyle = badge ? getComputedStyle(badge) : undefined;
            return {
              id: row.dataset['specId'] ?? '',
              failing: row.dataset['failing'] === 'true',
              border: visible(style.borderLeftColor) && parseFloat(style.borderLeftWidth) >= 1,
              outline:
                visible(style.borderTopColor) ||
                visible(style.outlineColor) ||
                (badgeStyle !== undefined && visible(badgeStyle.borderTopColor)),
              badgeBorder: badgeStyle !== undefined && visible(badgeStyle.borderTopColor),
              icon: icon ? getComputedStyle(icon, '::before').content.length > 2 : false,
              word: (badge?.title ?? '') + (row.getAttribute('aria-label') ?? ''),
            };
          });
        });
        for (const look of looks.filter((l) => l.failing)) {
          if (!look.border || !look.badgeBorder) throw new Error(`${look.id}: ${JSON.stringify(look)}`);
          if (!look.icon || !/fail/.test(look.word))
            throw new Error(`${look.id}: no icon or word for its verdict`);
        }
        const nodes = await frame.locator('svg.graph').evaluate((g) =>
          Array.from(g.querySelectorAll<SVGGElement>('g.node.status-fail rect')).map((rect) => {
            const style = getComputedStyle(rect);
            return { stroke: style.stroke, width: parseFloat(style.strokeWidth), fill: style.fill };
          }),
        );
        if (nodes.length !== FAILING.length) throw new Error(`${nodes.length} failing nodes`);
        for (const n of nodes) {
          if (n.stroke === 'none' || /rgba\(.*, 0\)$/.test(n.stroke) || n.width < 1 || n.stroke === n.fill)
            throw new Error(`failing node drawn ${JSON.stringify(n)}`);
        }
        await clickRow(frame, FAILING[0] ?? '');
        await assertRowsReadable(frame, FAILING[0] ?? '');
        await ui.shoot('e2e-adapt-hc-170px.png', 'sidebar');
        await panel.graph.scrollIntoView();
        await ui.shoot('e2e-adapt-hc-170px-graph.png', 'sidebar');
        await setSidebarWidth(page, 420);
        await frame.locator('.summary').scrollIntoViewIfNeeded();
        await panel.spec(FAILING[0] ?? '').focus();
        await ui.shoot('e2e-adapt-hc-1600px.png');
      },
    );

    await step('Light High Contrast at 170 px: each failing id readable, with its verdict word', async () => {
      await palette.run('Preferences: Color Theme');
      await palette.pick('Light High Contrast');
      await waitUntil('the panel in light high contrast', 20_000, async () =>
        frame
          .locator('body.vscode-high-contrast-light')
          .count()
          .then((n) => n > 0),
      );
      await panel.open();
      await setSidebarWidth(page, NARROW_PX);
      await clickRow(frame, FAILING[0] ?? '');
      await assertRowsReadable(frame, FAILING[0] ?? '');
      const failingWords = (await rowTexts(frame)).filter((r) => r.failing).map((r) => r.verdictWord);
      if (failingWords.some((w) => w !== 'fail'))
        throw new Error(`failing rows say ${failingWords.join(', ')}`);
      await ui.shoot('e2e-adapt-hc-light-170px.png', 'sidebar');
    });

    await step('the Extensions page shows the user README and the Weave icon', async () => {
      await palette.run('Extensions: Show Installed Extensions');
      const item = page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'Weave' }).first();
      await item.waitFor({ timeout: 30_000 });
      // The list row is drawn before its icon (the img has no src until the extension's icon is resolved), and the
      // list may draw the row again, so the icon is read through the locator each time, never through a handle
      // to one element: a CI run read a fresh row's empty src, and a handle can outlive its row.
      const readIcon = (): Promise<{ src: string; attribute: string; loaded: boolean; width: number }> =>
        item
          .locator('img.icon')
          .first()
          .evaluate((img) => {
            const el = img as HTMLImageElement;
            return {
              src: el.src,
              attribute: el.getAttribute('src') ?? '',
              loaded: el.complete,
              width: el.naturalWidth,
            };
          });
      let listIcon = await readIcon();
      await waitUntil('the extension icon loaded in the list', 30_000, async () => {
        listIcon = await readIcon();
        return listIcon.attribute !== '' && listIcon.loaded && listIcon.width > 0;
      }).catch(() => undefined); // the check below says what was seen
      if (/defaultIcon|default-icon/i.test(listIcon.src) || listIcon.width !== 128)
        throw new Error(`extension icon ${JSON.stringify(listIcon)}`);
      await item.click();
      const readme = await ui.editors.webview('h2:has-text("Commands")', 30_000);
      const text = await readme.locator('body').innerText();
      for (const part of ['Commands', 'Settings', 'weave.check.retries'])
        if (!text.includes(part)) throw new Error(`the README shows no "${part}"`);
      if (/npm ci|npm test/.test(text)) throw new Error('the Extensions page shows the developers’ README');
      await ui.shoot('e2e-adapt-extension-page.png');
      // The page loads README images only from http(s) (scripts/package-vsix.mjs): the screenshot is there by its
      // alt text, until the package has an https home.
      if ((await readme.locator('img[alt*="The Weave side panel"]').count()) !== 1)
        throw new Error('the README has no screenshot');
    });
  } finally {
    await session.close();
  }
}
