// The shell's own builtins that change its state: `cd`, `pushd`, `popd` move the shell's working directory for the
// commands that follow (ctx.shellState), and this command's with it; `read`, `mapfile`, `printf -v`, `getopts`,
// `unset` give variables values the reader does not know.
import type { CommandContext, ShellWord } from '../shellTypes';
import { homeWord, operands, optionValues, setDirs, type Handler } from './shared';

/** The variables a builtin assigns: known no longer (a later `eval "$x"` or `> "$x"` is then refused). */
function forget(names: ShellWord[], ctx: CommandContext): void {
  for (const w of names) {
    const name = w.text.replace(/\[.*$/, '');
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    ctx.shellState.vars.set(name, undefined);
    ctx.shellState.arrays.set(name, undefined);
  }
}

const READ_VALUED = ['-a', '-d', '-i', '-n', '-N', '-p', '-t', '-u'];

export const BUILTINS: Record<string, Handler> = {
  read: (args, _use, ctx) => {
    forget(optionValues(args, ['-a']), ctx);
    const names = args.filter(
      (w, i) => !w.text.startsWith('-') && !READ_VALUED.includes(args[i - 1]?.text ?? ''),
    );
    forget(names.length > 0 ? names : [{ text: 'REPLY', exact: true, glob: false }], ctx);
  },
  mapfile: (args, _use, ctx) => mapfile(args, ctx),
  readarray: (args, _use, ctx) => mapfile(args, ctx),
  printf: (args, _use, ctx) => forget(optionValues(args, ['-v']), ctx),
  getopts: (args, _use, ctx) => forget(args.slice(1, 2), ctx),
  unset: (args, _use, ctx) => forget(operands(args), ctx),
  cd: (args, _use, ctx) => {
    const target = operands(args)[0];
    const from = ctx.shellState.dirs;
    ctx.shellState.vars.set('OLDPWD', from?.length === 1 ? from[0] : undefined);
    setDirs(ctx.shellState, target ?? homeWord(ctx), target?.text === '-');
    ctx.state.dirs = ctx.shellState.dirs;
  },
  pushd: (args, _use, ctx) => {
    const target = operands(args)[0];
    ctx.shellState.stack.push(ctx.shellState.dirs);
    setDirs(ctx.shellState, target, target === undefined || /^[+-]\d/.test(target.text));
    ctx.state.dirs = ctx.shellState.dirs;
  },
  popd: (_args, _use, ctx) => {
    ctx.shellState.dirs = ctx.shellState.stack.length > 0 ? ctx.shellState.stack.pop() : undefined;
    ctx.state.dirs = ctx.shellState.dirs;
  },
};

function mapfile(args: ShellWord[], ctx: CommandContext): void {
  const valued = ['-d', '-n', '-O', '-s', '-u', '-C', '-c'];
  const names = args.filter((w, i) => !w.text.startsWith('-') && !valued.includes(args[i - 1]?.text ?? ''));
  forget(names.length > 0 ? names : [{ text: 'MAPFILE', exact: true, glob: false }], ctx);
}
