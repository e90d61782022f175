// `dist/guard-program.js` (started through `dist/guard.js`, guardLauncher.ts): `weave guard` as its own small
// bundle, because agents start a hook process on every tool call. A hook call (no flags but --agent and
// --workspace) is answered by guard/handleEvent.ts, which loads only what a PreToolUse decision needs; whatever
// it loads on demand (the spec model, the session start, Stop's spec runner, the shell grammar) and every other use
// of the verb (--install, --status, a bad flag…) come from a second bundle, `dist/guard-parts.js`
// (scripts/build.mjs), so a hook process neither reads nor compiles them. Same flags as `weave guard`.
import { GUARD_AGENTS, type GuardAgent } from './guard/hookEvents';
import { runHookEvent } from './guard/handleEvent';

interface HookCall {
  agent: GuardAgent;
  workspace?: string;
}

/** The arguments of a plain hook call, or undefined for anything else (the full verb reads and reports those). */
function hookCall(args: readonly string[]): HookCall | undefined {
  const values: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const match = /^--(agent|workspace)(?:=(.*))?$/s.exec(args[i]!);
    if (!match) return undefined;
    const value = match[2] ?? args[++i];
    if (value === undefined || values[match[1]!] !== undefined) return undefined;
    values[match[1]!] = value;
  }
  const agent = values.agent === 'claude' ? 'claude-code' : (values.agent ?? 'claude-code');
  if (!(GUARD_AGENTS as readonly string[]).includes(agent)) return undefined;
  return {
    agent: agent as GuardAgent,
    ...(values.workspace !== undefined ? { workspace: values.workspace } : {}),
  };
}

async function main(args: string[]): Promise<number> {
  const hook = hookCall(args);
  if (hook !== undefined) return runHookEvent(hook.agent, hook.workspace);
  const { runGuardVerb } = await import('./guardVerbMain.js');
  return runGuardVerb(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `weave guard: internal error: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
