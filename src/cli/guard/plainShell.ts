// Plain shell commands parsed without the bash grammar: `git status`, `cd src && grep -n x f.js > /tmp/out`,
// `npm test 2>&1 | tail -20`. A hook process that needs tree-sitter-bash spends ~40 ms of CPU compiling and
// starting its WebAssembly (V8's compile cache does not keep it), more than the rest of the event; most commands
// agents run are simple words, quotes, `&&`/`||`/`|`/`;` and file redirections, which this reads exactly.
//
// Exactly means: the tree built here is the one tree-sitter-bash 0.25 builds for the same text, node for node
// (types, fields, ranges, its quirks included: a redirection after a list's last command hangs on the whole list
// before it), so the shell reader walks the same tree and the guard decides the same. Anything outside that
// small language throws NotPlainShell, and the caller reads the command with tree-sitter-bash instead:
// expansions (`$`, backquotes), escapes, globs' brackets and braces, comments, keywords and declarations,
// subshells and groups, heredocs, background jobs, line breaks, a redirection before or between the words.
// test/unit/guard/plainShell.test.ts compares both parsers' trees on every string in the guard's tests and on
// generated commands.
import type { ShellParse, SyntaxNode } from './shellSyntax';

/** The command is outside what plainShell reads exactly: read it with tree-sitter-bash. */
export class NotPlainShell extends Error {
  constructor(why: string) {
    super(`not a plain shell command: ${why}`);
  }
}

export const plainShellParse: ShellParse = (source, read) => read(parsePlainShell(source));

