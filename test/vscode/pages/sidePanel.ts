// The Weave side panel (a webview: iframe.webview → #active-frame) as the UI end-to-end test uses it: its spec
// list, its graph and its add / edit form, each as what a person sees and does there.
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { openWeavePanel, panelFrame } from '../e2eHarness';
import { waitUntil } from './workbench';

/** The smallest label the graph draws (media/src/graph.ts MIN_LABEL_PX; the webview bundle is not importable here). */
export const MIN_LABEL_PX = 9;

export class SidePanel {
  readonly frame: FrameLocator;
  readonly graph: PanelGraph;
  readonly form: SpecForm;

  constructor(private readonly page: Page) {
    this.frame = panelFrame(page);
    this.graph = new PanelGraph(this.frame);
    this.form = new SpecForm(this.frame);
  }

  /** Clicks the Weave tab in the activity bar (unless it is shown) and waits for the spec list. */
  async open(): Promise<void> {
    await openWeavePanel(this.page);
  }

  /** Clicks the Weave tab without waiting for a spec list (an empty folder has none). */
  async reveal(): Promise<void> {
    const tab = this.page.getByRole('tab', { name: /^Weave/ }).first();
    if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  }

  button(name: string, exact = false): Locator {
    return this.frame.getByRole('button', { name, exact });
  }

  text(text: string): Locator {
    return this.frame.getByText(text);
  }

  summary(): Promise<string> {
    return this.frame.locator('.summary').innerText();
  }

  /** Specs waiting for a slot of `weave.concurrency`. */
  queuedCount(): Promise<number> {
    return this.frame.locator('.badge.status-queued').count();
  }

  /** Specs queued or running. */
  busyCount(): Promise<number> {
    return this.frame.locator('.badge.status-queued, .badge.status-running').count();
  }

  spec(id: string): SpecRow {
    return new SpecRow(this.frame.locator(`.spec-list > li[data-spec-id="${id}"]`));
  }

  firstSpec(): Locator {
    return this.frame.locator('.spec-list > li').first();
  }

  /** Each row's verdict word (its badge's label: beside the icon, or hidden there in a narrow list, where the
   * word opens the row's second line instead — the adapts scenarios check that it shows). */
  badges(): Promise<string[]> {
    return this.frame.locator('.spec-list > li .badge').allTextContents();
  }

  /** The list's filter box ("Filter specs"). */
  filterBox(): Locator {
    return this.frame.getByRole('searchbox', { name: /Filter specs/ });
  }

  /** What has the keyboard focus in the panel: a spec's id, or the tag of another element. */
  async focusedSpecId(): Promise<string | null> {
    return this.frame.locator(':focus').getAttribute('data-spec-id');
  }

  async focusedTag(): Promise<string> {
    return this.frame.locator(':focus').evaluate((el) => el.tagName);
  }

  /** Elements of the list in the Tab order (a roving tabindex keeps it at one). */
  tabStopsInList(): Promise<number> {
    return this.frame.locator('.spec-list [tabindex="0"]').count();
  }

  async focusIsInList(): Promise<boolean> {
    return (await this.frame.locator('.spec-list :focus, .spec-list:focus-within').count()) > 0;
  }

  /** What moves when the layout jumps: the list's width, the verdict word each row shows, the "Failing" label. */
  layout(): Promise<{
    listWidth: number;
    scrollsSideways: boolean;
    verdictWords: string[];
    wordless: string[];
    failingLabel: boolean;
    open: string[];
  }> {
    return this.frame.locator('.spec-list').evaluate((list) => {
      const shown = (el: Element | null): boolean =>
        el !== null && el.getClientRects().length > 0 && getComputedStyle(el).visibility === 'visible';
      const rows = Array.from(list.querySelectorAll<HTMLElement>(':scope > li.spec:not([hidden])'));
      const words = rows.map((row) => {
        const word = [row.querySelector('.badge-label'), row.querySelector('.spec-verdict')].find(shown);
        return { id: row.dataset['specId'] ?? '', word: word?.textContent ?? '' };
      });
      const root = document.scrollingElement ?? document.documentElement;
      return {
        listWidth: Math.round(list.getBoundingClientRect().width),
        scrollsSideways: root.scrollWidth > root.clientWidth + 1,
        verdictWords: words.map((w) => w.word),
        wordless: words.filter((w) => w.word === '').map((w) => w.id),
        failingLabel: shown(document.querySelector('.filter-failing-label')),
        open: rows.filter((r) => r.classList.contains('open')).map((r) => r.dataset['specId'] ?? ''),
      };
    });
  }

  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }
}

