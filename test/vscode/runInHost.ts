// Runs the mocha suites of test/integration INSIDE the real extension host of code-server, driven by headless
// Debian chromium (playwright-core). One code-server session per suite:
//   trusted   — test/fixtures/vscode-ws, workspace trust disabled: checks, diagnostics, Test Explorer;
//   untrusted — the same fixture with workspace trust ON and the folder not trusted: nothing may run;
//   multiroot — a .code-workspace with a folder without specs first and the fixture second, trusted;
//   restored  — the fixture after two `weave check` runs of the CLI (clean, then with a breaking edit), trusted:
//               the window opens on stored runs, as after a reload or reopening the folder;
//   bench     — examples/, trusted: activation and command-to-diagnostics timings (npm run bench:vscode).
// Then the UI end-to-end test (out/test/vscode/e2e.js) when present. Prints "N passed, N failed" last.
// Usage: node out/test/vscode/runInHost.js [trusted] [untrusted] [multiroot] [restored] [bench] [--no-e2e]
//          [--file <part of a test file name>]… [--grep <mocha grep>] [--reverse]
// --file runs only the matching files of the suites (each file sets up what it needs, so any one runs alone),
// --grep only the matching tests, --reverse the files in reverse order; any of them skips the UI e2e.
// Env: WEAVE_VSCODE_TIMEOUT_S (per session, default 240), WEAVE_BENCH_OUT (bench JSON, default out/bench-vscode.json)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import {
  freePort,
  launchChromium,
  locateTools,
  makeScratch,
  prepareWorkspace,
  REPO_ROOT,
  startCodeServer,
  type RunningCodeServer,
  type VscodeTools,
} from './codeServer';

interface SuiteSpec {
  name: string;
  /** One folder, or the folders of a multi-root workspace (name → source), in this order. */
  workspace: string | ReadonlyArray<{ name: string; source: string }>;
  trusted: boolean;
  /** Prepares the copied folder before code-server opens it. */
  prepare?: (folder: string) => void;
}

const SUITES: Record<string, SuiteSpec> = {
  trusted: { name: 'trusted', workspace: 'test/fixtures/vscode-ws', trusted: true },
  untrusted: { name: 'untrusted', workspace: 'test/fixtures/vscode-ws', trusted: false },
  multiroot: {
    name: 'multiroot',
    workspace: [
      { name: 'notes', source: 'test/fixtures/vscode-multiroot/notes' },
      { name: 'fixture', source: 'test/fixtures/vscode-ws' },
    ],
    trusted: true,
  },
  restored: { name: 'restored', workspace: 'test/fixtures/vscode-ws', trusted: true, prepare: recordTwoRuns },
  bench: { name: 'bench', workspace: 'examples', trusted: true },
};

/**
 * Two runs recorded by the real CLI: a clean one (the baseline), then one with add() broken, which stays in the
 * working tree (add-works broken, clamp-bounds failing as the fixture has it, counter-increments blocked).
 */
function recordTwoRuns(folder: string): void {
  const check = (): void => {
    const r = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, 'dist/cli.js'), 'check', '--workspace', folder],
      {
        encoding: 'utf8',
      },
    );
    // 1 = some spec failed (expected here); anything else is a harness problem.
    if (r.status !== 0 && r.status !== 1) throw new Error(`weave check exited ${r.status}: ${r.stderr}`);
  };
  check();
  const math = path.join(folder, 'src', 'math.js');
  fs.writeFileSync(math, fs.readFileSync(math, 'utf8').replace('return a + b;', 'return a - b;'));
  check();
}

/** Which files and tests of a suite run (from --file, --grep, --reverse). */
interface Selection {
  files: string[];
  grep: string | undefined;
  reverse: boolean;
}

