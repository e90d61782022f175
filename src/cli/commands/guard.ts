// `weave guard`: the hook program for agents with hooks (src/cli/guard/hookEvents.ts has the protocols).
// PreToolUse: blocks edits and shell commands that would change a spec's test files or .weave/. Stop: keeps the
// agent working while specs affected by its uncommitted changes are broken. `--install` merges the hooks into a
// project's configuration.
// The hook path itself is guard/handleEvent.ts; --install, --status, --restore and --accept-tests load their
// modules when they run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GUARD_AGENTS, MAX_FOLLOW_UPS, type GuardAgent } from '../guard/hookEvents';
import { runHookEvent } from '../guard/handleEvent';
import { parseVerbFlags, UsageError } from '../flags';
import type { Verb } from '../verb';

export { handleEvent } from '../guard/handleEvent';

const HELP = `Usage: weave guard [--agent claude-code|codex|cursor] [--workspace DIR]   (a hook: reads JSON on stdin)
       weave guard --install claude-code|codex|cursor|git [--workspace DIR] [--command CMD]
       weave guard --status [--agent claude-code|codex|cursor] [--workspace DIR]
       weave guard --restore | --accept-tests [--workspace DIR]
       weave guard --pre-push [--workspace DIR]   (the git pre-push hook: git's ref lines on stdin)

As a hook, reads the agent's hook event on stdin and answers in the agent's own protocol:
  PreToolUse / beforeShellExecution / preToolUse: blocks an edit (Edit, Write, MultiEdit, NotebookEdit,
    apply_patch…) of a spec's test file or of anything under .weave/, and a shell command that would write one
    (>, >>, tee, sed -i, mv, cp, rm, truncate, git checkout/restore…), saying what matched. Claude Code and
    Codex: exit 2 with the reason on stderr. Cursor: {"permission":"deny",…} on stdout.
  Stop / stop: runs the specs the uncommitted changes can affect; while one is broken, answers
    {"decision":"block","reason":…} (Cursor: {"followup_message":…}) so the agent keeps working. A Stop that
    already continues because of a stop hook (stop_hook_active, or ${MAX_FOLLOW_UPS} Cursor follow-ups) is let through.
  SessionStart / sessionStart (else the first event of a session): records the protected set (spec tests,
    runner configuration, .weave/) with a copy of each file, in Weave's state folder outside the work tree.
    Stop, the git hooks and 'weave check' compare the tree with that record: a protected file changed, added
    or deleted since, by whatever path, blocks Stop with the list, refuses the commit and makes the specs it
    concerns 'tampered'. SessionEnd forgets the record when nothing changed.
  Malformed stdin: a message on stderr and exit 1 (every agent treats that as a non-blocking hook error).

The workspace is --workspace, else the nearest folder above the event's cwd holding .weave/specs.json; with
none, every call is allowed.

--install merges Weave's hooks into the project's configuration, keeping every other hook and setting
(running it twice changes nothing):
  claude-code  .claude/settings.json      codex  .codex/hooks.json      cursor  .cursor/hooks.json
  git          a pre-commit hook running 'weave check --affected' and a pre-push hook running
               'weave guard --pre-push' (an existing hook is kept and runs first)

Options:
  --agent NAME     the hook protocol (default claude-code)
  --workspace DIR  the workspace (with --install: the project folder, default the current directory)
  --install WHAT   install the hooks for WHAT instead of handling an event (codex: prints the trust step)
  --status         per agent: hooks installed? will the agent run them (Codex: project and hook trust)? does
                   the installed command block a probe write of .weave/specs.json? Exit 1 until all hold
  --command CMD    with --install: how hooks start Weave. Default, portable: node "$CLAUDE_PROJECT_DIR"/… or
                   the git top level's path to the Weave installed in the project
                   (node_modules/weave/dist/guard.js), else the absolute path of the Weave running now — never
                   npx weave (the registry's 'weave' is another package). A running Weave in a temporary place
                   (an npx cache, a temp folder) with none in the project: exit 2, nothing written
  --restore        put every protected file changed since the agent session started back as it was recorded
  --pre-push       the git pre-push hook: refuse a push whose commits change protected files since the agent
                   session started (the pre-commit comparison, made on each pushed commit)
  --accept-tests   a person's step: make today's protected files the reference (asks in a terminal; an agent's
                   shell has none, so it is refused there with exit 2)
  -h, --help       show this help

Exit codes: a hook answers in its agent's protocol (above); --install 0 done, 2 nothing written (bad input, or
no Weave the hooks could run); --status 0 every hook runs and blocks, 1 otherwise; --restore and
--accept-tests 0 done, 1 nothing recorded for this workspace, 2 bad input; --pre-push 0 push allowed, 1 refused.`;

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
      restore: { type: 'boolean', default: false },
      'accept-tests': { type: 'boolean', default: false },
      'pre-push': { type: 'boolean', default: false },
    });
    if (flags.restore && flags['accept-tests'])
      throw new UsageError('give --restore or --accept-tests, not both');
    if (flags.restore) return restore(path.resolve(flags.workspace ?? '.'));
    if (flags['pre-push']) return prePush(path.resolve(flags.workspace ?? '.'), readFileSync(0, 'utf8'));
    if (flags['accept-tests']) return acceptTests(path.resolve(flags.workspace ?? '.'));
    if (flags.install !== undefined) return install(flags.install, flags.workspace ?? '.', flags.command);
    if (flags.command !== undefined) throw new UsageError('--command goes with --install');
    const agent = flags.agent === undefined ? undefined : agentNamed(flags.agent);
    if (flags.status) return status(path.resolve(flags.workspace ?? '.'), agent);
    return runHookEvent(agent ?? 'claude-code', flags.workspace);
  },
};

