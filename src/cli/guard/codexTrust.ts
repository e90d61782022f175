// Whether Codex will run a project's hooks. Codex (openai/codex, codex-rs/hooks/src/engine/discovery.rs) loads a
// project's `.codex/hooks.json` only when the project is trusted (`[projects."<dir>"] trust_level = "trusted"` in
// `$CODEX_HOME/config.toml`), and then runs each hook only when the user config holds a trust entry for it:
// `[hooks.state."<hooks.json path>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"`, where the hash is
// SHA-256 over the canonical JSON (keys sorted) of the hook's normalised identity: `event_name` (pre_tool_use,
// stop), the group's `matcher` (absent for events without one) and the one handler `{type, command, timeout, async}`
// (timeout defaults to 600; unset options are left out). An untrusted or modified hook is skipped silently —
// which is why `weave guard --status` checks this and `--install codex` prints the entries to add.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseToml } from '../../core/toml';

/** Codex's event labels in hook-state keys (hooks/src/lib.rs hook_event_key_label). */
const EVENT_LABELS: Record<string, string> = {
  PreToolUse: 'pre_tool_use',
  PermissionRequest: 'permission_request',
  PostToolUse: 'post_tool_use',
  PreCompact: 'pre_compact',
  PostCompact: 'post_compact',
  SessionStart: 'session_start',
  SessionEnd: 'session_end',
  UserPromptSubmit: 'user_prompt_submit',
  SubagentStart: 'subagent_start',
  SubagentStop: 'subagent_stop',
  Stop: 'stop',
};
/** Events whose matcher Codex uses (HOOK_EVENT_NAMES_WITH_MATCHERS); others hash without one. */
const EVENTS_WITH_MATCHERS = new Set([
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SessionStart',
  'SubagentStart',
  'SubagentStop',
]);

export interface CodexHook {
  /** Codex's hook-state key. */
  key: string;
  event: string;
  command: string;
  /** The hash Codex compares with the trust entry. */
  hash: string;
}

export type CodexHookTrust = 'trusted' | 'untrusted' | 'modified' | 'disabled';

export interface CodexTrust {
  configFile: string;
  projectTrusted: boolean;
  hooks: Array<CodexHook & { trust: CodexHookTrust }>;
}

export function codexHome(): string {
  return process.env.CODEX_HOME ?? path.join(os.homedir(), '.codex');
}

/** Weave's hooks in a Codex hooks.json (those whose command is `… guard … --agent codex`), as Codex keys them. */
export function codexHooks(hooksFile: string, config: unknown): CodexHook[] {
  const hooks: CodexHook[] = [];
  const events = isObject(config) && isObject(config.hooks) ? config.hooks : {};
  for (const [event, groups] of Object.entries(events)) {
    const label = EVENT_LABELS[event];
    if (!label || !Array.isArray(groups)) continue;
    groups.forEach((group: unknown, groupIndex) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((handler: unknown, handlerIndex) => {
        if (!isObject(handler) || typeof handler.command !== 'string') return;
        if (!handler.command.includes('guard') || !handler.command.endsWith('--agent codex')) return;
        const matcher =
          EVENTS_WITH_MATCHERS.has(event) && typeof group.matcher === 'string' ? group.matcher : undefined;
        hooks.push({
          key: `${hooksFile}:${label}:${groupIndex}:${handlerIndex}`,
          event,
          command: handler.command,
          hash: hookHash(label, matcher, handler),
        });
      });
    });
  }
  return hooks;
}

function hookHash(label: string, matcher: string | undefined, handler: Record<string, unknown>): string {
  const timeout = typeof handler.timeout === 'number' ? Math.max(1, handler.timeout) : 600;
  const normalised: Record<string, unknown> = {
    type: 'command',
    command: handler.command,
    timeout,
    async: handler.async === true,
    ...(typeof handler.statusMessage === 'string' ? { statusMessage: handler.statusMessage } : {}),
  };
  const identity = { event_name: label, ...(matcher !== undefined ? { matcher } : {}), hooks: [normalised] };
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(canonical(identity)))
    .digest('hex')}`;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isObject(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical(value[k])]),
    );
  return value;
}

/** What Codex's user config says about this project and these hooks. */
export async function readCodexTrust(projectDir: string, hooks: CodexHook[]): Promise<CodexTrust> {
  const configFile = path.join(codexHome(), 'config.toml');
  let config: Record<string, unknown> = {};
  try {
    config = parseToml(await fs.readFile(configFile, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`${configFile} cannot be read as TOML: ${(error as Error).message}`, { cause: error });
  }
  const projects = isObject(config.projects) ? config.projects : {};
  // A trusted folder at or above the project counts (Codex walks up to the project root).
  let projectTrusted = false;
  for (let dir = path.resolve(projectDir); ; dir = path.dirname(dir)) {
    const entry = projects[dir];
    if (isObject(entry) && entry.trust_level === 'trusted') projectTrusted = true;
    if (path.dirname(dir) === dir) break;
  }
  const state = isObject(config.hooks) && isObject(config.hooks.state) ? config.hooks.state : {};
  return {
    configFile,
    projectTrusted,
    hooks: hooks.map((hook) => {
      const entry = state[hook.key];
      const trust: CodexHookTrust = !isObject(entry)
        ? 'untrusted'
        : entry.enabled === false
          ? 'disabled'
          : entry.trusted_hash === hook.hash
            ? 'trusted'
            : typeof entry.trusted_hash === 'string'
              ? 'modified'
              : 'untrusted';
      return { ...hook, trust };
    }),
  };
}

/** The config.toml entries that make Codex run these hooks (what the user adds, or Codex's own prompt writes). */
export function codexTrustStep(projectDir: string, hooks: CodexHook[]): string {
  const lines = [`[projects.${JSON.stringify(path.resolve(projectDir))}]`, 'trust_level = "trusted"', ''];
  for (const hook of hooks)
    lines.push(`[hooks.state.${JSON.stringify(hook.key)}]`, `trusted_hash = "${hook.hash}"`, '');
  return lines.join('\n');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