export class SpecRow {
  constructor(readonly item: Locator) {}

  /** The id as shown, and whether the view cuts it off. */
  idAsShown(): Promise<{ text: string | null; cut: boolean }> {
    return this.item.locator('.spec-id').evaluate((el) => ({
      text: el.textContent,
      cut: el.scrollWidth > el.clientWidth + 1,
    }));
  }

  /** The failure line under a failing spec. */
  reason(): Promise<string> {
    return this.item.locator('.spec-reason').innerText();
  }

  badge(): Promise<string> {
    return this.item
      .locator('.badge')
      .textContent()
      .then((t) => t ?? '');
  }

  /** Whether the row is drawn inside the panel's visible area (not scrolled off it, not hidden). */
  inView(): Promise<boolean> {
    return this.item.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
    });
  }

  /** Whether the row carries the "just saved" mark. */
  marked(): Promise<boolean> {
    return this.item.evaluate((el) => el.classList.contains('just-saved'));
  }

  async focus(): Promise<void> {
    await this.item.focus();
  }

  /** Clicks the row on its id, as a person opens it. */
  async click(): Promise<void> {
    await this.item.locator('.spec-id').click({ position: { x: 4, y: 4 } });
  }
}

export class PanelGraph {
  constructor(private readonly frame: FrameLocator) {}

  async scrollIntoView(): Promise<void> {
    await this.frame.locator('svg.graph').scrollIntoViewIfNeeded();
  }

  nodeCount(): Promise<number> {
    return this.frame.locator('svg.graph .node').count();
  }

  /** [scrollWidth, clientWidth] of the graph's scroll area. */
  scrollWidths(): Promise<number[]> {
    return this.frame.locator('.graph-scroll').evaluate((el) => [el.scrollWidth, el.clientWidth]);
  }

  /** The smallest font size a node's label is drawn at, in CSS pixels of the screen (after the zoom). */
  smallestLabelPx(): Promise<number> {
    return smallestLabelPx(this.frame.locator('svg.graph'));
  }

  /** A node's label as drawn (its tspans joined: ids wrap at dashes). */
  label(id: string): Promise<string> {
    return this.frame.locator(`g.node[data-spec-id="${id}"] text`).evaluate((t) =>
      Array.from(t.querySelectorAll('tspan'))
        .map((s) => s.textContent)
        .join(''),
    );
  }

  /**
   * Nodes whose label a person cannot read whole: text wider than its box, or (`inView`) a label the graph's scroll
   * area cuts at its edge (a graph that pans showed the demo's rightmost node as "no-sta…").
   */
  cutLabels(inView: boolean): Promise<string[]> {
    return cutLabels(this.frame.locator('.graph-scroll'), inView);
  }

  dependencyEdgeCount(): Promise<number> {
    return this.frame.locator('svg.graph path.edge.depends').count();
  }

  async hover(id: string): Promise<void> {
    await this.frame.locator(`g.node[data-spec-id="${id}"]`).hover();
  }

  highlightedEdgeCount(): Promise<number> {
    return this.frame.locator('svg.graph.highlighting .edge.hl').count();
  }

  potentialEdgeCount(): Promise<number> {
    return this.frame.locator('svg.graph .edge.potential').count();
  }

  async showPotentialInteractions(show: boolean): Promise<void> {
    const box = this.frame.getByLabel(/potential interactions \(\d+\)/);
    if (show) {
      await box.check();
      await this.frame.locator('svg.graph .edge.potential').first().waitFor({ timeout: 10_000 });
    } else await box.uncheck();
  }

