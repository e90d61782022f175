// The hook protocols `weave guard` speaks, each as its agent documents it:
// - Claude Code (code.claude.com/docs/en/hooks, "Hooks reference"): JSON on stdin with `hook_event_name`, `cwd`,
//   `tool_name`, `tool_input` (`file_path` for Edit/Write/MultiEdit, `notebook_path` for NotebookEdit, `command`
//   for Bash). PreToolUse: exit 2 blocks the call and stderr is shown to Claude as the reason; any other non-zero
//   exit is a non-blocking error (shown to the user, the call goes ahead). Stop: stdout
//   `{"decision":"block","reason":…}` with exit 0 keeps Claude working; `stop_hook_active` is true when Claude is
//   already continuing because of a Stop hook (we then let it stop, to avoid a loop).
// - Codex (developers.openai.com/codex/hooks): the same wire format and exit-code contract as Claude Code for
//   PreToolUse and Stop; file edits arrive as `apply_patch` with the patch envelope (`*** Update File: PATH`,
//   `*** Add File:`, `*** Delete File:`, `*** Move to:`) in `tool_input.command`.
// - Cursor (cursor.com/docs/agent/hooks, hooks.json `version: 1`): `beforeShellExecution` {command, cwd,
//   workspace_roots} and `preToolUse` {tool_name, tool_input} answer on stdout `{"permission":"deny",
//   "user_message", "agent_message"}`; `stop` {status, loop_count} may answer `{"followup_message": …}`, which
//   Cursor sends as the next user message (it caps the loop itself; we stop asking after MAX_FOLLOW_UPS).
// - MCP tools (Claude Code names them `mcp__SERVER__TOOL`): their path-like arguments (`path`, `paths`, `source`,
//   `destination`, `file_path` …) are checked like an edit's, unless the tool only reads (read_*, list_*, get_* …).
// Malformed stdin is reported on stderr with exit code 1: every one of these agents treats that as a
// non-blocking hook failure (the action goes ahead, the user sees the message), never as a silent block.
import { protectedHit, type ProtectedHit, type ProtectedSet } from './protectedPaths';
import { argvAsShell, patchEnvelopeTargets } from './applyPatch';
import { diffTargets } from './commands/patches';

export const GUARD_AGENTS = ['claude-code', 'codex', 'cursor'] as const;
export type GuardAgent = (typeof GUARD_AGENTS)[number];

/** Cursor stop hooks: follow-ups Weave asks for in one agent loop before it lets the agent stop. */
export const MAX_FOLLOW_UPS = 3;

export class GuardInputError extends Error {
  override name = 'GuardInputError';
}

/** The fields Weave reads; any others an agent sends are kept as they are. */
export interface HookPayload {
  hook_event_name: string;
  cwd?: string;
  tool_name?: string;
  tool_input?: unknown;
  command?: string;
  workspace_roots?: string[];
  stop_hook_active?: boolean;
  loop_count?: number;
  [key: string]: unknown;
}

type FieldCheck = [expected: string, holds: (value: unknown) => boolean];
const isString = (value: unknown): boolean => typeof value === 'string';
/** Each field's expected type, checked by hand: a schema library costs every hook process its load time. */
const PAYLOAD_FIELDS: Record<string, FieldCheck> = {
  cwd: ['a string', isString],
  tool_name: ['a string', isString],
  command: ['a string', isString],
  workspace_roots: ['an array of strings', (v) => Array.isArray(v) && v.every(isString)],
  stop_hook_active: ['a boolean', (v) => typeof v === 'boolean'],
  loop_count: ['a number', (v) => typeof v === 'number'],
};

