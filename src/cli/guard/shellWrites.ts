// Which files a shell command would write, delete or replace, read conservatively from its text: redirections
// (`>`, `>>`, `&>`, `>|`), in-place editors (`sed -i`, `perl -i`), `tee`, `mv`, `cp`, `install`, `ln`, `rm`,
// `unlink`, `shred`, `truncate`, `touch`, `dd of=`, `find … -delete | -exec`, `git checkout|restore|rm|mv|reset
// --hard|stash`, inline scripts (`python -c`, `node -e`) that name a file and write, and `sh -c '…'` recursively.
// `cd DIR` moves the working directory for the rest of a chain. A variable Weave cannot expand is left as it is:
// it rarely names a spec's test file, and blocking every `$OUT` would make the guard useless.
import path from 'node:path';

export interface ShellWrite {
  /** The path as written in the command (relative to `cwd`). */
  target: string;
  cwd: string;
  /** What in the command writes it, e.g. "`>` redirection", "sed -i". */
  how: string;
}

interface Token {
  text: string;
  /** An operator (`;`, `&&`, `|`, `>`, …) rather than a word. */
  op: boolean;
}

const REDIRECTIONS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const SEPARATORS = new Set([';', '&&', '||', '|', '&', '\n', '(', ')', '|&']);
/** Prefixes that run the rest of the words as a command. */
const WRAPPERS = new Set(['sudo', 'env', 'command', 'nohup', 'time', 'nice', 'exec', 'builtin', 'doas']);
const DELETERS = new Set(['rm', 'unlink', 'shred', 'truncate', 'touch', 'rmdir']);
const INTERPRETERS = /^(python[\d.]*|node|nodejs|deno|bun|perl|ruby|php)$/;
const WRITE_CALLS =
  /write|open\s*\(|unlink|remove|rename|truncate|rmSync|rmtree|replace|copyFile|appendFile|\.rm\(|move/i;

export function shellWrites(command: string, cwd: string, depth = 0): ShellWrite[] {
  const writes: ShellWrite[] = [];
  let dir = cwd;
  for (const words of simpleCommands(tokenize(command), (target) =>
    writes.push({ target, cwd: dir, how: '`>` redirection' }),
  )) {
    // Command substitutions run too: `$(…)` and backticks inside any word.
    for (const word of words)
      for (const inner of substitutions(word))
        if (depth < 4) writes.push(...shellWrites(inner, dir, depth + 1));
    const args = unwrap(words);
    const name = path.basename(args[0] ?? '');
    const rest = args.slice(1);
    const operands = rest.filter((a) => !a.startsWith('-') || a === '-');
    const push = (targets: string[], how: string): void => {
      for (const target of targets) writes.push({ target, cwd: dir, how });
    };
    if (name === 'cd') {
      dir = path.resolve(dir, operands[0] ?? process.env.HOME ?? dir);
    } else if (DELETERS.has(name)) {
      push(operands, name);
    } else if (name === 'mv') {
      push([...operands, ...optionValues(rest, ['-t', '--target-directory'])], 'mv');
    } else if (name === 'cp' || name === 'install' || name === 'ln' || name === 'rsync') {
      const targetDirs = optionValues(rest, ['-t', '--target-directory']);
      push(targetDirs.length > 0 ? targetDirs : operands.slice(-1), name);
    } else if (name === 'tee') {
      push(operands, 'tee');
    } else if ((name === 'sed' || name === 'perl' || name === 'ruby') && rest.some(isInPlaceFlag)) {
      push(operands, `${name} -i`);
    } else if (name === 'dd') {
      push(
        rest.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)),
        'dd of=',
      );
    } else if (name === 'find' && rest.some((a) => a === '-delete' || a === '-exec' || a === '-execdir')) {
      push(
        rest
          .slice(
            0,
            Math.max(
              1,
              rest.findIndex((a) => a.startsWith('-')),
            ),
          )
          .filter((a) => !a.startsWith('-')),
        'find -delete/-exec',
      );
    } else if (name === 'git') {
      push(...gitWrites(rest));
    } else if (
      (name === 'sh' || name === 'bash' || name === 'zsh' || name === 'dash') &&
      rest.includes('-c')
    ) {
      const script = rest[rest.indexOf('-c') + 1];
      if (script !== undefined && depth < 4) writes.push(...shellWrites(script, dir, depth + 1));
    } else if (INTERPRETERS.test(name)) {
      const flag = rest.findIndex(
        (a) => a === '-c' || a === '-e' || a === '--eval' || a === '-pi' || a === '-i',
      );
      const code = flag >= 0 ? rest[flag + 1] : undefined;
      if (code !== undefined && WRITE_CALLS.test(code))
        push(quotedPaths(code), `${name} inline code that writes`);
    }
  }
  return writes;

  function gitWrites(rest: string[]): [string[], string] {
    const sub = rest.find((a) => !a.startsWith('-'));
    const after = rest.slice(rest.indexOf(sub ?? '') + 1);
    const dashes = after.indexOf('--');
    const operands = (dashes >= 0 ? after.slice(dashes + 1) : after).filter((a) => !a.startsWith('-'));
    switch (sub) {
      case 'checkout':
      case 'restore':
      case 'rm':
      case 'mv':
        // Without `--`, `git checkout REF PATH` and `git checkout PATH` look alike: every operand counts.
        return [operands, `git ${sub}`];
      case 'reset':
        return [after.includes('--hard') ? ['.'] : [], 'git reset --hard'];
      case 'stash':
        return [after[0] === undefined || ['push', 'save'].includes(after[0]) ? ['.'] : [], 'git stash'];
      default:
        return [[], ''];
    }
  }
}

