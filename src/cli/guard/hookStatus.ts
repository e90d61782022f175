// `weave guard --status`: are the hooks installed, will the agent run them, and does the installed command answer?
// An installed hook an agent skips protects nothing and says nothing (Codex skips untrusted project hooks
// silently), so each agent's own condition is checked — Claude Code: the project settings file it reads, no
// `disableAllHooks`, a matcher that covers the tools; Codex: the project and every hook trusted in
// `$CODEX_HOME/config.toml` (codexTrust.ts); Cursor: `hooks.json` version 1 — and a probe event (a write of
// `.weave/specs.json`, which the guard must block) goes through the installed command exactly as the agent would
// send it. Nothing the probe names is touched: a hook only answers.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codexHooks, codexTrustStep, readCodexTrust } from './codexTrust';
import { GIT_HOOK_MARKER, runsRegistryWeave, temporaryPlace } from './installHooks';
import type { GuardAgent } from './hookEvents';

export interface AgentStatus {
  agent: GuardAgent;
  installed: boolean;
  /** Every condition met: installed, the agent will run it, the probe was blocked. */
  ok: boolean;
  lines: string[];
}

const PROBE_TIMEOUT_MS = 30_000;

export async function guardStatus(projectDir: string, agents: readonly GuardAgent[]): Promise<AgentStatus[]> {
  const statuses: AgentStatus[] = [];
  for (const agent of agents) {
    if (agent === 'claude-code') statuses.push(await claudeStatus(projectDir));
    else if (agent === 'codex') statuses.push(await codexStatus(projectDir));
    else statuses.push(await cursorStatus(projectDir));
  }
  return statuses;
}

/** What `--install codex` adds to its summary: the trust step, or that it is already done. */
export async function codexTrustNotice(projectDir: string): Promise<string> {
  const file = path.join(projectDir, '.codex', 'hooks.json');
  const hooks = codexHooks(file, await readJson(file));
  const trust = await readCodexTrust(projectDir, hooks);
  if (trust.projectTrusted && trust.hooks.every((h) => h.trust === 'trusted'))
    return `Codex trusts this project and these hooks (${trust.configFile}).\n`;
  return (
    `Codex runs project hooks only when the project and each hook are trusted; until then it skips them ` +
    `without a word. Trust them in Codex (it asks when it starts in this folder) or add to ${trust.configFile}:\n\n` +
    `${codexTrustStep(projectDir, hooks)}\n` +
    `Then check with: weave guard --status --agent codex\n`
  );
}

async function claudeStatus(projectDir: string): Promise<AgentStatus> {
  const file = path.join(projectDir, '.claude', 'settings.json');
  const config = await readJson(file);
  const status: AgentStatus = { agent: 'claude-code', installed: false, ok: false, lines: [] };
  const pre = groupedHook(config, 'PreToolUse', 'claude-code');
  const stop = groupedHook(config, 'Stop', 'claude-code');
  if (!pre || !stop) {
    status.lines.push(
      `not installed: ${file} has no Weave ${pre ? 'Stop' : 'PreToolUse'} hook (weave guard --install claude-code)`,
    );
    return status;
  }
  status.installed = true;
  status.lines.push(`installed in ${file}, which Claude Code reads for this project: ${pre.command}`);
  const problems: string[] = [];
  const claudeHome = process.env.CLAUDE_CONFIG_DIR ?? path.join(os.homedir(), '.claude');
  for (const settings of [
    file,
    path.join(projectDir, '.claude', 'settings.local.json'),
    path.join(claudeHome, 'settings.json'),
  ]) {
    const value = await readJson(settings);
    if (isObject(value) && value.disableAllHooks === true)
      problems.push(`${settings} sets disableAllHooks: Claude Code runs no hook`);
  }
  const matcher = safeRegExp(pre.matcher ?? '');
  for (const tool of ['Bash', 'Edit', 'Write', 'mcp__filesystem__move_file'])
    if (!matcher?.test(tool))
      problems.push(`the PreToolUse matcher ${JSON.stringify(pre.matcher)} misses ${tool}`);
  const probe = await runProbe(
    pre.command,
    projectDir,
    { CLAUDE_PROJECT_DIR: projectDir },
    probeEvent(projectDir, 'Write'),
  );
  return finish(status, problems, probe.code === 2 && /Weave guard blocked this/.test(probe.stderr), probe);
}

