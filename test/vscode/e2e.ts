// UI end-to-end test of Weave in a real VS Code: the packaged VSIX installed into code-server (VS Code 1.139
// server + web workbench), driven like a person would through headless Debian chromium (playwright-core):
//   1. F1 → "Weave: Check constraints" → the Problems panel shows the violated spec (no-secret-caching);
//   2. the Weave activity-bar view renders every spec with a verdict badge;
//   3. the panel's form adds a spec (anchor from the symbol picker, a dependency) → it is in
//      .weave/specs.json on disk, the file's comments survived, and the panel lists it;
//   4. no CSP violation from the webview;
//   5. in a second session on an UNTRUSTED folder: "Weave: New spec" opens the (not yet shown) panel on its
//      form, and the panel says why nothing runs and offers no check.
// Screenshots of the panel and of Problems go to test-results/ (git-ignored).
// Usage: npm run build && node out/test/vscode/e2e.js   (prints "N passed, N failed" last; exit 1 on failure)
// Env: WEAVE_E2E_TIMEOUT_S (whole run, default 600), WEAVE_E2E_HEADED=1 (watch it, with a display).
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import {
  freePort,
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

const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');
const FAILING_SPEC = 'no-secret-caching';
const NEW_SPEC = {
  title: 'E2E added spec keeps cached bodies immutable',
  id: 'e2e-added-spec-keeps-cached-bodies-immutable',
  statement: 'When a cached response is returned, the client shall return a copy the caller cannot mutate.',
  command: 'node --test test/cache-hit.test.js',
  files: 'test/cache-hit.test.js',
  anchorQuery: 'LruCache.get',
  anchor: 'src/cache.js#LruCache.get',
  dependsOn: 'cache-hit',
};

const started = Date.now();
const say = (...a: unknown[]): void =>
  console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);