function isInPlaceFlag(arg: string): boolean {
  return arg === '--in-place' || arg.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(arg);
}

function optionValues(args: string[], names: string[]): string[] {
  const out: string[] = [];
  args.forEach((a, i) => {
    for (const n of names) {
      if (a === n && args[i + 1] !== undefined) out.push(args[i + 1]!);
      else if (a.startsWith(`${n}=`)) out.push(a.slice(n.length + 1));
    }
  });
  return out;
}

/** Drops leading `VAR=value` assignments and wrappers (`sudo`, `env`, `nohup`…) with their options. */
function unwrap(words: string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i++;
    else if (WRAPPERS.has(w)) {
      i++;
      while (i < words.length && words[i]!.startsWith('-')) i++;
    } else break;
  }
  return words.slice(i);
}

/** Strings in inline code that look like paths (quoted, with a slash or a dot). */
function quotedPaths(code: string): string[] {
  return [...code.matchAll(/(['"`])([^'"`\s]+?)\1/g)].map((m) => m[2]!).filter((s) => /[/.]/.test(s));
}

function substitutions(word: string): string[] {
  return [...word.matchAll(/\$\(([^()]*)\)|`([^`]*)`/g)].map((m) => m[1] ?? m[2] ?? '');
}

/** Splits tokens into simple commands (word lists); redirection targets go to `onRedirect`. */
function simpleCommands(tokens: Token[], onRedirect: (target: string) => void): string[][] {
  const commands: string[][] = [];
  let current: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.op && REDIRECTIONS.has(t.text)) {
      const next = tokens[i + 1];
      if (next && !next.op) {
        onRedirect(next.text);
        i++;
      }
    } else if (t.op && SEPARATORS.has(t.text)) {
      if (current.length > 0) commands.push(current);
      current = [];
    } else if (t.op && (t.text === '<' || t.text === '<<' || t.text === '<<<')) {
      i++; // an input: read, not written
    } else if (!t.op) {
      current.push(t.text);
    }
  }
  if (current.length > 0) commands.push(current);
  return commands;
}

/** A small POSIX-shell lexer: quotes, escapes, `$(…)` kept inside words, operators, fd-prefixed redirections. */
export function tokenize(command: string): Token[] {
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  const flush = (): void => {
    if (inWord) tokens.push({ text: expandKnownVariables(word), op: false });
    word = '';
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      word += command.slice(i + 1, end < 0 ? undefined : end);
      inWord = true;
      i = end < 0 ? command.length : end;
    } else if (c === '"') {
      let j = i + 1;
      while (j < command.length && command[j] !== '"') {
        if (command[j] === '\\' && j + 1 < command.length) j++;
        word += command[j];
        j++;
      }
      inWord = true;
      i = j;
    } else if (c === '\\') {
      if (command[i + 1] === '\n') i++;
      else {
        word += command[i + 1] ?? '';
        inWord = true;
        i++;
      }
    } else if (c === '$' && command[i + 1] === '(') {
      let depth = 0;
      let j = i + 1;
      for (; j < command.length; j++) {
        if (command[j] === '(') depth++;
        else if (command[j] === ')' && --depth === 0) break;
      }
      word += command.slice(i, j + 1);
      inWord = true;
      i = j;
    } else if (c === '#' && !inWord) {
      const end = command.indexOf('\n', i);
      i = end < 0 ? command.length : end - 1;
    } else if (c === ' ' || c === '\t') {
      flush();
    } else if ('\n;&|()<>'.includes(c)) {
      // `2>`, `2>>`: a digit word right before `>` is the file descriptor, not a file.
      if (c === '>' && inWord && /^\d+$/.test(word)) {
        word = '';
        inWord = false;
      }
      if (c === '>' && command[i + 1] === '&' && /[\d-]/.test(command[i + 2] ?? '')) {
        // `>&2`, `2>&1`: duplicates a descriptor, writes no file.
        flush();
        i += 2;
        continue;
      }
      flush();
      const three = command.slice(i, i + 3);
      const two = command.slice(i, i + 2);
      const op = ['&>>', '<<<'].includes(three)
        ? three
        : ['&&', '||', '>>', '>|', '&>', '<<', '<>', '|&'].includes(two)
          ? two
          : c;
      tokens.push({ text: op, op: true });
      i += op.length - 1;
    } else {
      word += c;
      inWord = true;
    }
  }
  flush();
  return tokens;
}

function expandKnownVariables(word: string): string {
  return word.replace(/\$\{?(HOME|PWD|CLAUDE_PROJECT_DIR|CURSOR_PROJECT_DIR)\}?/g, (m, name: string) =>
    name === 'PWD' ? m : (process.env[name] ?? m),
  );
}
