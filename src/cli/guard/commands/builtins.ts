// The shell's own directory builtins: `cd`, `pushd`, `popd` move the shell's working directory for the commands
// that follow (ctx.shellState), and this command's with it.
import { homeWord, operands, setDirs, type Handler } from './shared';

export const BUILTINS: Record<string, Handler> = {
  cd: (args, _use, ctx) => {
    const target = operands(args)[0];
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
