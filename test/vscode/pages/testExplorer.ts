// The Test Explorer view as the UI end-to-end test reads it: its rows' aria labels carry each spec's state.
import type { Page } from 'playwright-core';
import type { Palette } from './workbench';

export class TestExplorer {
  constructor(
    private readonly page: Page,
    private readonly palette: Palette,
  ) {}

  async focus(): Promise<void> {
    await this.palette.run('Testing: Focus on Test Explorer View');
  }

  /** Rows of the tree, e.g. "no-secret-caching, Failed". */
  labels(): Promise<string[]> {
    return this.page
      .locator('.test-explorer .monaco-list-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
  }
}