export function parsePayload(text: string): HookPayload {
  if (text.trim() === '') throw new GuardInputError('no hook payload on stdin (expected one JSON object)');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GuardInputError(`stdin is not JSON: ${(error as Error).message}`);
  }
  const notAnEvent = (why: string): GuardInputError =>
    new GuardInputError(`the hook payload is not a hook event: ${why}`);
  if (!isRecord(value)) throw notAnEvent(`expected a JSON object, got ${describe(value)}`);
  if (typeof value.hook_event_name !== 'string')
    throw notAnEvent('hook_event_name: hook_event_name must be a string');
  for (const [key, [expected, holds]] of Object.entries(PAYLOAD_FIELDS))
    if (value[key] !== undefined && !holds(value[key]))
      throw notAnEvent(`${key}: expected ${expected}, got ${describe(value[key])}`);
  return value as HookPayload;
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** Where the agent works: the payload's cwd, else Cursor's first workspace root, else the process's cwd. */
export function payloadCwd(payload: HookPayload): string {
  return payload.cwd ?? payload.workspace_roots?.[0] ?? process.env.CLAUDE_PROJECT_DIR ?? process.cwd();
}

export type HookKind = 'pre-tool' | 'stop' | 'session-start' | 'session-end' | 'other';

export function hookKind(payload: HookPayload): HookKind {
  const event = payload.hook_event_name.toLowerCase();
  if (event === 'pretooluse' || event === 'beforeshellexecution') return 'pre-tool';
  if (event === 'stop' || event === 'subagentstop') return 'stop';
  // Claude Code and Codex name them SessionStart / SessionEnd, Cursor sessionStart / sessionEnd.
  if (event === 'sessionstart') return 'session-start';
  if (event === 'sessionend') return 'session-end';
  return 'other';
}