/** The workspace of a suite in the scratch folder, as the URL query that opens it. */
function openWorkspace(suite: SuiteSpec, scratch: string): string {
  if (typeof suite.workspace === 'string') {
    const folder = prepareWorkspace(path.join(REPO_ROOT, suite.workspace), path.join(scratch, 'ws'));
    suite.prepare?.(folder);
    return `folder=${encodeURIComponent(folder)}`;
  }
  const folders = suite.workspace.map(({ name, source }) => ({
    path: prepareWorkspace(path.join(REPO_ROOT, source), path.join(scratch, 'ws', name)),
  }));
  const file = path.join(scratch, 'ws', `${suite.name}.code-workspace`);
  fs.writeFileSync(file, `${JSON.stringify({ folders }, null, 2)}\n`);
  return `workspace=${encodeURIComponent(file)}`;
}

interface SuiteOutcome {
  passed: number;
  failed: number;
}

/** Cleanups of the session in progress, run on Ctrl-C / SIGTERM too so no code-server is left behind. */
const activeCleanups = new Set<() => Promise<void>>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.allSettled([...activeCleanups].map((c) => c())).then(() => process.exit(130));
  });
}

const started = Date.now();
const say = (...a: unknown[]): void =>
  console.log(`[in-host ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);

async function runSuite(tools: VscodeTools, suite: SuiteSpec, selection: Selection): Promise<SuiteOutcome> {
  const scratch = makeScratch(`weave-${suite.name}-`);
  const resultsFile = path.join(scratch, 'results.json');
  const workspace = openWorkspace(suite, scratch);
  const port = await freePort();
  let server: RunningCodeServer | undefined;
  let browser: Browser | undefined;
  const timeoutS = Number(process.env.WEAVE_VSCODE_TIMEOUT_S ?? 420);
  const cleanup = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  };
  activeCleanups.add(cleanup);
  try {
    server = await startCodeServer({
      tools,
      scratch,
      port,
      trusted: suite.trusted,
      smokeTestDriver: true,
      logFile: path.join(REPO_ROOT, `out/code-server-${suite.name}.log`),
    });
    say(`${suite.name}: code-server on ${server.url}, workspace ${workspace}`);
    browser = await launchChromium({ headless: true });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => {
      if (process.env.WEAVE_SHOW_BROWSER_CONSOLE) console.error('[page error]', e.message);
    });
    const exitCode = new Promise<number>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
    });
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
      const parts = Array.isArray(args) ? args : [args];
      if (type === 'error') console.error(...parts);
      else console.log(...parts);
    });
    const remote = (p: string): string => `vscode-remote://127.0.0.1:${port}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(REPO_ROOT)],
      ['extensionTestsPath', remote(path.join(REPO_ROOT, 'out/test/integration/index.js'))],
      [
        'extensionEnvironment',
        JSON.stringify({
          WEAVE_SUITE: suite.name,
          WEAVE_TEST_RESULTS: resultsFile,
          WEAVE_BENCH_OUT: path.resolve(
            process.env.WEAVE_BENCH_OUT ?? path.join(REPO_ROOT, 'out/bench-vscode.json'),
          ),
          WEAVE_REPO_ROOT: REPO_ROOT,
          WEAVE_TEST_FILES: selection.files.join('\n'),
          WEAVE_TEST_GREP: selection.grep ?? '',
          WEAVE_TEST_REVERSE: selection.reverse ? '1' : '',
        }),
      ],
      ['skipWelcome', 'true'],
    ];
    // The workbench loads in seconds on a quiet machine; on a loaded one (shared cores) it can take minutes.
    await page.goto(`${server.url}/?${workspace}&payload=${encodeURIComponent(JSON.stringify(payload))}`, {
      timeout: timeoutS * 1000,
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<number>((resolve) => {
      timer = setTimeout(() => resolve(124), timeoutS * 1000);
    });
    const code = await Promise.race([exitCode, timedOut]);
    clearTimeout(timer);
    if (code === 124) say(`${suite.name}: TIMEOUT after ${timeoutS} s`);
    else say(`${suite.name}: extension host exited with ${code}`);
    if (!fs.existsSync(resultsFile)) return { passed: 0, failed: 1 };
    const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as SuiteOutcome;
    // A non-zero exit without a failed test (a crash after the suite) still counts as a failure.
    return code === 0 || results.failed > 0
      ? results
      : { passed: results.passed, failed: results.failed + 1 };
  } catch (e) {
    say(`${suite.name}: harness error: ${e instanceof Error ? e.message : String(e)}`);
    return { passed: 0, failed: 1 };
  } finally {
    activeCleanups.delete(cleanup);
    await cleanup();
  }
}