/**
 * `--pre-push` (the git pre-push hook; git's ref lines on stdin): refuses a push whose commits hold protected files
 * that differ from the agent session's record. No record (no agent session, or it ended clean): nothing to refuse.
 */
async function prePush(workspaceDir: string, stdin: string): Promise<number> {
  const { parsePushLines, pushRefused, pushTampering } = await import('../guard/sessionBackstop.js');
  const found = await pushTampering(workspaceDir, parsePushLines(stdin));
  if (found === undefined || found.refused.length === 0) return 0;
  process.stderr.write(`${pushRefused(found.state, found.refused)}\n`);
  return 1;
}

/** `--restore`: every protected file changed since the session started goes back as recorded. */
async function restore(workspaceDir: string): Promise<number> {
  const { sessionState } = await import('../guard/sessionBackstop.js');
  const { restoreSession } = await import('../../core/sandbox/sessionRecord.js');
  const state = await sessionState(workspaceDir);
  if (state === undefined) {
    process.stderr.write(
      `weave guard: no agent session is recorded for ${workspaceDir}; nothing to restore\n`,
    );
    return 1;
  }
  if (state.changes.length === 0) {
    process.stdout.write('every protected file is as it was when the session started\n');
    return 0;
  }
  await restoreSession(workspaceDir, state.record, state.changes);
  process.stdout.write(
    `restored ${state.changes.length} protected file(s) as they were when the session started:\n` +
      `${state.changes.map((c) => `  ${c.path} (was ${c.change})`).join('\n')}\n`,
  );
  return 0;
}

/**
 * `--accept-tests`: a person makes today's protected files the reference. Only in a terminal: an agent's shell
 * tool has none, so an agent cannot take this step for itself however it starts the command.
 */