/** The agent's id of the session an event belongs to (Claude Code and Codex: session_id; Cursor: conversation_id). */
export function payloadSessionId(payload: HookPayload): string | undefined {
  for (const key of ['session_id', 'conversation_id'] as const) {
    const value = (payload as Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

export interface Violation {
  hit: ProtectedHit;
  /** What the agent tried: "Edit", "Bash `sed -i`". */
  action: string;
}

const SHELL_TOOLS = /^(bash|shell|run_terminal_cmd|terminal|local_shell|exec_command|run_shell_command)$/i;
/** Tools that only read what they name (Claude Code's, Cursor's and the MCP filesystem server's). */
const READ_ONLY_TOOLS =
  /^(read|view|glob|grep|ls|search|list|get|find|directory_tree|notebookread|codebase_search|file_search)/i;
/** Arguments that name files, across agents' own tools and MCP servers. */
const PATH_KEYS = [
  'file_path',
  'notebook_path',
  'path',
  'target_file',
  'filePath',
  'source',
  'destination',
  'paths',
];

/** The first change to a protected file the tool call would make, or undefined. */
export async function findViolation(payload: HookPayload, set: ProtectedSet): Promise<Violation | undefined> {
  const cwd = payloadCwd(payload);
  const input = isRecord(payload.tool_input) ? payload.tool_input : {};
  const tool = payload.tool_name ?? (payload.command !== undefined ? 'Shell' : '');
  const command = payload.command ?? shellCommandOf(input);
  // An argument array as the command (Codex's shell tool: ["apply_patch", PATCH], ["bash", "-lc", SCRIPT]) is read
  // as the shell line it amounts to, whatever the tool is called.
  if (SHELL_TOOLS.test(tool) || payload.command || Array.isArray(input.command)) {
    if (command === undefined) return undefined;
    // Accepting changed tests as the session's reference is a person's step (weave guard --accept-tests).
    if (/accept-tests/.test(command))
      return {
        hit: { given: 'weave guard --accept-tests', what: "the session's record of the protected files" },
        action: `${tool || 'shell'} command (accepting changed tests is a person's step)`,
      };
    // Loaded on demand: the shell reader is for shell tools only, and every other event pays for what the hook
    // program loads. A plain command is read without the bash grammar; the grammar (web-tree-sitter and its
    // WebAssembly, ~40 ms of CPU) loads only for a command plainShell.ts cannot read exactly.
    const verdict = await import('./shellVerdict.js');
    let finding = verdict.plainShellFinding(command, cwd, set);
    if (finding === verdict.NEEDS_GRAMMAR) {
      const { bashParse } = await import('./bashSyntax.js');
      finding = verdict.shellFinding(await bashParse(), command, cwd, set);
    }
    return finding
      ? { hit: finding.hit, action: `${tool || 'shell'} command (${finding.action})` }
      : undefined;
  }
  if (tool === 'apply_patch') {
    const patch =
      typeof input.command === 'string' ? input.command : typeof input.input === 'string' ? input.input : '';
    for (const file of patchTargets(patch)) {
      const hit = protectedHit(set, file, cwd);
      if (hit) return { hit, action: `apply_patch on ${file}` };
    }
    return undefined;
  }
  // Read-only tools name files too: only tools that change them are guarded. MCP names are mcp__SERVER__TOOL.
  const bareTool = tool.replace(/^mcp__.+?__/, '');
  if (READ_ONLY_TOOLS.test(bareTool)) return undefined;
  for (const key of PATH_KEYS) {
    const value = input[key];
    const values =
      typeof value === 'string'
        ? [value]
        : Array.isArray(value)
          ? value.filter((v) => typeof v === 'string')
          : [];
    for (const given of values) {
      const hit = protectedHit(set, given, cwd);
      if (hit) return { hit, action: `${tool || 'edit'} (${key})` };
    }
  }
  return undefined;
}

/** Files an `apply_patch` envelope adds, updates, deletes or moves to (and a unified diff's, if it is one). */
export function patchTargets(patch: string): string[] {
  return [...patchEnvelopeTargets(patch).map((t) => t.path), ...diffTargets(patch)];
}

/** The shell command a tool input carries: `command` (a string, or an argument array), or Codex's `cmd`. */
function shellCommandOf(input: Record<string, unknown>): string | undefined {
  const { command, cmd } = input;
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((w) => typeof w === 'string')) return argvAsShell(command);
  if (Array.isArray(command)) return String(command.join(' '));
  return typeof cmd === 'string' ? cmd : undefined;
}

export function violationMessage(v: Violation, set: ProtectedSet): string {
  return (
    `Weave guard blocked this: ${v.action} would change ${v.hit.what}. Spec test files and .weave/ are ` +
    'read-only for agents: they define the constraints your change must satisfy. Change the code under test ' +
    `instead. (workspace ${set.workspaceDir}; matched ${JSON.stringify(v.hit.given)})`
  );
}

export interface HookAnswer {
  exitCode: number;
  stdout?: string;
  stderr?: string;
}

export function denyAnswer(agent: GuardAgent, message: string): HookAnswer {
  if (agent === 'cursor') {
    const answer = { permission: 'deny', user_message: message, agent_message: message };
    return { exitCode: 0, stdout: `${JSON.stringify(answer)}\n` };
  }
  return { exitCode: 2, stderr: `${message}\n` };
}

export function allowAnswer(agent: GuardAgent, kind: HookKind): HookAnswer {
  if (agent === 'cursor' && kind === 'pre-tool')
    return { exitCode: 0, stdout: `${JSON.stringify({ permission: 'allow' })}\n` };
  return { exitCode: 0 };
}

export function keepWorkingAnswer(agent: GuardAgent, reason: string): HookAnswer {
  const answer = agent === 'cursor' ? { followup_message: reason } : { decision: 'block', reason };
  return { exitCode: 0, stdout: `${JSON.stringify(answer)}\n` };
}

/** A Stop that already continues because of a stop hook (or too many follow-ups) is let through: no loop. */
export function stopAlreadyContinued(payload: HookPayload): boolean {
  return payload.stop_hook_active === true || (payload.loop_count ?? 0) >= MAX_FOLLOW_UPS;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
