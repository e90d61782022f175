// The UI end-to-end test's harness: code-server sessions driven by headless Debian chromium (playwright-core),
// the command palette and webview frames; waits go through test/support/polling.ts (never a fixed sleep).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import type { Browser, Frame, FrameLocator, Page } from 'playwright-core';
import { until } from '../support/polling';
import {
  freePort,
  launchChromium,
  installVsix,
  locateTools,
  makeScratch,
  packageVsix,
  prepareWorkspace,
  REPO_ROOT,
  startCodeServer,
  type CodeServerOptions,
  type RunningCodeServer,
} from './codeServer';

export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

export interface SessionOptions {
  /** An empty folder (a git repository with one commit and a package.json) instead of a copy of examples/. */
  empty?: boolean;
  /** Writes the workspace into the given folder instead (committed afterwards, like examples/). */
  workspace?: (into: string) => void;
  settings?: Record<string, unknown>;
}

/** A fresh folder as a person starts one: a package.json with a test script, committed, no Weave files. */
function emptyWorkspace(into: string): string {
  fs.mkdirSync(into, { recursive: true });
  fs.writeFileSync(
    path.join(into, 'package.json'),
    `${JSON.stringify({ name: 'fresh', version: '1.0.0', private: true, scripts: { test: 'node --test' } }, null, 2)}\n`,
  );
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: into, stdio: 'ignore' });
  };
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=Weave Tests', '-c', 'user.email=tests@weave.invalid', 'add', '-A');
  git('-c', 'user.name=Weave Tests', '-c', 'user.email=tests@weave.invalid', 'commit', '-q', '-m', 'fresh');
  return into;
}

/** The first frame of the page (webviews are nested iframes) that holds `selector`, polled until it appears. */
export async function frameWith(page: Page, selector: string, timeoutMs = 60_000): Promise<Frame> {
  return until(
    `a webview frame with ${selector}`,
    async () => {
      for (const frame of page.frames()) {
        if (
          (await frame
            .locator(selector)
            .count()
            .catch(() => 0)) > 0
        )
          return frame;
      }
      return undefined;
    },
    { timeoutMs, intervalMs: UI_POLL_MS },
  );
}

/** Saves a screenshot of `part` (a workbench part selector, or the whole page) into test-results/. */
export async function shoot(page: Page, name: string, part?: string): Promise<string> {
  const file = path.join(RESULTS_DIR, name);
  if (part) await page.locator(part).first().screenshot({ path: file });
  else await page.screenshot({ path: file });
  return file;
}

export const started = Date.now();
export const say = (...a: unknown[]): void =>
  console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);

/** How often the UI tests look again (a workbench repaint is no faster). */
export const UI_POLL_MS = 250;

/**
 * Opens the palette and runs a command; retried because commands are listed only once the host registered them, and
 * because the palette closes when something else takes the focus (an editor a finishing command opens) between
 * listing the row and the click (measured: blame's editor opened then, and the click waited 30 s on a closed palette).
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  // The exact title, not "…affected constraints": the row whose label is exactly it.
  const row = page
    .locator('.quick-input-list .monaco-list-row', { hasText: title })
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${title}$`) }) })
    .first();
  const settled = (p: Promise<unknown>): Promise<boolean> =>
    p.then(
      () => true,
      () => false,
    );
  await until(
    `"${title}" in the command palette`,
    async () => {
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input').fill(`>${title}`);
      if ((await settled(row.waitFor({ timeout: 2000 }))) && (await settled(row.click({ timeout: 5000 }))))
        return true;
      await page.keyboard.press('Escape');
      return false;
    },
    { timeoutMs: 90_000, intervalMs: UI_POLL_MS },
  );
}

export function panelFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview').frameLocator('#active-frame');
}

export function specsOnDisk(file: string): { text: string; specs: Array<Record<string, unknown>> } {
  const text = fs.readFileSync(file, 'utf8');
  const root = parse(text, [], { allowTrailingComma: true }) as { specs?: Array<Record<string, unknown>> };
  return { text, specs: root.specs ?? [] };
}

export interface Outcome {
  name: string;
  error?: string;
}

/** Runs one named scenario step and records its outcome; a failing step does not stop the ones after it. */
export type Step = (name: string, body: () => Promise<void>) => Promise<void>;

