// The real agent CLIs the client tests drive: Claude Code and Codex, pinned, installed by
// test/vscode/install-tools.sh into the tools folder (not devDependencies: their native binaries are ~800 MB,
// which every `npm ci` would download, and they are only needed by test/e2e/clients/). Each run gets an
// allowlisted environment built from nothing: a private HOME and config folder, the scripted model server's URL,
// and HTTP(S)_PROXY pointing at the refusing proxy, so nothing can leave 127.0.0.1 unnoticed.
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitIn } from './gitRepo';
import { makeMathWorkspace } from './mathWorkspace';
import { REPO_ROOT } from './paths';

export const CLAUDE_CODE_VERSION = '2.1.332';
export const CODEX_VERSION = '0.171.0';

const TOOLS = process.env.WEAVE_VSCODE_TOOLS ?? path.join(os.homedir(), '.cache/weave/vscode-tools');
const BIN = path.join(TOOLS, 'agent-clients/node_modules/.bin');

/** The installed CLI, or a failure that says how to install it (a missing client never passes). */
export function agentCli(name: 'claude' | 'codex'): string {
  const file = path.join(BIN, name);
  if (!existsSync(file)) throw new Error(`${file} is not installed: run test/vscode/install-tools.sh`);
  return file;
}

/** The environment every client run starts from: nothing of the machine's but PATH's system folders. */
export function offlineEnv(home: string, proxyUrl: string): Record<string, string> {
  return {
    // The test's own Node first: hooks run `node …/guard.js`, the MCP server `npx weave`.
    PATH: [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    HTTPS_PROXY: proxyUrl,
    HTTP_PROXY: proxyUrl,
    ALL_PROXY: proxyUrl,
    https_proxy: proxyUrl,
    http_proxy: proxyUrl,
    all_proxy: proxyUrl,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    // npx must find the project's own weave and never ask the registry.
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
}

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time of the client process, for the report (never asserted). */
  ms: number;
}

/** Runs a client to its end. The kill after `limitMs` is a safety net for a hung client, not a sync point. */
export function runClient(
  file: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  limitMs = 240_000,
): Promise<ClientRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(file, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const limit = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('error', (error) => {
      clearTimeout(limit);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.end();
  });
}

/**
 * The math workspace with Weave installed the way npm installs a local dependency (node_modules/weave and its
 * bin link), so the hooks' portable commands and `npx weave` find it. node_modules is git-ignored.
 */
export async function makeGuardedProject(): Promise<string> {
  const project = await makeMathWorkspace();
  await fs.writeFile(path.join(project, '.gitignore'), 'node_modules/\n');
  await fs.mkdir(path.join(project, 'node_modules/.bin'), { recursive: true });
  await fs.symlink(REPO_ROOT, path.join(project, 'node_modules/weave'));
  await fs.symlink('../weave/dist/cli.js', path.join(project, 'node_modules/.bin/weave'));
  gitIn(project, 'add', '.gitignore');
  gitIn(project, 'commit', '-q', '-m', 'ignore node_modules');
  return project;
}

export async function tempFolder(prefix: string): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
}