async function codexStatus(projectDir: string): Promise<AgentStatus> {
  const file = path.join(projectDir, '.codex', 'hooks.json');
  const status: AgentStatus = { agent: 'codex', installed: false, ok: false, lines: [] };
  const config = await readJson(file);
  const pre = groupedHook(config, 'PreToolUse', 'codex');
  if (!pre || !groupedHook(config, 'Stop', 'codex')) {
    status.lines.push(
      `not installed: ${file} has no Weave PreToolUse and Stop hooks (weave guard --install codex)`,
    );
    return status;
  }
  status.installed = true;
  status.lines.push(`installed in ${file}: ${pre.command}`);
  const hooks = codexHooks(file, config);
  const trust = await readCodexTrust(projectDir, hooks);
  const problems: string[] = [];
  if (!trust.projectTrusted)
    problems.push(`the project is not trusted in ${trust.configFile}: Codex loads none of its hooks`);
  for (const hook of trust.hooks)
    if (hook.trust !== 'trusted')
      problems.push(
        `the ${hook.event} hook is ${hook.trust} in ${trust.configFile}: Codex skips it without a word`,
      );
  if (problems.length > 0)
    problems.push(
      `trust step — add to ${trust.configFile} (or approve the hooks in Codex):\n${indent(codexTrustStep(projectDir, hooks))}`,
    );
  else status.lines.push(`Codex trusts the project and its ${hooks.length} hook(s) (${trust.configFile})`);
  const event = {
    hook_event_name: 'PreToolUse',
    cwd: projectDir,
    tool_name: 'apply_patch',
    tool_input: { command: '*** Begin Patch\n*** Update File: .weave/specs.json\n@@\n-{\n+{\n*** End Patch' },
  };
  const probe = await runProbe(pre.command, projectDir, {}, JSON.stringify(event));
  return finish(status, problems, probe.code === 2 && /Weave guard blocked this/.test(probe.stderr), probe);
}

async function cursorStatus(projectDir: string): Promise<AgentStatus> {
  const file = path.join(projectDir, '.cursor', 'hooks.json');
  const status: AgentStatus = { agent: 'cursor', installed: false, ok: false, lines: [] };
  const config = await readJson(file);
  const hooks = isObject(config) && isObject(config.hooks) ? config.hooks : {};
  const entry = (event: string): { command: string } | undefined =>
    (Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []).find(
      (h): h is { command: string } => isObject(h) && isOurs(h.command, 'cursor'),
    );
  const shell = entry('beforeShellExecution');
  if (!shell || !entry('preToolUse') || !entry('stop')) {
    status.lines.push(
      `not installed: ${file} lacks Weave's beforeShellExecution, preToolUse and stop hooks (weave guard --install cursor)`,
    );
    return status;
  }
  status.installed = true;
  status.lines.push(`installed in ${file}: ${shell.command}`);
  const problems: string[] = [];
  if (!isObject(config) || config.version !== 1)
    problems.push(
      `${file} has version ${JSON.stringify(isObject(config) ? config.version : undefined)}; Cursor reads version 1`,
    );
  const event = {
    hook_event_name: 'beforeShellExecution',
    command: 'rm .weave/specs.json',
    cwd: projectDir,
    workspace_roots: [projectDir],
  };
  const probe = await runProbe(shell.command, projectDir, {}, JSON.stringify(event));
  return finish(status, problems, probe.code === 0 && cursorDenied(probe.stdout), probe);
}

function cursorDenied(stdout: string): boolean {
  try {
    return (JSON.parse(stdout) as { permission?: string }).permission === 'deny';
  } catch {
    return false;
  }
}

interface Probe {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Why the installed command was not run (the problem --install would have refused it for). */
  refused?: string;
}

function finish(status: AgentStatus, problems: string[], blocked: boolean, probe: Probe): AgentStatus {
  if (probe.refused !== undefined) problems.push(probe.refused);
  else if (blocked)
    status.lines.push('probe: the installed command blocked a write of .weave/specs.json, as it should');
  else
    problems.push(
      probe.timedOut
        ? `probe: the installed command did not answer within ${PROBE_TIMEOUT_MS / 1000} s`
        : `probe: the installed command did not block a write of .weave/specs.json (exit ${probe.code}): ${(probe.stderr || probe.stdout).trim().slice(0, 400)}`,
    );
  status.lines.push(...problems.map((p) => `PROBLEM: ${p}`));
  status.ok = problems.length === 0;
  return status;
}

