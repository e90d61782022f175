// Wrappers that run the rest of their words as a command (timeout, nice, env, sudo, busybox, stdbuf, setsid,
// flock, xargs, watch …) and package runners (packageManagers.ts): taken off with their own options, applying
// -C/--chdir/-D on the way, so the table reads the command they run.
import path from 'node:path';
import { runsCodeVariable } from '../shellDecoding';
import type { CommandContext, ShellWord } from '../shellTypes';
import { READS } from './fileTools';
import { RUNNERS, unwrapRunner, type Unwrapped } from './packageManagers';
import { afterOptions, chdirOption, optionValues, setDirs, shellString, type Uses } from './shared';

/** Option letters that take a value, per wrapper; `--name=value` forms are always one word. */
interface WrapperShape {
  valued: string[];
  /** Operands before the command (timeout's duration, flock's lock file, chrt's priority). */
  leading?: number;
  /** A flag that means "no command follows" (command -v, ionice -p). */
  noCommand?: string[];
}

export const WRAPPERS: Record<string, WrapperShape> = {
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], leading: 1 },
  nice: { valued: ['-n', '--adjustment'] },
  ionice: { valued: ['-c', '--class', '-n', '--classdata'], noCommand: ['-p', '--pid', '-P', '-u'] },
  chrt: { valued: [], leading: 1, noCommand: ['-p', '--pid'] },
  taskset: { valued: ['-c', '--cpu-list'], noCommand: ['-p', '--pid'] },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  setsid: { valued: [] },
  nohup: { valued: [] },
  time: { valued: ['-f', '--format', '-o', '--output'] },
  command: { valued: [], noCommand: ['-v', '-V'] },
  builtin: { valued: [] },
  exec: { valued: ['-a'] },
  sudo: {
    valued: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T', '--chdir', '--user', '--group'],
  },
  doas: { valued: ['-u', '-C'] },
  unbuffer: { valued: [] },
  chronic: { valued: [] },
  nocache: { valued: [] },
  caffeinate: { valued: ['-t', '-w'] },
  strace: { valued: ['-o', '-e', '-p', '-s', '-u', '-E', '-I', '-b', '-S', '-X', '-a', '-P'] },
  ltrace: { valued: ['-o', '-e', '-p', '-s', '-u', '-n', '-a'] },
  flock: { valued: ['-w', '--wait', '--timeout', '-E', '--conflict-exit-code'], leading: 1 },
  runuser: { valued: ['-u', '-g', '-G', '--user', '--group'] },
  watch: { valued: ['-n', '--interval', '-d', '-q'] },
};

const XARGS_VALUED = [
  '-a',
  '-d',
  '-E',
  '-e',
  '-I',
  '-i',
  '-L',
  '-l',
  '-n',
  '-P',
  '-s',
  '--arg-file',
  '--delimiter',
  '--max-args',
  '--max-procs',
  '--replace',
];

/** The command a chain of wrappers runs, or undefined when there is none; applies -C/--chdir on the way. */
export function unwrap(words: ShellWord[], use: Uses): ShellWord[] | undefined {
  let rest = words;
  for (let guard = 0; guard < 16 && rest.length > 0; guard++) {
    const step = unwrapOne(rest, use);
    if ('end' in step) return step.end;
    rest = step.next;
  }
  return rest;
}

/** The first word of `rest` (not empty) as a wrapper: what it runs, or where the chain ends. */
function unwrapOne(rest: ShellWord[], use: Uses): Unwrapped {
  const ctx = use.ctx;
  const word = rest[0]!;
  if (!word.exact) return { end: rest };
  const name = path.basename(word.text);
  if (name === 'env') {
    const next = unwrapEnv(rest.slice(1), use);
    return next === undefined ? { end: undefined } : { next };
  }
  if (name === 'busybox') return rest[1]?.text.startsWith('-') ? { end: undefined } : { next: rest.slice(1) };
  if (name === 'xargs') {
    xargsEffects(rest.slice(1), use);
    return { end: undefined };
  }
  if (name === 'flock' && rest.some((w) => w.text === '-c' || w.text === '--command')) {
    const at = rest.findIndex((w) => w.text === '-c' || w.text === '--command');
    shellString(rest[at + 1], ctx, 'flock -c');
    return { end: undefined };
  }
  if (name === 'watch') {
    const command = afterOptions(rest.slice(1), WRAPPERS.watch!.valued);
    if (command.every((w) => w.exact)) ctx.shell(command.map((w) => w.text).join(' '), false);
    else use.unresolved(command.map((w) => w.text).join(' '), 'watch of a command the guard cannot read');
    return { end: undefined };
  }
  const wrapper = WRAPPERS[name];
  if (wrapper) return unwrapWrapper(name, wrapper, rest.slice(1), use);
  const runner = RUNNERS[name];
  if (runner) return unwrapRunner(name, runner, rest, ctx);
  return { end: rest };
}