export interface Session {
  page: Page;
  workspace: string;
  cspViolations: string[];
  /** The session's scratch folder (code-server's user data, with the extension host's logs, is inside). */
  scratch: string;
  /** Closes the page and stops this session's code-server (and everything it started). */
  close(): Promise<void>;
}

/** One code-server + browser session on a fresh, committed copy of examples/; everything is torn down by `stop`. */
export class Sessions {
  private readonly tools = locateTools();
  private readonly scratch = makeScratch('weave-e2e-');
  private readonly servers: RunningCodeServer[] = [];
  private browser: Browser | undefined;
  private vsix: string | undefined;

  async open(name: string, trusted: boolean, extra: SessionOptions = {}): Promise<Session> {
    const dir = path.join(this.scratch, name);
    fs.mkdirSync(dir);
    if (!this.vsix) {
      this.vsix = path.join(this.scratch, 'weave.vsix');
      packageVsix(this.vsix);
      say(`packaged weave.vsix (${(fs.statSync(this.vsix).size / 1e6).toFixed(2)} MB)`);
    }
    const options: CodeServerOptions = {
      tools: this.tools,
      scratch: dir,
      port: await freePort(),
      trusted,
      ...(extra.settings ? { settings: extra.settings } : {}),
    };
    installVsix(options, this.vsix);
    const workspace = extra.empty
      ? emptyWorkspace(path.join(dir, 'ws'))
      : prepareWorkspace(this.source(dir, extra), path.join(dir, 'ws'));
    const server = await startCodeServer({
      ...options,
      logFile: path.join(REPO_ROOT, `out/code-server-e2e-${name}.log`),
    });
    this.servers.push(server);
    say(`${name}: code-server up at ${server.url} (${trusted ? 'trusted' : 'untrusted'} folder)`);
    this.browser ??= await launchChromium({ headless: process.env.WEAVE_E2E_HEADED !== '1' });
    const page = await this.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const cspViolations: string[] = [];
    page.on('console', (m) => {
      if (
        /Content Security Policy|Refused to/.test(m.text()) &&
        /webview|weave/i.test(m.location().url + m.text())
      ) {
        cspViolations.push(m.text());
      }
    });
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, {
      waitUntil: 'domcontentloaded',
      timeout: 120_000,
    });
    await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
    say(`${name}: workbench loaded`);
    const close = async (): Promise<void> => {
      await page.close();
      await server.stop();
    };
    return { page, workspace, cspViolations, scratch: dir, close };
  }

  /** The folder a session's workspace is copied from: examples/, or one the options write. */
  private source(dir: string, extra: SessionOptions): string {
    if (!extra.workspace) return path.join(REPO_ROOT, 'examples');
    const source = path.join(dir, 'source');
    fs.mkdirSync(source);
    extra.workspace(source);
    return source;
  }

  async stop(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    for (const server of this.servers) await server.stop();
    fs.rmSync(this.scratch, { recursive: true, force: true });
  }
}

/** The Weave output channel's log files of a session (one per extension host: a window reload starts another). */
export function weaveLogs(session: Pick<Session, 'scratch'>): string[] {
  const logs = path.join(session.scratch, 'user-data', 'logs');
  if (!fs.existsSync(logs)) return [];
  return fs
    .readdirSync(logs, { recursive: true, encoding: 'utf8' })
    .filter((f) => path.basename(f).endsWith('Weave.log'))
    .map((f) => path.join(logs, f))
    .sort((a, b) => fs.statSync(a).mtimeMs - fs.statSync(b).mtimeMs);
}

export async function openWeavePanel(page: Page): Promise<FrameLocator> {
  const tab = page.getByRole('tab', { name: /^Weave/ }).first();
  // Clicking the tab of the view already shown would collapse the sidebar.
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  const panel = panelFrame(page);
  await panel.locator('.spec-list').waitFor({ timeout: 60_000 });
  return panel;
}
