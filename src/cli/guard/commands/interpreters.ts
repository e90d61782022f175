// Interpreters and shells: inline code (python -c, node -e, perl -e, a heredoc fed to one) is handed on for the
// verdict to scan; shell code (sh -c, bash FILE, sh < FILE, a heredoc fed to sh) is read recursively; input the
// guard cannot read (a pipe from another program, a file it cannot open) is refused with the readable way.
import { writtenHere } from '../shellFiles';
import type { CommandContext, ShellWord } from '../shellTypes';
import {
  clusterValues,
  inlineCodeAt,
  operands,
  perlInPlace,
  optionValues,
  readText,
  shellString,
  unreadableScript,
  type Handler,
  type Uses,
} from './shared';

export const INTERPRETER =
  /^(python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|perl|ruby|php|Rscript|lua|tsx|ts-node|jshell)$/;
/** Inline code that may write, move or delete files, or run a program that does (deny by default: broad). */
const WRITES_FILES =
  /write|append|open|rename|unlink|remove|\brm|copy|\bcp|move|\bmv|truncate|link|chmod|mkdir|rmdir|spawn|exec|system|popen|shutil|subprocess|child_process|\bfs\b|\bos\b|pathlib|\bFile|\bIO\b|>/i;
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish', 'busybox-sh']);

/** python -c, node -e, heredocs fed to an interpreter: code; a script file runs (reading it); -m pytest reads. */
export function interpreter(name: string): Handler {
  const codeFlags =
    name.startsWith('node') || name === 'bun' || name === 'deno' || name === 'tsx' || name === 'ts-node'
      ? ['-e', '--eval', '-p', '--print']
      : name === 'ruby' || name === 'perl'
        ? ['-e', '-E']
        : name === 'php'
          ? ['-r']
          : ['-c'];
  return (args, use, ctx) => {
    if ((name === 'perl' || name === 'ruby') && args.some((w) => perlInPlace(w.text)))
      use.all(operands(args), 'write', `${name} -i`);
    const at = inlineCodeAt(args, codeFlags);
    if (at !== undefined) {
      const code = args[at]?.text ?? '';
      use.inline(code, `${name} ${codeFlags[0]}`);
      // The code's own arguments: code that may write files, handed a path the guard cannot read (a substitution's
      // output, an unknown variable: `node -e 'fs.writeFileSync(process.argv[1], …)' $(ls test/add*)`), is refused.
      if (WRITES_FILES.test(code))
        for (const word of args.slice(at + 1))
          if (!word.exact)
            use.unresolved(
              word.text,
              `${name} ${codeFlags[0]} (code that may write files, given an argument the guard cannot read); write the path out literally`,
            );
      return;
    }
    if (args.some((w) => w.text === '--test')) return;
    const module = optionValues(args, ['-m'])[0];
    if (module) {
      if (!['pytest', 'unittest', 'doctest'].includes(module.text))
        use.all(args, 'other', `${name} -m ${module.text}`);
      return;
    }
    const script = args.find((w) => !w.text.startsWith('-'));
    if (script === undefined || script.text === '-') {
      if (ctx.stdin !== undefined) use.inline(ctx.stdin, `${name} reading code on stdin`);
      else if (ctx.stdinFile) {
        const text = readText(ctx.stdinFile, ctx);
        if (text !== undefined) use.inline(text, `${name} < file`);
        else use.unresolved(ctx.stdinFile.text, unreadableScript(`${name} < file`));
      } else if (args.length === 0 || script?.text === '-')
        // Code from a pipe the guard cannot read (`curl … | python3`, `… | base64 -d | node`).
        use.unresolved('stdin', unreadableScript(name));
      return;
    }
    // Running a script reads it; what it then does is beyond the guard (the sandbox's hashing still sees it).
    // A script this command wrote is not on disk yet as it will run: refused, like a shell's.
    if (writtenHere(ctx.state.files, script, ctx.state.dirs))
      use.unresolved(script.text, unreadableScript(name));
    use.all(args.slice(args.indexOf(script) + 1), 'other', name);
  };
}

