// Page objects for the parts of the VS Code workbench the UI end-to-end test uses, so its steps read as what a
// person does: run a command from the palette, look at Problems, the status bar, the notifications, the editors.
import type { Frame, Locator, Page } from 'playwright-core';
import { until } from '../../support/polling';
import { frameWith, runCommand, shoot, UI_POLL_MS } from '../e2eHarness';
import { SidePanel } from './sidePanel';
import { TestExplorer } from './testExplorer';

/** Waits until `condition` holds on the page, looking every UI_POLL_MS. */
export function waitUntil(
  what: string,
  timeoutMs: number,
  condition: () => Promise<boolean> | boolean,
): Promise<true> {
  return until(what, condition, { timeoutMs, intervalMs: UI_POLL_MS });
}

export class Palette {
  constructor(private readonly page: Page) {}

  /** F1, the command's title, Enter (retried until the extension host has registered it). */
  run(title: string): Promise<void> {
    return runCommand(this.page, title);
  }

  /** Ctrl+P and the first file whose row shows `rowText`. */
  async openFile(query: string, rowText: string): Promise<void> {
    await this.page.keyboard.press('Control+P');
    await this.page.locator('.quick-input-widget input').fill(query);
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: rowText }).first().click();
  }

  /** Answers a quick pick a command opened by typing `text` and clicking the first row that shows it. */
  async pick(text: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 10_000 });
    await input.fill(text);
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().click();
  }
}

export class ProblemsPanel {
  constructor(private readonly page: Page) {}

  /**
   * Shows the Problems panel (Ctrl+Shift+M when it is not showing: the key toggles, and a panel an earlier step
   * left open and focused would be closed by it).
   */
  async open(): Promise<void> {
    const panel = this.page.locator('.markers-panel').first();
    if (await panel.isVisible()) return;
    await this.page.keyboard.press('Control+Shift+M');
    await panel.waitFor({ state: 'visible', timeout: 30_000 });
  }

  text(): Promise<string> {
    return this.page.locator('.markers-panel').first().innerText();
  }

  /** The accessible labels of the Problems rows (a file's row, then one row per problem in it). */
  rowLabels(): Promise<string[]> {
    return this.page
      .locator('.markers-panel .monaco-list-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? r.textContent ?? ''));
  }

  async waitForText(what: string, pattern: RegExp | string, timeoutMs: number): Promise<void> {
    await waitUntil(what, timeoutMs, async () => {
      const text = await this.text();
      return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
    });
  }
}

export class StatusBar {
  constructor(private readonly page: Page) {}

  /** The Weave entry's text ("Weave 7/8 · 1 broken"). */
  async weaveText(): Promise<string> {
    return (
      await this.page
        .locator('.statusbar-item', { hasText: /Weave \d+\/\d+/ })
        .first()
        .innerText()
    ).trim();
  }

  async waitForLanguageMode(mode: string, timeoutMs: number): Promise<void> {
    await waitUntil(
      'the language mode',
      timeoutMs,
      async () => (await this.page.locator('.statusbar-item', { hasText: mode }).count()) > 0,
    );
  }
}

export class Notifications {
  constructor(private readonly page: Page) {}

  /** The first toast whose text matches, once it shows. */
  async waitForToast(pattern: RegExp, timeoutMs: number): Promise<string> {
    const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: pattern });
    await toast.first().waitFor({ timeout: timeoutMs });
    return toast.first().innerText();
  }

  /** Opens the notification center and returns the text of each Weave notification in it. */
  async weaveNotificationsInCenter(palette: Palette): Promise<string[]> {
    await palette.run('Notifications: Show Notifications');
    const rows = this.page.locator('.notifications-center .monaco-list-row', { hasText: 'Weave' });
    await rows.first().waitFor({ timeout: 10_000 });
    return rows.allInnerTexts();
  }
}

export class Editors {
  constructor(
    private readonly page: Page,
    private readonly palette: Palette,
  ) {}

  /** The text of the editor area (tab labels, breadcrumbs, diff headers). */
  text(): Promise<string> {
    return this.page.locator('.part.editor').innerText();
  }

  tab(label: string): Locator {
    return this.page.locator('.editor-group-container .tab', { hasText: label });
  }

  async waitForTab(label: string, timeoutMs: number): Promise<void> {
    await waitUntil(`${label} open`, timeoutMs, async () => (await this.tab(label).count()) > 0);
  }

  /** Keys typed into a webview stay there: editors are closed through the palette. */
  async closeAll(): Promise<void> {
    await this.palette.run('View: Close All Editors');
  }

  async waitForNoTab(label: string, timeoutMs: number): Promise<void> {
    await waitUntil(
      `the ${label} tab to close`,
      timeoutMs,
      async () => (await this.page.locator('.tabs-container .tab', { hasText: label }).count()) === 0,
    );
  }

  /** The webview tab (its innermost frame) that shows `selector`. */
  webview(selector: string, timeoutMs?: number): Promise<Frame> {
    return frameWith(this.page, selector, timeoutMs);
  }
}

/** The whole window: every part a step talks to, and screenshots of it. */
export class Workbench {
  readonly palette: Palette;
  readonly problems: ProblemsPanel;
  readonly statusBar: StatusBar;
  readonly notifications: Notifications;
  readonly editors: Editors;
  readonly testExplorer: TestExplorer;
  readonly panel: SidePanel;

  constructor(readonly page: Page) {
    this.palette = new Palette(page);
    this.problems = new ProblemsPanel(page);
    this.statusBar = new StatusBar(page);
    this.notifications = new Notifications(page);
    this.editors = new Editors(page, this.palette);
    this.testExplorer = new TestExplorer(page, this.palette);
    this.panel = new SidePanel(page);
  }

  /** Saves test-results/<name>, of one part ('sidebar', 'panel', 'editor') or of the whole window. */
  async shoot(name: string, part?: 'sidebar' | 'panel' | 'editor'): Promise<void> {
    await shoot(this.page, name, part ? `.part.${part}` : undefined);
  }

  async pressEscape(): Promise<void> {
    await this.page.keyboard.press('Escape');
  }
}