async function acceptTests(workspaceDir: string): Promise<number> {
  const { ACCEPT_COMMAND, sessionState, startSession } = await import('../guard/sessionBackstop.js');
  const { clearSession } = await import('../../core/sandbox/sessionRecord.js');
  if (!process.stdin.isTTY || !process.stdout.isTTY)
    throw new UsageError(
      `${ACCEPT_COMMAND} is a person's step and runs only in a terminal (stdin and stdout a TTY); nothing was changed`,
    );
  const state = await sessionState(workspaceDir);
  if (state === undefined) {
    process.stderr.write(
      `weave guard: no agent session is recorded for ${workspaceDir}; nothing to accept\n`,
    );
    return 1;
  }
  // The accepted tree becomes the new start of the session that is still going on (its hooks keep comparing).
  await clearSession(workspaceDir);
  await startSession(workspaceDir, {
    agent: state.record.agent,
    ...(state.record.sessionId !== undefined ? { sessionId: state.record.sessionId } : {}),
  });
  process.stdout.write(
    state.changes.length === 0
      ? 'nothing had changed; the protected files as they are now stay the reference\n'
      : `accepted ${state.changes.length} change(s) as the reference:\n` +
          `${state.changes.map((c) => `  ${c.path} (${c.change})`).join('\n')}\n`,
  );
  return 0;
}

function agentNamed(name: string): GuardAgent {
  const agent = name === 'claude' ? 'claude-code' : name;
  if (!(GUARD_AGENTS as readonly string[]).includes(agent))
    throw new UsageError(`--agent must be one of ${GUARD_AGENTS.join(', ')}, got '${name}'`);
  return agent as GuardAgent;
}

/** Exit 0 when every agent asked about (or every installed one) will run hooks that answer; 1 otherwise. */
async function status(projectDir: string, agent: GuardAgent | undefined): Promise<number> {
  const { gitHooksStatus, guardStatus } = await import('../guard/hookStatus.js');
  const { gitHooksDir } = await import('../guard/installHooks.js');
  const statuses = await guardStatus(projectDir, agent ? [agent] : GUARD_AGENTS);
  for (const s of statuses) {
    process.stdout.write(
      `${s.agent}: ${s.ok ? 'OK' : s.installed ? 'NOT RUNNING AS INSTALLED' : 'not installed'}\n`,
    );
    for (const line of s.lines) process.stdout.write(`  ${line.replace(/\n/g, '\n  ')}\n`);
  }
  // The git hooks (pre-commit, pre-push) once any is installed: reported, and part of the answer.
  const gitHooks = await gitHooksStatus(await gitHooksDir(projectDir));
  if (agent === undefined && gitHooks.installed) {
    process.stdout.write(`git: ${gitHooks.ok ? 'OK' : 'NOT AS INSTALLED'}\n`);
    for (const line of gitHooks.lines) process.stdout.write(`  ${line}\n`);
  }
  const checked = agent ? statuses : statuses.filter((s) => s.installed);
  if (agent === undefined && gitHooks.installed && !gitHooks.ok) return 1;
  if (checked.length === 0) {
    process.stdout.write(
      `no agent hooks are installed in ${projectDir} (weave guard --install claude-code|codex|cursor)\n`,
    );
    return 1;
  }
  return checked.every((s) => s.ok) ? 0 : 1;
}

async function install(what: string, projectDir: string, command: string | undefined): Promise<number> {
  const { INSTALL_TARGETS, installHooks, InstallError, portableStartCommands, runsRegistryWeave } =
    await import('../guard/installHooks.js');
  const { codexTrustNotice } = await import('../guard/hookStatus.js');
  if (!(INSTALL_TARGETS as readonly string[]).includes(what))
    throw new UsageError(`--install must be one of ${INSTALL_TARGETS.join(', ')}, got '${what}'`);
  try {
    const target = what as (typeof INSTALL_TARGETS)[number];
    const project = path.resolve(projectDir);
    if (command !== undefined && runsRegistryWeave(command))
      throw new UsageError(
        `--command ${JSON.stringify(command)} would ask the npm registry for 'weave', an unrelated package of that name; ` +
          'name the Weave to run by its path (node /path/to/weave/dist/cli.js); nothing was written',
      );
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
