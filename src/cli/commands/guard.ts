// `weave guard`: the hook program for agents with hooks (src/cli/guard/hookEvents.ts has the protocols).
// PreToolUse: blocks edits and shell commands that would change a spec's test files or .weave/. Stop: keeps the
// agent working while specs affected by its uncommitted changes are broken. `--install` merges the hooks into a
// project's configuration.
import { text } from 'node:stream/consumers';
import { setFlagsFromString } from 'node:v8';
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
import { codexTrustNotice, guardStatus } from '../guard/hookStatus';
import {
  INSTALL_TARGETS,
  installHooks,
  InstallError,
  portableStartCommands,
  type InstallTarget,
} from '../guard/installHooks';
import { findWorkspace, loadProtectedSet } from '../guard/protectedPaths';
import { parseVerbFlags, UsageError } from '../flags';
import type { Verb } from '../verb';

const HELP = `Usage: weave guard [--agent claude-code|codex|cursor] [--workspace DIR]   (a hook: reads JSON on stdin)
       weave guard --install claude-code|codex|cursor|git [--workspace DIR] [--command CMD]
       weave guard --status [--agent claude-code|codex|cursor] [--workspace DIR]

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
  --install WHAT   install the hooks for WHAT instead of handling an event (codex: prints the trust step)
  --status         per agent: hooks installed? will the agent run them (Codex: project and hook trust)? does
                   the installed command block a probe write of .weave/specs.json? Exit 1 until all hold
  --command CMD    with --install: how hooks start Weave (absolute paths only this way). Default, portable:
                   node "$CLAUDE_PROJECT_DIR"/… or the git top level's path to the Weave installed in the
                   project (node_modules/weave/dist/guard.js), else npx weave
  -h, --help       show this help

Exit codes: as a hook, 0 allowed (or the answer is on stdout), 2 blocked (Claude Code, Codex: the reason on
stderr), 1 malformed stdin or the check could not run (a non-blocking hook error); --install 0 installed;
--status 0 every hook will run and block, 1 not; 2 bad flags, or a configuration --install cannot merge.`;

export const guardVerb: Verb = {
  name: 'guard',
  summary: "Hook program for Claude Code / Codex / Cursor / git: protect spec tests, don't stop while broken",
  help: HELP,
  async run(args) {
    const flags = parseVerbFlags('guard', args, {
      agent: { type: 'string' },
      workspace: { type: 'string' },
      install: { type: 'string' },
      command: { type: 'string' },
      status: { type: 'boolean', default: false },
    });
    if (flags.install !== undefined) return install(flags.install, flags.workspace ?? '.', flags.command);
    if (flags.command !== undefined) throw new UsageError('--command goes with --install');
    const agent = flags.agent === undefined ? undefined : agentNamed(flags.agent);
    if (flags.status) return status(path.resolve(flags.workspace ?? '.'), agent);
    // The shell grammar runs once per process on a few hundred bytes, so V8's optimising tier for WebAssembly only
    // costs here: a parse of `cd test && echo '// x' > f` made it compile the bash grammar's lexer in the background,
    // and the process took 5.6–8 s and 574 MB to exit on a loaded 2-core box instead of 1 s and 63 MB. A tiering
    // budget no hook call can spend keeps it on the baseline tier (`--liftoff-only` has no effect once V8 runs).
    setFlagsFromString('--wasm-tiering-budget=1000000000');
    const answer = await handleEvent(agent ?? 'claude-code', await text(process.stdin), flags.workspace);
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
    const violation = await findViolation(payload, set);
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

function agentNamed(name: string): GuardAgent {
  const agent = name === 'claude' ? 'claude-code' : name;
  if (!(GUARD_AGENTS as readonly string[]).includes(agent))
    throw new UsageError(`--agent must be one of ${GUARD_AGENTS.join(', ')}, got '${name}'`);
  return agent as GuardAgent;
}

/** Exit 0 when every agent asked about (or every installed one) will run hooks that answer; 1 otherwise. */
async function status(projectDir: string, agent: GuardAgent | undefined): Promise<number> {
  const statuses = await guardStatus(projectDir, agent ? [agent] : GUARD_AGENTS);
  for (const s of statuses) {
    process.stdout.write(
      `${s.agent}: ${s.ok ? 'OK' : s.installed ? 'NOT RUNNING AS INSTALLED' : 'not installed'}\n`,
    );
    for (const line of s.lines) process.stdout.write(`  ${line.replace(/\n/g, '\n  ')}\n`);
  }
  const checked = agent ? statuses : statuses.filter((s) => s.installed);
  if (checked.length === 0) {
    process.stdout.write(
      `no agent hooks are installed in ${projectDir} (weave guard --install claude-code|codex|cursor)\n`,
    );
    return 1;
  }
  return checked.every((s) => s.ok) ? 0 : 1;
}

async function install(what: string, projectDir: string, command: string | undefined): Promise<number> {
  if (!(INSTALL_TARGETS as readonly string[]).includes(what))
    throw new UsageError(`--install must be one of ${INSTALL_TARGETS.join(', ')}, got '${what}'`);
  try {
    const target = what as InstallTarget;
    const project = path.resolve(projectDir);
    const commands =
      command !== undefined
        ? { weave: command, guard: `${command} guard` }
        : await portableStartCommands(
            target,
            project,
            path.dirname(path.resolve(process.argv[1] ?? 'weave')),
          );
    const result = await installHooks(target, project, commands);
    process.stdout.write(`${result.summary}\n`);
    if (target === 'codex') process.stdout.write(await codexTrustNotice(project));
    return 0;
  } catch (error) {
    if (error instanceof InstallError) throw new UsageError(error.message);
    throw error;
  }
}