/** Characters of an unquoted word (tree-sitter-bash's `word` token minus what bash may expand or treat apart). */
const WORD_CHAR = /[A-Za-z0-9_./:%+,=^*?~-]/;
/** Characters inside double quotes that stay literal (no `$`, backquote, backslash; `!` left to the grammar). */
const STRING_CHAR = /[^"$`\\!\n\r]/;
/** Words tree-sitter-bash may read as keywords or as declaration and unset commands, wherever they stand. */
const KEYWORDS = new Set(
  (
    'if then else elif fi case esac for select while until do done in function time coproc ' +
    'declare typeset export readonly local unset unsetenv'
  ).split(' '),
);
const COMMAND_NAME = /^[A-Za-z_./][A-Za-z0-9_./+-]*$/;
const NUMBER = /^-?(0x)?[0-9]+$/;

interface Piece {
  type: 'word' | 'number' | 'raw_string' | 'string';
  start: number;
  end: number;
}
type Token =
  | { kind: 'word'; pieces: Piece[]; start: number; end: number }
  | { kind: 'op'; op: '&&' | '||' | '|' | ';'; start: number; end: number }
  | { kind: 'redirect'; fd: number | undefined; op: '>' | '>>' | '<' | '>&'; start: number; opEnd: number };

export function parsePlainShell(source: string): SyntaxNode {
  const tokens = tokenize(source);
  const builder = new TreeBuilder(source);
  const statements: SyntaxNode[] = [];
  let i = 0;
  while (i < tokens.length) {
    const [statement, next] = parseStatement(tokens, i, builder);
    statements.push(statement);
    i = next;
    const t = tokens[i];
    if (t === undefined) break;
    if (t.kind !== 'op' || t.op !== ';') throw new NotPlainShell('unexpected token');
    statements.push(builder.token(';', t.start, t.end));
    i++;
  }
  if (statements.length === 0) throw new NotPlainShell('no command');
  return builder.node(
    'program',
    statements[0]!.startIndex,
    source.length,
    statements.map((n) => ({ node: n })),
  );
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '&') {
      if (source[i + 1] !== '&') throw new NotPlainShell('`&`');
      tokens.push({ kind: 'op', op: '&&', start: i, end: i + 2 });
      i += 2;
      continue;
    }
    if (c === '|') {
      const op = source[i + 1] === '|' ? '||' : '|';
      if (op === '|' && source[i + 1] === '&') throw new NotPlainShell('`|&`');
      tokens.push({ kind: 'op', op, start: i, end: i + op.length });
      i += op.length;
      continue;
    }
    if (c === ';') {
      if (source[i + 1] === ';' || source[i + 1] === '&') throw new NotPlainShell('`;;`');
      tokens.push({ kind: 'op', op: ';', start: i, end: i + 1 });
      i++;
      continue;
    }
    // A redirection: an optional one-digit descriptor right before it, after a blank or at the start.
    let fd: number | undefined;
    let at = i;
    if (/[0-9]/.test(c) && (source[i + 1] === '>' || source[i + 1] === '<')) {
      fd = Number(c);
      at = i + 1;
    }
    if (source[at] === '>' || source[at] === '<') {
      const after = source.slice(at, at + 3);
      let op: '>' | '>>' | '<' | '>&';
      if (after.startsWith('>>')) op = '>>';
      else if (after.startsWith('>&')) op = '>&';
      else op = source[at] as '>' | '<';
      const next = source[at + op.length];
      // <<, <<<, <>, <&, >|, >>&, &>: left to the grammar.
      if (next === '<' || next === '>' || next === '&' || next === '|' || next === '(')
        throw new NotPlainShell('redirection form');
      if (op === '>&' && !/[0-9]/.test(next ?? '')) throw new NotPlainShell('`>&` to a file');
      // tree-sitter-bash drops a lone `-` before `2>` from the command (`x - 2> f` reads as `x 2> f`).
      const last = tokens[tokens.length - 1];
      if (fd !== undefined && last?.kind === 'word' && /^[-+]$/.test(source.slice(last.start, last.end)))
        throw new NotPlainShell('`-` before a descriptor');
      tokens.push({ kind: 'redirect', fd, op, start: i, opEnd: at + op.length });
      i = at + op.length;
      continue;
    }
    const start = i;
    const pieces: Piece[] = [];
    while (i < n) {
      const d = source[i]!;
      if (d === "'") {
        const close = source.indexOf("'", i + 1);
        if (close < 0) throw new NotPlainShell('unclosed quote');
        if (/[\n\r]/.test(source.slice(i, close))) throw new NotPlainShell('line break');
        pieces.push({ type: 'raw_string', start: i, end: close + 1 });
        i = close + 1;
      } else if (d === '"') {
        let j = i + 1;
        while (j < n && STRING_CHAR.test(source[j]!)) j++;
        if (source[j] !== '"') throw new NotPlainShell('double-quoted string with expansions or escapes');
        // tree-sitter-bash reads blanks alone between quotes as part of the closing quote's token.
        if (j > i + 1 && /^[ \t]+$/.test(source.slice(i + 1, j))) throw new NotPlainShell('blank string');
        pieces.push({ type: 'string', start: i, end: j + 1 });
        i = j + 1;
      } else if (WORD_CHAR.test(d)) {
        let j = i;
        while (j < n && WORD_CHAR.test(source[j]!)) j++;
        const text = source.slice(i, j);
        pieces.push({ type: NUMBER.test(text) ? 'number' : 'word', start: i, end: j });
        i = j;
      } else if (d === ' ' || d === '\t' || d === '&' || d === '|' || d === ';') break;
      else if ((d === '>' || d === '<') && pieces.length > 0)
        throw new NotPlainShell('redirection right after a word');
      else throw new NotPlainShell(`character ${JSON.stringify(d)}`);
    }
    tokens.push({ kind: 'word', pieces, start, end: i });
  }
  return tokens;
}

