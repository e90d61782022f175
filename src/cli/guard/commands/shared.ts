// What every command family (the files beside this one) uses to report a command's effects: the Handler shape,
// Uses (the reporter, which also runs a nested command through the dispatch table without importing it), and the
// small word helpers (operands, option values, in-place flags, reading a small file a command names).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { writtenHere } from '../shellFiles';
import type { CommandContext, PathAccess, ShellWord } from '../shellTypes';

/** What a family handler gets: the words after the command's name, the reporter, the context. */
export type Handler = (args: ShellWord[], use: Uses, ctx: CommandContext) => void;

/** The dispatch table's entry point (index.ts), handed down so no family imports the index. */
export type RunCommand = (words: ShellWord[], ctx: CommandContext) => void;

/** The words a command passes on, with helpers that report them. */
export class Uses {
  constructor(
    readonly ctx: CommandContext,
    private readonly runCommand: RunCommand,
  ) {}

  path(word: ShellWord, access: PathAccess, how: string): void {
    if (!word.exact) {
      if (access === 'write') this.ctx.emit({ kind: 'unresolved', text: word.text, how });
      return;
    }
    if (access === 'read') return;
    this.ctx.emit({ kind: 'path', word, dirs: this.ctx.state.dirs, access, how });
  }

  all(words: ShellWord[], access: PathAccess, how: string): void {
    for (const w of words) this.path(w, access, how);
  }

  inline(code: string, how: string): void {
    this.ctx.emit({ kind: 'inline', code, dirs: this.ctx.state.dirs, how });
  }

  unresolved(text: string, how: string): void {
    this.ctx.emit({ kind: 'unresolved', text, how });
  }

  /** Another simple command this one runs (find -exec, xargs CMD), read through the whole table. */
  run(words: ShellWord[]): void {
    this.runCommand(words, this.ctx);
  }
}

/** Words that are not options (after `--`, every word). */
export function operands(args: ShellWord[]): ShellWord[] {
  const dashes = args.findIndex((w) => w.text === '--');
  const before = dashes >= 0 ? args.slice(0, dashes) : args;
  const after = dashes >= 0 ? args.slice(dashes + 1) : [];
  return [...before.filter((w) => !w.text.startsWith('-') || w.text === '-'), ...after];
}

/** Values of options given as `-o V`, `--out V`, `--out=V` or `-oV` (one-letter options). */
export function optionValues(args: ShellWord[], names: string[]): ShellWord[] {
  const out: ShellWord[] = [];
  args.forEach((w, i) => {
    for (const n of names) {
      if (w.text === n && args[i + 1] !== undefined) out.push(args[i + 1]!);
      else if (n.startsWith('--') && w.text.startsWith(`${n}=`))
        out.push({ ...w, text: w.text.slice(n.length + 1) });
      else if (/^-[a-zA-Z]$/.test(n) && w.text.startsWith(n) && w.text.length > 2 && !w.text.startsWith('--'))
        out.push({ ...w, text: w.text.slice(2) });
    }
  });
  return out;
}

export function inlineCode(args: ShellWord[], flags: string[]): string | undefined {
  const at = inlineCodeAt(args, flags);
  return at === undefined ? undefined : (args[at]?.text ?? '');
}

/** Where the inline code's word is (it may be missing: then args.length), or undefined without a code flag. */
export function inlineCodeAt(args: ShellWord[], flags: string[]): number | undefined {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (flags.includes(t)) return i + 1;
    // Bundled one-letter flags: perl -pe CODE, python -Sc CODE.
    if (/^-[a-zA-Z]+$/.test(t) && flags.some((f) => f.length === 2 && t.endsWith(f[1]!))) return i + 1;
  }
  return undefined;
}

export function has(args: ShellWord[], ...names: string[]): boolean {
  return args.some(
    (w) => names.includes(w.text) || names.some((n) => n.startsWith('--') && w.text.startsWith(`${n}=`)),
  );
}

/** sed's in-place flag: `-i`, `-i.bak`, bundled (`-Ei`, `-ni`), `--in-place[=SUFFIX]`. */
export function isInPlace(arg: string): boolean {
  return arg === '--in-place' || arg.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(arg);
}

/**
 * perl's and ruby's `-i[EXT]` in a cluster of switches (`-pi`, `-0pi`, `-0777pi.bak`, `-lpi`, `-ni`): read switch
 * by switch, as perl does, so the `i` of `-Mstrict` or `-Ilib` is not taken for one.
 */
export function perlInPlace(arg: string): boolean {
  if (!/^-[^-]/.test(arg)) return false;
  for (let i = 1; i < arg.length; i++) {
    const c = arg[i]!;
    if (c === 'i') return true;
    // Switches whose value is the rest of the cluster (or the next word).
    if ('IMmFCdxDeErK'.includes(c)) return false;
    if (c === '0' || c === 'l') while (/[0-9a-fA-Fx]/.test(arg[i + 1] ?? '')) i++;
  }
  return false;
}

