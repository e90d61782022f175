// Spellings bash decodes before a command runs, decoded the same way for the guard: ANSI-C quoting (`$'\x74est'`),
// the tildes (`~`, `~+` = the working directory, `~-` = the previous one), the redirection operator as written
// (`N<>`, `>|`, `&>>`), and the variables that make a program run code the command does not show (BASH_ENV …).
import type { SyntaxNode as Node } from './shellSyntax';
import type { ShellState } from './shellTypes';

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** The text of `$'…'` (without `$'` and `'`) as bash makes it; undefined for an escape it cannot be sure of. */
export function decodeAnsiC(body: string): string | undefined {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) return out + '\\';
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i += 1;
      continue;
    }
    let m: RegExpMatchArray | null;
    const rest = body.slice(i + 1);
    if ((m = /^[0-7]{1,3}/.exec(rest))) out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
    else if ((m = /^x([0-9a-fA-F]{1,2})/.exec(rest))) out += String.fromCharCode(parseInt(m[1]!, 16));
    else if ((m = /^u([0-9a-fA-F]{1,4})/.exec(rest))) out += String.fromCodePoint(parseInt(m[1]!, 16));
    else if ((m = /^U([0-9a-fA-F]{1,8})/.exec(rest))) {
      const code = parseInt(m[1]!, 16);
      if (code > 0x10ffff) return undefined;
      out += String.fromCodePoint(code);
    } else if ((m = /^c(.)/.exec(rest))) out += String.fromCharCode(m[1]!.toUpperCase().charCodeAt(0) ^ 0x40);
    else {
      // An unknown escape stays as written, backslash included (bash does the same).
      out += `\\${next}`;
      i += 1;
      continue;
    }
    i += m[0].length;
  }
  return out;
}

/**
 * An unquoted word's leading tilde: `~` and `~/…` are $HOME, `~+` the working directory (as `.`, so it is read
 * from every directory the command may be in), `~-` $OLDPWD. Undefined when the value is unknown (`~user`, `~-`
 * before any `cd`, the directory stack's `~N`).
 */
export function expandTilde(text: string, state: ShellState): string | undefined {
  const m = /^~([^/]*)(\/.*)?$/.exec(text);
  if (!m) return text;
  const [, prefix, rest = ''] = m;
  if (prefix === '') {
    const home = state.vars.get('HOME');
    return home === undefined ? undefined : home + rest;
  }
  if (prefix === '+') return `.${rest}`;
  if (prefix === '-') {
    const old = state.vars.get('OLDPWD');
    return old === undefined ? undefined : old + rest;
  }
  return undefined;
}

/** A file redirection's operator as written: `>`, `>>`, `<`, `<>`, `>|`, `&>`, `&>>`, `>&`, `<&` (fd dropped). */
export function redirectOperator(redirect: Node, destination: Node): string {
  const written = redirect.text.slice(0, destination.startIndex - redirect.startIndex);
  return written.replace(/^(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})/, '').replace(/\s+/g, '') || '>';
}

/** Variables that make a shell or git run a program or file the command does not show. */
const RUNS_CODE =
  /^(BASH_ENV|ENV|PROMPT_COMMAND|BASH_FUNC_.*|LD_PRELOAD|LD_AUDIT|GIT_EXTERNAL_DIFF|GIT_PAGER|PAGER|GIT_EDITOR|GIT_SEQUENCE_EDITOR|EDITOR|VISUAL|GIT_SSH|GIT_SSH_COMMAND|GIT_ASKPASS|SSH_ASKPASS|GIT_PROXY_COMMAND|GIT_CONFIG_PARAMETERS|GIT_CONFIG_COUNT|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|GIT_EXEC_PATH|GIT_TEMPLATE_DIR)$/;
/** Values that run nothing of the agent's: an editor that accepts the message as it is, a plain pager. */
const HARMLESS_PROGRAM = /^(|true|:|cat|less|more|false|\/dev\/null)$/;

/** Why assigning `name` runs code the guard cannot read, or undefined when it does not (or the value is harmless). */
export function runsCodeVariable(name: string, value?: string): string | undefined {
  if (!RUNS_CODE.test(name)) return undefined;
  if (value !== undefined && HARMLESS_PROGRAM.test(value.trim())) return undefined;
  return (
    `${name}= makes a program run code or a file the command does not show; run the commands directly ` +
    'instead of through the variable'
  );
}