  async openLargeView(): Promise<void> {
    // The graph may be laying itself out again for a width just changed: click once its picture stays put.
    let last = '';
    await waitUntil('the panel graph to settle', 60_000, async () => {
      const now = await this.frame
        .locator('.graph-scroll')
        .evaluate(
          (el) => `${el.getAttribute('aria-busy')} ${el.querySelector('svg.graph')?.outerHTML.length}`,
        );
      const settled = now === last && !now.startsWith('true');
      last = now;
      return settled;
    });
    await this.frame.getByRole('button', { name: 'Open the graph in an editor tab' }).click();
  }
}

export class SpecForm {
  constructor(private readonly frame: FrameLocator) {}

  field(label: string, exact = false): Locator {
    return this.frame.getByLabel(label, { exact });
  }

  /** The error shown under the id field. */
  idError(): Promise<string> {
    return this.frame.locator('#err-id').innerText();
  }

  /** Types into a picker (Anchors, Test files) and waits for its search to answer. */
  async search(picker: 'Anchors' | 'Test files', query: string): Promise<void> {
    await this.picker(picker).fill(query);
  }

  picker(name: 'Anchors' | 'Test files'): Locator {
    return this.frame.getByRole('combobox', { name });
  }

  /** The text of the anchors field (it says how many suggestions the search found). */
  anchorsFieldText(): Promise<string> {
    return this.frame.locator('.field', { has: this.frame.locator('#field-anchors') }).innerText();
  }

  async waitForOption(matching: string, timeoutMs: number): Promise<void> {
    await this.frame
      .getByRole('option', { name: new RegExp(matching) })
      .first()
      .waitFor({ timeout: timeoutMs });
  }

  /** The issues shown under a field (`err-<name>`: "files", "anchors", "id", …). */
  fieldError(name: string): Locator {
    return this.frame.locator(`#err-${name}`);
  }

  /** Clicks a chip's remove button ("Remove test file …", "Remove anchor …"). */
  async removeChip(noun: 'test file' | 'anchor', value: string): Promise<void> {
    await this.frame.getByRole('button', { name: `Remove ${noun} ${value}`, exact: true }).click();
  }

  /** A chip of one picker's field only (a test file's path can also start an anchor's). */
  chipOf(picker: 'files' | 'anchors', text: string): Locator {
    return this.frame
      .locator('.field', { has: this.frame.locator(`#field-${picker}`) })
      .locator('.chip', { hasText: text });
  }

  chip(text: string): Locator {
    return this.frame.locator('.chip', { hasText: text });
  }

  async checkDependsOn(id: string): Promise<void> {
    await this.frame.locator('fieldset', { hasText: 'Depends on' }).getByLabel(id, { exact: true }).check();
  }

  /** The whole form, as the untrusted session finds it after "Weave: New spec". */
  newSpecForm(): Locator {
    return this.frame.getByRole('form', { name: 'New spec' });
  }
}

/** The smallest font size a label of the graph `svg` (the panel's or the large view's) is drawn at on screen. */
export function smallestLabelPx(graph: Locator): Promise<number> {
  return graph.evaluate((g) => {
    let smallest = Infinity;
    for (const text of g.querySelectorAll<SVGTextElement>('g.node text')) {
      const scale = text.getScreenCTM()?.a ?? 1;
      smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * scale);
    }
    return smallest;
  });
}

/** The ids whose node label is not drawn whole inside its box (and, with `inView`, inside the scroll area). */
export function cutLabels(scroll: Locator, inView: boolean): Promise<string[]> {
  return scroll.evaluate((area, view) => {
    const seen = area.getBoundingClientRect();
    return Array.from(area.querySelectorAll<SVGGElement>('svg.graph g.node')).flatMap((node) => {
      const text = node.querySelector('text')?.getBoundingClientRect();
      const box = node.querySelector('rect')?.getBoundingClientRect();
      if (!text || !box) return [node.dataset['specId'] ?? '?'];
      const inBox =
        text.left >= box.left - 0.5 && text.right <= box.right + 0.5 && text.width > 0 && text.height > 0;
      const inArea = !view || (text.left >= seen.left - 0.5 && text.right <= seen.right + 0.5);
      return inBox && inArea ? [] : [node.dataset['specId'] ?? '?'];
    });
  }, inView);
}