/**
 * Values of short options in clusters, as getopt reads them: in `-sSLo F` the `o` takes the next word, in `-oF`
 * the rest of the cluster; `valued` holds every short option of the program that takes a value (so `-so` is not
 * misread), `wanted` the ones asked for. Long forms (`--output F`, `--output=F`) through optionValues.
 */
export function clusterValues(args: ShellWord[], valued: string, wanted: string): ShellWord[] {
  const out: ShellWord[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (w.text === '--') break;
    if (!/^-[^-]/.test(w.text)) continue;
    for (let j = 1; j < w.text.length; j++) {
      const c = w.text[j]!;
      if (!valued.includes(c)) continue;
      const rest = w.text.slice(j + 1);
      const value = rest !== '' ? { ...w, text: rest } : args[i + 1];
      if (wanted.includes(c) && value !== undefined) out.push(value);
      if (rest === '') i++;
      break;
    }
  }
  return out;
}

/** Whether a short flag appears in any cluster before its values (`-sSLO`, `-OL`). */
export function clusterHas(args: ShellWord[], valued: string, flag: string): boolean {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === '--') return false;
    if (!/^-[^-]/.test(t)) continue;
    for (let j = 1; j < t.length; j++) {
      if (t[j] === flag) return true;
      if (valued.includes(t[j]!)) {
        if (j === t.length - 1) i++;
        break;
      }
    }
  }
  return false;
}

export function literal(text: string): ShellWord {
  return { text, exact: true, glob: false };
}

export function homeWord(ctx: CommandContext): ShellWord {
  const home = ctx.state.vars.get('HOME');
  return home === undefined ? { text: '~', exact: false, glob: false } : literal(home);
}

/** Moves a state to `target` (relative to every directory it may be in); unknown when it cannot be read. */
export function setDirs(
  state: { dirs: string[] | undefined },
  target: ShellWord | undefined,
  unknown = false,
): void {
  if (unknown || target === undefined || !target.exact || target.glob) {
    state.dirs = undefined;
    return;
  }
  state.dirs = path.isAbsolute(target.text)
    ? [path.resolve(target.text)]
    : state.dirs?.map((d) => path.resolve(d, target.text));
}

export function chdirOption(args: ShellWord[], names: string[], ctx: CommandContext): void {
  const values = optionValues(args, names);
  if (values.length > 0) setDirs(ctx.state, values[values.length - 1]);
}

/** The words after a wrapper's own options (values of `valued` options skipped; `--` ends them). */
export function afterOptions(args: ShellWord[], valued: string[]): ShellWord[] {
  let i = 0;
  while (i < args.length) {
    const t = args[i]!.text;
    if (t === '--') return args.slice(i + 1);
    if (!t.startsWith('-') || t === '-') break;
    if (valued.includes(t)) i += 2;
    else i += 1;
  }
  return args.slice(i);
}

/**
 * The text of a small file named by a word, when it exists (patches, sourced scripts). Not a file this command
 * wrote earlier (what is on disk now is not what will run), nor a device or /proc file (`/dev/stdin` is the
 * guard's own input, not the command's).
 */
export function readText(word: ShellWord, ctx: CommandContext): string | undefined {
  if (!word.exact) return undefined;
  const dirs = path.isAbsolute(word.text) ? ['/'] : ctx.state.dirs;
  if (dirs?.length !== 1) return undefined;
  const file = path.resolve(dirs[0]!, word.text);
  if (file === '/dev/null') return '';
  if (['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0'].includes(file)) return ctx.stdin;
  if (/^\/(dev|proc)\//.test(file) || writtenHere(ctx.state.files, word, ctx.state.dirs)) return undefined;
  try {
    if (!existsSync(file) || statSync(file).size > 4_000_000) return undefined;
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Why a shell or an interpreter is refused its input: the guard cannot read it (decoded, downloaded, piped from
 * another program, or a file made by the same command), so it cannot say what it writes. Said with the readable way.
 */
export function unreadableScript(how: string): string {
  return (
    `${how} running commands the guard cannot read (piped in, decoded, or a file this command makes); ` +
    'write the commands out in the command itself'
  );
}

/** Shell source given as one word (sh -c, flock -c, npx -c): read when it is exact, else unresolved. */
export function shellString(word: ShellWord | undefined, ctx: CommandContext, how: string): void {
  if (word === undefined) return;
  if (word.exact) ctx.shell(word.text, false);
  else ctx.emit({ kind: 'unresolved', text: word.text, how: `${how} with a script the guard cannot read` });
}