/** Polls `condition` until it holds or the deadline passes (no fixed sleeps as synchronisation). */
async function until(
  what: string,
  timeoutMs: number,
  condition: () => Promise<boolean> | boolean,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Opens the palette and runs a command; retried because commands are listed only once the host registered them. */
async function runCommand(page: Page, title: string): Promise<void> {
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title });
  await until(`"${title}" in the command palette`, 90_000, async () => {
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill(`>${title}`);
    if (
      await row
        .first()
        .waitFor({ timeout: 2000 })
        .then(
          () => true,
          () => false,
        )
    )
      return true;
    await page.keyboard.press('Escape');
    return false;
  });
  // The exact title, not "…affected constraints": pick the row whose label is exactly it.
  await row
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${title}$`) }) })
    .first()
    .click();
}

function panelFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview').frameLocator('#active-frame');
}

function specsOnDisk(file: string): { text: string; specs: Array<Record<string, unknown>> } {
  const text = fs.readFileSync(file, 'utf8');
  const root = parse(text, [], { allowTrailingComma: true }) as { specs?: Array<Record<string, unknown>> };
  return { text, specs: root.specs ?? [] };
}

interface Outcome {
  name: string;
  error?: string;
}

interface Session {
  page: Page;
  workspace: string;
  cspViolations: string[];
  /** Closes the page and stops this session's code-server (and everything it started). */
  close(): Promise<void>;
}

/** One code-server + browser session on a fresh, committed copy of examples/; everything is torn down by `stop`. */
class Sessions {
  private readonly tools = locateTools();
  private readonly scratch = makeScratch('weave-e2e-');
  private readonly servers: RunningCodeServer[] = [];
  private browser: Browser | undefined;
  private vsix: string | undefined;

  async open(name: string, trusted: boolean): Promise<Session> {
    const dir = path.join(this.scratch, name);
    fs.mkdirSync(dir);
    if (!this.vsix) {
      this.vsix = path.join(this.scratch, 'weave.vsix');
      packageVsix(this.vsix);
      say(`packaged weave.vsix (${(fs.statSync(this.vsix).size / 1e6).toFixed(2)} MB)`);
    }
    const options: CodeServerOptions = { tools: this.tools, scratch: dir, port: await freePort(), trusted };
    installVsix(options, this.vsix);
    const workspace = prepareWorkspace(path.join(REPO_ROOT, 'examples'), path.join(dir, 'ws'));
    const server = await startCodeServer({
      ...options,
      logFile: path.join(REPO_ROOT, `out/code-server-e2e-${name}.log`),
    });
    this.servers.push(server);
    say(`${name}: code-server up at ${server.url} (${trusted ? 'trusted' : 'untrusted'} folder)`);
    this.browser ??= await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: process.env.WEAVE_E2E_HEADED !== '1',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
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
    return { page, workspace, cspViolations, close };
  }

  async stop(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    for (const server of this.servers) await server.stop();
    fs.rmSync(this.scratch, { recursive: true, force: true });
  }
}

async function openWeavePanel(page: Page): Promise<FrameLocator> {
  const tab = page.getByRole('tab', { name: /^Weave/ }).first();
  // Clicking the tab of the view already shown would collapse the sidebar.
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  const panel = panelFrame(page);
  await panel.locator('.spec-list').waitFor({ timeout: 60_000 });
  return panel;
}

async function main(): Promise<number> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const outcomes: Outcome[] = [];
  let sessions: Sessions | undefined;
  const cleanup = async (): Promise<void> => {
    await sessions?.stop();
  };
  const timeoutS = Number(process.env.WEAVE_E2E_TIMEOUT_S ?? 600);
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
    sessions = new Sessions();
    const trusted = await sessions.open('trusted', true);
    const { page, workspace, cspViolations } = trusted;
    const specsFile = path.join(workspace, '.weave/specs.json');
    const originalComments = specsOnDisk(specsFile).text.match(/^\s*\/\/.*$/gm) ?? [];
    const expectedIds = specsOnDisk(specsFile).specs.map((s) => String(s['id']));
    const panel = panelFrame(page);
    await step('palette → "Weave: Check constraints" → Problems shows the violated spec', async () => {
      await runCommand(page, 'Weave: Check constraints');
      await page.keyboard.press('Control+Shift+M');
      const problems = page.locator('.markers-panel');
      await problems.first().waitFor({ timeout: 30_000 });
      await until(`${FAILING_SPEC} in the Problems panel`, 120_000, async () =>
        (await problems.first().innerText()).includes(FAILING_SPEC),
      );
      await page.locator('.part.panel').screenshot({ path: path.join(RESULTS_DIR, 'e2e-problems.png') });
    });

    await step('the Weave side panel lists every spec with a verdict badge', async () => {
      await openWeavePanel(page);
      await until('a badge per spec, the failing one marked fail', 60_000, async () => {
        const ids = await panel
          .locator('.spec-list > li')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-spec-id')));
        const failing = await panel
          .locator(`li[data-spec-id="${FAILING_SPEC}"] .badge`)
          .innerText()
          .catch(() => '');
        return ids.join() === expectedIds.join() && /fail|broken/.test(failing);
      });
      const badges = await panel.locator('.spec-list > li .spec-head .badge').allInnerTexts();
      if (badges.length !== expectedIds.length)
        throw new Error(`${badges.length} badges for ${expectedIds.length} specs`);
      if (!badges.some((b) => b.trim() === 'pass'))
        throw new Error(`no passing badge among ${badges.join(', ')}`);
      if ((await panel.locator('svg.graph .node').count()) !== expectedIds.length)
        throw new Error('graph is missing nodes');
      await page.locator('.part.sidebar').screenshot({ path: path.join(RESULTS_DIR, 'e2e-panel.png') });
      await panel.locator('svg.graph').scrollIntoViewIfNeeded();
      await page.locator('.part.sidebar').screenshot({ path: path.join(RESULTS_DIR, 'e2e-panel-graph.png') });
    });

    await step('the form adds a spec: written to specs.json with comments kept, then listed', async () => {
      await panel.getByRole('button', { name: 'New spec' }).click();
      await panel.getByLabel('Title').fill(NEW_SPEC.title);
      if ((await panel.getByLabel('Id', { exact: true }).inputValue()) !== NEW_SPEC.id) {
        throw new Error('the id was not derived from the title');
      }
      await panel.getByLabel('Kind').selectOption('reliability');
      await panel.getByLabel('Statement').fill(NEW_SPEC.statement);
      await panel.getByLabel('Test command').fill(NEW_SPEC.command);
      await panel.getByLabel('Test files').fill(NEW_SPEC.files);
      const anchors = panel.getByRole('combobox', { name: 'Anchors' });
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
      await page.locator('.part.sidebar').screenshot({ path: path.join(RESULTS_DIR, 'e2e-panel-form.png') });
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
      if (JSON.stringify(added) !== JSON.stringify(expected)) {
        throw new Error(`written spec differs: ${JSON.stringify(added)}`);
      }
      if (specs.length !== expectedIds.length + 1)
        throw new Error(`${specs.length} specs on disk after adding one`);
      if (originalComments.length === 0) throw new Error('the demo specs.json has no comment to check');
      const lost = originalComments.filter((c) => !text.includes(c.trim()));
      if (lost.length > 0) throw new Error(`comments lost: ${lost.join(' | ')}`);
      await panel.locator(`.spec-list > li[data-spec-id="${NEW_SPEC.id}"]`).waitFor({ timeout: 30_000 });
      await page.locator('.part.sidebar').screenshot({ path: path.join(RESULTS_DIR, 'e2e-panel-added.png') });
    });

    await step('the webview ran under its CSP without violations', async () => {
      if (cspViolations.length > 0) throw new Error(cspViolations.slice(0, 3).join(' | '));
    });
    await page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-window.png') });
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
        if (!(await restricted.getByRole('button', { name, exact: true }).isDisabled())) {
          throw new Error(`"${name}" is enabled in an untrusted folder`);
        }
      }
      if (!(await restricted.getByRole('button', { name: 'New spec' }).isEnabled())) {
        throw new Error('editing specs must stay possible in an untrusted folder');
      }
      const badges = await restricted.locator('.spec-list > li .badge').allInnerTexts();
      if (badges.some((b) => b.trim() !== 'unchecked'))
        throw new Error(`verdicts in an untrusted folder: ${badges}`);
      await untrusted.page
        .locator('.part.sidebar')
        .screenshot({ path: path.join(RESULTS_DIR, 'e2e-panel-untrusted.png') });
    });
  } catch (e) {
    outcomes.push({ name: 'set-up', error: e instanceof Error ? e.message : String(e) });
    say(`FAIL set-up: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    clearTimeout(watchdog);
    await cleanup();
  }
  const failed = outcomes.filter((o) => o.error !== undefined).length;
  console.log(`screenshots: ${path.relative(REPO_ROOT, RESULTS_DIR)}/e2e-*.png`);
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