/** A statement: commands joined by `&&`, `||`, `|`, each with redirections after its words. */
function parseStatement(tokens: Token[], start: number, b: TreeBuilder): [SyntaxNode, number] {
  let i = start;
  const command = (): SyntaxNode => {
    const words: Array<Extract<Token, { kind: 'word' }>> = [];
    while (tokens[i]?.kind === 'word') words.push(tokens[i++] as Extract<Token, { kind: 'word' }>);
    if (words.length === 0) throw new NotPlainShell('missing command');
    const name = words[0]!;
    // A command name spelled plainly: tree-sitter-bash reads `a=b`, `-`, `12%%`, `1=2` there as other things.
    if (!COMMAND_NAME.test(b.source.slice(name.start, name.end))) throw new NotPlainShell('command name');
    const first = b.wordNode(name);
    const children: Child[] = [
      { node: b.node('command_name', first.startIndex, first.endIndex, [{ node: first }]), field: 'name' },
      ...words.slice(1).map((w) => ({ node: b.wordNode(w), field: 'argument' })),
    ];
    return b.node('command', name.start, words[words.length - 1]!.end, children);
  };
  /** Redirections right after a command wrap everything read so far in the statement (tree-sitter-bash's tree). */
  const redirected = (body: SyntaxNode): SyntaxNode => {
    const redirects: SyntaxNode[] = [];
    while (tokens[i]?.kind === 'redirect') {
      const r = tokens[i++] as Extract<Token, { kind: 'redirect' }>;
      const destination = tokens[i];
      if (destination?.kind !== 'word') throw new NotPlainShell('redirection without a target');
      if (r.op === '>&' && destination.start !== r.opEnd) throw new NotPlainShell('`>& N` with a blank');
      i++;
      if (tokens[i]?.kind === 'word') throw new NotPlainShell('words after a redirection');
      const children: Child[] = [];
      if (r.fd !== undefined)
        children.push({ node: b.leaf('file_descriptor', r.start, r.start + 1), field: 'descriptor' });
      children.push({ node: b.token(r.op, r.opEnd - r.op.length, r.opEnd) });
      children.push({ node: b.wordNode(destination), field: 'destination' });
      redirects.push(b.node('file_redirect', r.start, destination.end, children));
    }
    if (redirects.length === 0) return body;
    return b.node('redirected_statement', body.startIndex, redirects[redirects.length - 1]!.endIndex, [
      { node: body, field: 'body' },
      ...redirects.map((node) => ({ node, field: 'redirect' })),
    ]);
  };
  let tree = redirected(command());
  for (;;) {
    const t = tokens[i];
    if (t?.kind !== 'op' || t.op === ';') break;
    i++;
    const operator = b.token(t.op, t.start, t.end);
    const right = command();
    tree = t.op === '|' ? b.pipe(tree, operator, right) : b.binary('list', tree, operator, right);
    tree = redirected(tree);
  }
  return [tree, i];
}

interface Child {
  node: SyntaxNode;
  field?: string;
}

class TreeBuilder {
  private nextId = 1;
  constructor(readonly source: string) {}

  node(type: string, start: number, end: number, children: Child[], isNamed = true): SyntaxNode {
    const text = this.source.slice(start, end);
    const nodes = children.map((c) => c.node);
    return {
      type,
      text,
      id: this.nextId++,
      startIndex: start,
      endIndex: end,
      isNamed,
      children: nodes,
      namedChildren: nodes.filter((n) => n.isNamed),
      childForFieldName: (name) => children.find((c) => c.field === name)?.node ?? null,
      childrenForFieldName: (name) => children.filter((c) => c.field === name).map((c) => c.node),
    };
  }

  leaf(type: string, start: number, end: number): SyntaxNode {
    return this.node(type, start, end, []);
  }

  token(type: string, start: number, end: number): SyntaxNode {
    return this.node(type, start, end, [], false);
  }

  wordNode(word: { pieces: Piece[]; start: number; end: number }): SyntaxNode {
    const nodes = word.pieces.map((p) => this.piece(p));
    if (nodes.length === 1) return nodes[0]!;
    return this.node(
      'concatenation',
      word.start,
      word.end,
      nodes.map((node) => ({ node })),
    );
  }

  private piece(p: Piece): SyntaxNode {
    const text = this.source.slice(p.start, p.end);
    // Keywords, and test operators (`==`, `=~`), which tree-sitter-bash reads as tokens even among arguments.
    if (KEYWORDS.has(text) || (p.type === 'word' && /^=[=~]/.test(text)))
      throw new NotPlainShell(`keyword ${text}`);
    if (p.type !== 'string') return this.leaf(p.type, p.start, p.end);
    const children: Child[] = [{ node: this.token('"', p.start, p.start + 1) }];
    if (p.end - p.start > 2) children.push({ node: this.leaf('string_content', p.start + 1, p.end - 1) });
    children.push({ node: this.token('"', p.end - 1, p.end) });
    return this.node('string', p.start, p.end, children);
  }

  binary(type: string, left: SyntaxNode, operator: SyntaxNode, right: SyntaxNode): SyntaxNode {
    return this.node(type, left.startIndex, right.endIndex, [
      { node: left },
      { node: operator },
      { node: right },
    ]);
  }

  /** `|` binds tighter than `&&`/`||`: it joins the list's last operand; a pipeline grows flat. */
  pipe(left: SyntaxNode, operator: SyntaxNode, right: SyntaxNode): SyntaxNode {
    if (left.type === 'pipeline')
      return this.node('pipeline', left.startIndex, right.endIndex, [
        ...left.children.map((node) => ({ node: node! })),
        { node: operator },
        { node: right },
      ]);
    if (left.type === 'list') {
      const [first, op, last] = left.children;
      return this.binary('list', first!, op!, this.pipe(last!, operator, right));
    }
    return this.binary('pipeline', left, operator, right);
  }
}
