// `weave guard`: the hook program for agents with hooks (src/cli/guard/hookEvents.ts has the protocols).
// PreToolUse: blocks edits and shell commands that would change a spec's test files or .weave/. Stop: keeps the
// agent working while specs affected by its uncommitted changes are broken. `--install` merges the hooks into a
// project's configuration.
import { text } from 'node:stream/consumers';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  allowAnswer,
  denyAnswer,
  findViolation,
  GUARD_AGENTS,
  GuardInputError,
  hookKind,
  keepWorkingAnswer,
  MAX_FOLLOW_UPS,
  parsePayload,
  payloadCwd,
  stopAlreadyContinued,
  violationMessage,
  type GuardAgent,
  type HookAnswer,
} from '../guard/hookEvents';
import {
  INSTALL_TARGETS,
  installHooks,
  InstallError,
  shellQuote,
  type InstallTarget,
  type StartCommands,
} from '../guard/installHooks';
import { findWorkspace, loadProtectedSet } from '../guard/protectedPaths';
import { parseVerbFlags, UsageError } from '../flags';
import type { Verb } from '../verb';

const HELP = `Usage: weave guard [--agent claude-code|codex|cursor] [--workspace DIR]   (a hook: reads JSON on stdin)
       weave guard --install claude-code|codex|cursor|git [--workspace DIR] [--command CMD]

As a hook, reads the agent's hook event on stdin and answers in the agent's own protocol:
  PreToolUse / beforeShellExecution / preToolUse: blocks an edit (Edit, Write, MultiEdit, NotebookEdit,
    apply_patch…) of a spec's test file or of anything under .weave/, and a shell command that would write one
    (>, >>, tee, sed -i, mv, cp, rm, truncate, git checkout/restore…), saying what matched. Claude Code and
    Codex: exit 2 with the reason on stderr. Cursor: {"permission":"deny",…} on stdout.
  Stop / stop: runs the specs the uncommitted changes can affect; while one is broken, answers
    {"decision":"block","reason":…} (Cursor: {"followup_message":…}) so the agent keeps working. A Stop that
    already continues because of a stop hook (stop_hook_active, or ${MAX_FOLLOW_UPS} Cursor follow-ups) is let through.
  Malformed stdin: a message on stderr and exit 1 (every agent treats that as a non-blocking hook error).

The workspace is --workspace, else the nearest folder above the event's cwd holding .weave/specs.json; with
none, every call is allowed.

--install merges Weave's hooks into the project's configuration, keeping every other hook and setting
(running it twice changes nothing):
  claude-code  .claude/settings.json      codex  .codex/hooks.json      cursor  .cursor/hooks.json
  git          a pre-commit hook running 'weave check --affected' (an existing hook is kept and runs first)

Options:
  --agent NAME     the hook protocol (default claude-code)
  --workspace DIR  the workspace (with --install: the project folder, default the current directory)
  --install WHAT   install the hooks for WHAT instead of handling an event
  --command CMD    with --install: how hooks start Weave, e.g. --command "npx weave" for a project that
                   depends on Weave (default: this Node with this CLI, and for agent hooks the small guard
                   bundle dist/guard.js beside it, by absolute path)
  -h, --help       show this help`;

export const guardVerb: Verb = {
  name: 'guard',
  summary: "Hook program for Claude Code / Codex / Cursor / git: protect spec tests, don't stop while broken",
  help: HELP,
  async run(args) {
    const flags = parseVerbFlags('guard', args, {
      agent: { type: 'string', default: 'claude-code' },
      workspace: { type: 'string' },
      install: { type: 'string' },
      command: { type: 'string' },
    });
    if (flags.install !== undefined) return install(flags.install, flags.workspace ?? '.', flags.command);
    if (flags.command !== undefined) throw new UsageError('--command goes with --install');
    if (!(GUARD_AGENTS as readonly string[]).includes(flags.agent))
      throw new UsageError(`--agent must be one of ${GUARD_AGENTS.join(', ')}, got '${flags.agent}'`);
    const answer = await handleEvent(flags.agent as GuardAgent, await text(process.stdin), flags.workspace);
    if (answer.stdout) process.stdout.write(answer.stdout);
    if (answer.stderr) process.stderr.write(answer.stderr);
    return answer.exitCode;
  },
};

export async function handleEvent(
  agent: GuardAgent,
  stdin: string,
  workspaceFlag: string | undefined,
): Promise<HookAnswer> {
  let payload;
  try {
    payload = parsePayload(stdin);
  } catch (error) {
    if (error instanceof GuardInputError) return { exitCode: 1, stderr: `weave guard: ${error.message}\n` };
    throw error;
  }
  const kind = hookKind(payload);
  const workspaceDir =
    workspaceFlag !== undefined ? path.resolve(workspaceFlag) : findWorkspace(payloadCwd(payload));
  if (workspaceDir === undefined || kind === 'other') return allowAnswer(agent, kind);
  if (kind === 'pre-tool') {
    const set = await loadProtectedSet(workspaceDir);
    const violation = findViolation(payload, set);
    return violation ? denyAnswer(agent, violationMessage(violation, set)) : allowAnswer(agent, kind);
  }
  if (stopAlreadyContinued(payload)) return allowAnswer(agent, kind);
  try {
    // Loaded on demand: only Stop needs the spec runner, and every PreToolUse call pays for what it loads.
    const { brokenAffectedSpecs } = await import('../guard/stopCheck.js');
    const verdict = await brokenAffectedSpecs(workspaceDir);
    return verdict.broken.length > 0 ? keepWorkingAnswer(agent, verdict.reason) : allowAnswer(agent, kind);
  } catch (error) {
    // Could not check (no git, an invalid spec file): say so to the user, do not hold the agent.
    const message = error instanceof Error ? error.message : String(error);
    return { exitCode: 1, stderr: `weave guard: could not check the affected specs: ${message}\n` };
  }
}

async function install(what: string, projectDir: string, command: string | undefined): Promise<number> {
  if (!(INSTALL_TARGETS as readonly string[]).includes(what))
    throw new UsageError(`--install must be one of ${INSTALL_TARGETS.join(', ')}, got '${what}'`);
  try {
    const result = await installHooks(
      what as InstallTarget,
      path.resolve(projectDir),
      startCommands(command),
    );
    process.stdout.write(`${result.summary}\n`);
    return 0;
  } catch (error) {
    if (error instanceof InstallError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * How installed hooks start Weave. `--command CMD`: `CMD check …` and `CMD guard --agent …`. By default this Node
 * and this CLI by absolute path (works at once), with the agent hooks on the small guard bundle beside it
 * (dist/guard.js), which starts faster than the full CLI on every tool call.
 */
function startCommands(command: string | undefined): StartCommands {
  if (command !== undefined) return { weave: command, guard: `${command} guard` };
  const node = shellQuote(process.execPath);
  const cli = path.resolve(process.argv[1] ?? 'weave');
  const guardBundle = path.join(path.dirname(cli), 'guard.js');
  return {
    weave: `${node} ${shellQuote(cli)}`,
    guard: existsSync(guardBundle)
      ? `${node} ${shellQuote(guardBundle)}`
      : `${node} ${shellQuote(cli)} guard`,
  };
}