function probeEvent(projectDir: string, tool: string): string {
  return JSON.stringify({
    hook_event_name: 'PreToolUse',
    cwd: projectDir,
    tool_name: tool,
    tool_input: { file_path: path.join(projectDir, '.weave', 'specs.json'), content: '' },
  });
}

/**
 * The problems `--install` refuses, found in an installed command without running it: a command that asks the
 * npm registry for `weave` (never run here: --status makes no network request), or a Weave in a temporary place.
 */
export function installedCommandProblem(command: string): string | undefined {
  if (runsRegistryWeave(command))
    return (
      `the hook command (${command}) runs \`npx weave\`, which the npm registry resolves to an unrelated package ` +
      'named weave (offline it fails and the hook lets every call through); install the hooks again with ' +
      '`weave guard --install` from the Weave you use, so they name it (the command was not run)'
    );
  for (const match of command.matchAll(/(?:^|\s)'?(\/[^\s']+)\/(?:guard|cli)\.js/g)) {
    const temporary = temporaryPlace(match[1]!);
    if (temporary !== undefined)
      return `the hook command runs a Weave in ${temporary} (${match[1]}), which can vanish; install Weave in the project and run --install again`;
  }
  return undefined;
}

/** Runs a hook command as the agents do (through a shell, the event on stdin); its whole process group ends. */
function runProbe(command: string, cwd: string, env: Record<string, string>, stdin: string): Promise<Probe> {
  const refused = installedCommandProblem(command);
  if (refused !== undefined)
    return Promise.resolve({ code: null, stdout: '', stderr: '', timedOut: false, refused });
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd, env: { ...process.env, ...env }, detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, PROBE_TIMEOUT_MS);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: error.message, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

/** Weave's hook in a Claude Code / Codex event list: its group's matcher and its command. */
function groupedHook(
  config: unknown,
  event: string,
  agent: string,
): { matcher?: string; command: string } | undefined {
  const groups = isObject(config) && isObject(config.hooks) ? config.hooks[event] : undefined;
  if (!Array.isArray(groups)) return undefined;
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks)) continue;
    for (const hook of group.hooks)
      if (isObject(hook) && isOurs(hook.command, agent))
        return {
          ...(typeof group.matcher === 'string' ? { matcher: group.matcher } : {}),
          command: hook.command as string,
        };
  }
  return undefined;
}

function isOurs(command: unknown, agent: string): boolean {
  return typeof command === 'string' && command.includes('guard') && command.endsWith(`--agent ${agent}`);
}

function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(`^(?:${source})$`);
  } catch {
    return undefined;
  }
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface GitHooksStatus {
  /** At least one of Weave's git hooks is there. */
  installed: boolean;
  /** Both are there and neither names a Weave `--install` would refuse. */
  ok: boolean;
  lines: string[];
}

/** The git hooks `--install git` writes (pre-commit and pre-push): present, Weave's, runnable? */
export async function gitHooksStatus(hooksDir: string | undefined): Promise<GitHooksStatus> {
  if (hooksDir === undefined) return { installed: false, ok: false, lines: ['not a git repository'] };
  const lines: string[] = [];
  let installed = false;
  let ok = true;
  for (const [hook, does] of [
    ['pre-commit', 'runs weave check --affected: refuses a commit that breaks or tampers with a spec'],
    [
      'pre-push',
      'runs weave guard --pre-push: refuses a push whose commits change protected files in a session',
    ],
  ] as const) {
    const file = path.join(hooksDir, hook);
    const text = await fs.readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined || !text.includes(GIT_HOOK_MARKER(hook))) {
      ok = false;
      lines.push(
        text === undefined
          ? `${hook}: not installed (weave guard --install git)`
          : `${hook}: ${file} is not Weave's (weave guard --install git keeps it and runs it first)`,
      );
      continue;
    }
    installed = true;
    const exec = /^.*\bexec (.+)$/m.exec(text)?.[1] ?? '';
    const problem = installedCommandProblem(exec);
    if (problem !== undefined) {
      ok = false;
      lines.push(`${hook}: ${problem}`);
    } else lines.push(`${hook}: installed, ${does}`);
  }
  return { installed, ok, lines };
}
