// What one simple command does with its words, for the guard: which are paths it reads, which it writes, which
// are code for another interpreter or shell. Wrappers that run the rest of their words as a command (timeout,
// nice, env, sudo, busybox, stdbuf, setsid, flock, npx, uv run …) are unwrapped first, with their own options.
// A command this table does not know gets `other` access to its words: the guard then blocks it when a word is
// a protected path (deny by default). Known reads never block; known writers block on any protected target,
// including a folder or glob that covers one, and on a target the reader cannot resolve.
// Each family's tables and handlers live beside this file; this one holds the dispatch.
import path from 'node:path';
import type { CommandContext, ShellWord } from '../shellTypes';
import { ARCHIVES } from './archives';
import { BUILTINS } from './builtins';
import { FILE_TOOLS, READS, WRITES_ALL, WRITES_LAST, writesAll, writesLast } from './fileTools';
import { FORMATTERS } from './formatters';
import { git } from './git';
import { INTERPRETER, INTERPRETERS, SHELLS, interpreter, shell } from './interpreters';
import { TARGET_RUNNERS, targetRunner } from './packageManagers';
import { APPLY_PATCH_HANDLERS } from '../applyPatch';
import { PATCHES } from './patches';
import { Uses, type Handler } from './shared';
import { unwrap } from './wrappers';

/** Commands that need more than a list, by name (a name in two families would be a mistake: the last wins). */
const HANDLERS: Record<string, Handler> = {
  ...BUILTINS,
  ...INTERPRETERS,
  ...FILE_TOOLS,
  ...ARCHIVES,
  ...PATCHES,
  ...APPLY_PATCH_HANDLERS,
  ...FORMATTERS,
  git,
};

export function commandEffects(words: ShellWord[], ctx: CommandContext): void {
  const use = new Uses(ctx, commandEffects);
  const argv = unwrap(words, use);
  if (argv === undefined || argv.length === 0) return;
  const [first, ...args] = argv;
  if (!first!.exact) {
    // A command named by a variable, an array or a substitution the reader cannot expand: anything could run.
    use.unresolved(
      first!.text,
      'a command named by a variable or substitution the guard cannot read; write the command out',
    );
    return;
  }
  const name = path.basename(first!.text);
  const handler = HANDLERS[name] ?? (INTERPRETER.test(name) ? interpreter(name) : undefined);
  if (handler) handler(args, use, ctx);
  else if (READS.has(name)) return;
  else if (TARGET_RUNNERS.has(name)) targetRunner(name, args, use);
  else if (WRITES_ALL.has(name)) writesAll(name, args, use);
  else if (WRITES_LAST.has(name)) writesLast(name, args, use);
  else if (SHELLS.has(name)) shell(name, args, use, ctx);
  else use.all(args, 'other', name);
}