/** sh, bash, zsh …: `-c STRING`, a script file, or commands on stdin — read as shell when the guard can. */
export function shell(name: string, args: ShellWord[], use: Uses, ctx: CommandContext): void {
  const at = args.findIndex((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.text));
  if (at >= 0) {
    shellString(args[at + 1], ctx, `${name} -c`);
    return;
  }
  const script = args.find((w) => !w.text.startsWith('-'));
  if (script === undefined) {
    if (ctx.stdin !== undefined) ctx.shell(ctx.stdin, false);
    else if (ctx.stdinFile) {
      const text = readText(ctx.stdinFile, ctx);
      if (text !== undefined) ctx.shell(text, false);
      else use.unresolved(ctx.stdinFile.text, unreadableScript(`${name} < file`));
    } else if (!args.some((w) => /^--?(version|help)$/.test(w.text)))
      // Commands from a pipe the guard cannot read (`… | base64 -d | sh`, `curl … | bash`).
      use.unresolved('stdin', unreadableScript(name));
    return;
  }
  const text = readText(script, ctx);
  if (text !== undefined) ctx.shell(text, false);
  else use.unresolved(script.text, unreadableScript(name));
  use.all(args.slice(args.indexOf(script) + 1), 'other', name);
}

function sourceFile(args: ShellWord[], use: Uses, ctx: CommandContext): void {
  const file = args[0];
  const text = file ? readText(file, ctx) : undefined;
  if (text !== undefined) ctx.shell(text, true);
  else if (file) use.unresolved(file.text, unreadableScript('source'));
  else if (ctx.stdin === undefined) use.unresolved('stdin', unreadableScript('source'));
}

export const INTERPRETERS: Record<string, Handler> = {
  eval: (args, use, ctx) => {
    if (args.every((w) => w.exact)) ctx.shell(args.map((w) => w.text).join(' '), true);
    else use.unresolved(args.map((w) => w.text).join(' '), 'eval of text the guard cannot read');
  },
  source: sourceFile,
  '.': sourceFile,
  script: (args, use) => {
    // script(1) runs its -c command under a pseudo-terminal and writes a typescript file.
    const command = [...clusterValues(args, 'cEIOT', 'c'), ...optionValues(args, ['--command'])];
    if (command.length > 0) {
      use.unresolved(command[0]!.text, 'script -c (a command run inside script); run the command itself');
      return;
    }
    const valued = [
      '-c',
      '--command',
      '-E',
      '--echo',
      '-I',
      '--log-in',
      '-O',
      '--log-out',
      '-T',
      '--log-timing',
    ];
    const files = operands(args.filter((_, i) => !valued.includes(args[i - 1]?.text ?? '')));
    use.all(files.length > 0 ? files : [{ text: 'typescript', exact: true, glob: false }], 'write', 'script');
    use.all(
      optionValues(args, ['-O', '--log-out', '-I', '--log-in', '-T', '--log-timing']),
      'write',
      'script',
    );
  },
  su: (args, use) => {
    const command = optionValues(args, ['-c', '--command', '--session-command']);
    if (command.length > 0)
      use.unresolved(command[0]!.text, 'su -c (a command run as another user); run the command itself');
    else use.unresolved('su', 'su (a shell as another user, fed commands the guard cannot read)');
  },
  trap: (args, use) => {
    // `trap CODE SIG…` runs CODE later (at exit, on a signal), in a directory the guard cannot follow there.
    if (args.length === 0 || args[0]!.text.startsWith('-')) return; // trap -l, trap -p, trap -- - SIG
    const code = args[0]!;
    if (args.length === 1 || code.text === '' || code.text === '-') return;
    use.unresolved(
      code.text,
      'trap (code run later, on a signal or at exit); run the commands directly instead',
    );
  },
};