/** The UI end-to-end test (PANEL helper's test/vscode/e2e.*), when built; its last line is "N passed, N failed". */
async function runE2e(): Promise<SuiteOutcome | undefined> {
  const e2e = path.join(REPO_ROOT, 'out/test/vscode/e2e.js');
  if (!fs.existsSync(e2e)) return undefined;
  say('UI end-to-end: out/test/vscode/e2e.js');
  const child = spawn(process.execPath, [e2e], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    process.stdout.write(d);
  });
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const counts = /(\d+) passed, (\d+) failed\s*$/.exec(stdout.trim());
  if (!counts) return { passed: 0, failed: 1 };
  const outcome = { passed: Number(counts[1]), failed: Number(counts[2]) };
  return status === 0 || outcome.failed > 0 ? outcome : { ...outcome, failed: outcome.failed + 1 };
}

/** `--name value` options (repeatable) and the rest of the arguments. */
function parseArgs(argv: string[]): { names: string[]; flags: Set<string>; values: Map<string, string[]> } {
  const names: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--file' || arg === '--grep') {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      values.set(arg, [...(values.get(arg) ?? []), value]);
    } else if (arg.startsWith('--')) flags.add(arg);
    else names.push(arg);
  }
  return { names, flags, values };
}

async function main(): Promise<void> {
  const { names, flags, values } = parseArgs(process.argv.slice(2));
  const selection: Selection = {
    files: values.get('--file') ?? [],
    grep: values.get('--grep')?.at(-1),
    reverse: flags.has('--reverse'),
  };
  const unknown = names.filter((n) => !(n in SUITES));
  if (unknown.length > 0) {
    console.error(`unknown suite(s): ${unknown.join(', ')} (known: ${Object.keys(SUITES).join(', ')})`);
    process.exit(2);
  }
  const selected = (names.length > 0 ? names : ['trusted', 'untrusted', 'multiroot', 'restored']).map(
    (n) => SUITES[n] as SuiteSpec,
  );
  // With --file, a suite none of whose test files match is left out (index.ts refuses an empty selection).
  const withFiles = selected.filter((suite) => {
    if (selection.files.length === 0) return true;
    const dir = path.join(REPO_ROOT, 'out/test/integration', suite.name);
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.test.js')) : [];
    return files.some((f) => selection.files.some((w) => f.includes(w)));
  });
  if (withFiles.length === 0) {
    console.error(
      `no test file of ${selected.map((s) => s.name).join(', ')} matches ${selection.files.join(', ')}`,
    );
    process.exit(2);
  }
  const tools = locateTools();
  const total: SuiteOutcome = { passed: 0, failed: 0 };
  for (const suite of withFiles) {
    const outcome = await runSuite(tools, suite, selection);
    say(`${suite.name}: ${outcome.passed} passed, ${outcome.failed} failed`);
    total.passed += outcome.passed;
    total.failed += outcome.failed;
  }
  const narrowed = selection.files.length > 0 || selection.grep !== undefined || selection.reverse;
  if (!flags.has('--no-e2e') && names.length === 0 && !narrowed) {
    const e2e = await runE2e();
    if (e2e) {
      total.passed += e2e.passed;
      total.failed += e2e.failed;
    }
  }
  say(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`${total.passed} passed, ${total.failed} failed`);
  process.exitCode = total.failed === 0 ? 0 : 1;
}

main().catch((e: unknown) => {
  console.error(e);
  console.log('0 passed, 1 failed');
  process.exitCode = 1;
});