/** `xargs CMD …`: CMD's own effects; a writer fed by xargs writes targets the guard cannot see. */
function xargsEffects(args: ShellWord[], use: Uses): void {
  const command = afterOptions(args, XARGS_VALUED);
  if (command.length === 0) return; // xargs alone runs echo
  use.run(command);
  const inner = unwrap(command, use);
  const innerName = inner?.[0] && path.basename(inner[0].text);
  // Its arguments come from stdin: a writer fed by xargs writes targets the guard cannot see.
  if (innerName && !READS.has(innerName))
    use.unresolved(`${innerName} …`, `xargs ${innerName} with arguments from stdin`);
}

/** A wrapper of the WRAPPERS table (timeout, nice, sudo …): its options skipped, -D/-o applied. */
function unwrapWrapper(name: string, shape: WrapperShape, args: ShellWord[], use: Uses): Unwrapped {
  if (shape.noCommand && args.some((w) => shape.noCommand!.includes(w.text))) return { end: undefined };
  if (name === 'sudo' || name === 'runuser') chdirOption(args, ['-D', '--chdir'], use.ctx);
  if (name === 'runuser' && args.some((w) => w.text === '-c' || w.text === '--command')) {
    const at = args.findIndex((w) => w.text === '-c' || w.text === '--command');
    use.unresolved(
      args[at + 1]?.text ?? '',
      'runuser -c (a command run as another user); run the command itself',
    );
    return { end: undefined };
  }
  if (name === 'sudo' && args.some((w) => /^(-[a-zA-Z]*[si]|--shell|--login)$/.test(w.text))) {
    // sudo -s / -i CMD runs `$SHELL -c 'CMD'`: the words, joined, are shell code.
    const command = afterOptions(args, shape.valued);
    if (command.length === 0)
      use.unresolved('stdin', 'sudo -s / -i (a shell fed commands the guard cannot read)');
    else if (command.every((w) => w.exact)) use.ctx.shell(command.map((w) => w.text).join(' '), false);
    else use.unresolved(command.map((w) => w.text).join(' '), 'sudo -s with a command the guard cannot read');
    return { end: undefined };
  }
  if (name === 'time' || name === 'strace' || name === 'ltrace')
    use.all(optionValues(args, ['-o', '--output']), 'write', `${name} -o`);
  return { next: afterOptions(args, shape.valued).slice(shape.leading ?? 0) };
}

function unwrapEnv(args: ShellWord[], use: Uses): ShellWord[] | undefined {
  const ctx: CommandContext = use.ctx;
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (t === '--') {
      i++;
      break;
    }
    if (t === '-C' || t === '--chdir') {
      setDirs(ctx.state, args[i + 1]);
      i++;
    } else if (t.startsWith('--chdir=')) setDirs(ctx.state, { ...w, text: t.slice(8) });
    else if (t === '-u' || t === '--unset') i++;
    else if (t === '-S' || t === '--split-string' || t.startsWith('--split-string=')) {
      const script = t.startsWith('--split-string=') ? { ...w, text: t.slice(15) } : args[i + 1];
      const restWords = args.slice(t.startsWith('--split-string=') ? i + 1 : i + 2);
      if (script && script.exact && restWords.every((r) => r.exact))
        ctx.shell([script.text, ...restWords.map((r) => r.text)].join(' '), false);
      else use.unresolved(script?.text ?? '', 'env -S with a string the guard cannot read');
      return undefined;
    } else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
      const eq = t.indexOf('=');
      ctx.state.vars.set(t.slice(0, eq), w.exact ? t.slice(eq + 1) : undefined);
      const runs = runsCodeVariable(t.slice(0, eq), w.exact ? t.slice(eq + 1) : undefined);
      if (runs) use.unresolved(t, runs);
    } else if (!t.startsWith('-')) break;
  }
  const rest = args.slice(i);
  return rest.length === 0 ? undefined : rest;
}
