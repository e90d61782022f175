// Reads a shell command the way bash would run it, from tree-sitter-bash's syntax tree: lists, pipelines,
// subshells, compound commands (if/while/for/case, { … }, functions), redirections, heredocs, herestrings, and
// command/process substitutions (which run too). It tracks what decides where a path lands: the working
// directory through `cd`, `pushd`/`popd`, `env -C` and subshells (a subshell's `cd` ends with it; after
// if/case/loops every directory a branch may have left is kept), and variables assigned in the command itself.
// What each simple command does with its words is commands/'s job; this file hands it resolved words and
// collects the effects it reports. Nothing here decides what is protected (hookEvents.ts does).
import path from 'node:path';
import { commandEffects } from './commands/dispatch';
import { decodeAnsiC, expandTilde, redirectOperator, runsCodeVariable } from './shellDecoding';
import { absolutePaths, emptyFiles, noteWritten, throughLinks } from './shellFiles';
import type { ShellParse, SyntaxNode as Node } from './shellSyntax';
import type { ShellEffect, ShellState, ShellWord } from './shellTypes';

const MAX_DEPTH = 6;
const MAX_DIRS = 8;
/** Environment variables whose value the guard may use: the agent's shell has the same ones. */
const KNOWN_ENV = ['HOME', 'CLAUDE_PROJECT_DIR', 'CURSOR_PROJECT_DIR', 'TMPDIR'];

/** The effects of `source` run in `cwd`, read from the trees `parse` makes of it and of the shell code it runs. */
export function readShell(parse: ShellParse, source: string, cwd: string): ShellEffect[] {
  const effects: ShellEffect[] = [];
  const vars = new Map<string, string | undefined>();
  for (const name of KNOWN_ENV) if (process.env[name] !== undefined) vars.set(name, process.env[name]);
  const reader = new Reader(parse, effects);
  const state: ShellState = {
    dirs: [path.resolve(cwd)],
    stack: [],
    vars,
    arrays: new Map(),
    files: emptyFiles(),
  };
  reader.source(source, state, 0);
  return effects;
}

class Reader {
  constructor(
    private readonly parse: ShellParse,
    private readonly effects: ShellEffect[],
  ) {}

  /** Reports an effect; a write or unknown use through a link made earlier in the command is reported for what
   * the link stands for too, and a write is remembered (a file made here and then run cannot be read). */
  emit(effect: ShellEffect, state: ShellState): void {
    this.effects.push(effect);
    if (effect.kind !== 'path' || effect.access === 'read') return;
    for (const absolute of absolutePaths(effect.word, effect.dirs))
      for (const target of throughLinks(state.files, absolute))
        this.effects.push({
          ...effect,
          word: { text: target, exact: true, glob: effect.word.glob },
          dirs: ['/'],
          how: `${effect.how} through a link made earlier in the command`,
        });
    if (effect.access === 'write') noteWritten(state.files, effect.word, effect.dirs);
  }

  source(text: string, state: ShellState, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.effects.push({ kind: 'unresolved', text: text.slice(0, 80), how: 'shell code nested too deep' });
      return;
    }
    this.parse(text, (root) => this.statements(root.namedChildren, state, depth));
  }

  private statements(nodes: ReadonlyArray<Node | null>, state: ShellState, depth: number): void {
    for (const node of nodes) if (node) this.statement(node, state, depth, undefined);
  }

  private statement(node: Node, state: ShellState, depth: number, stdin: string | undefined): void {
    switch (node.type) {
      case 'comment':
      case 'heredoc_body':
        return;
      case 'command':
        return this.command(node, [], state, depth, stdin);
      case 'redirected_statement':
        return this.redirected(node, state, depth, stdin);
      case 'variable_assignment':
        return this.assign(node, state, depth);
      case 'declaration_command':
        for (const child of node.namedChildren)
          if (child?.type === 'variable_assignment') this.assign(child, state, depth);
        return;
      case 'pipeline':
        return this.pipeline(node, state, depth);
      case 'subshell':
        return this.statements(node.namedChildren, copyState(state), depth);
      case 'if_statement':
      case 'case_statement':
        return this.branches(node, state, depth);
      case 'while_statement':
      case 'for_statement':
      case 'c_style_for_statement': {
        // A loop body may run zero or more times: keep both what it may leave and what was before.
        const before = copyState(state);
        // The loop variable takes values the reader does not follow one by one: unknown inside and after.
        const loopVariable =
          node.type === 'for_statement' ? node.childForFieldName('variable')?.text : undefined;
        if (loopVariable) state.vars.set(loopVariable, undefined);
        for (const child of node.namedChildren) if (child) this.statement(child, state, depth, undefined);
        mergeInto(state, [before]);
        return;
      }
      case 'function_definition': {
        // Read the body where it is defined: calling it later runs the same commands.
        // It may be called after variables change: read it with every variable unknown (`eval "$x"` in it is
        // then refused rather than read with the value x had where the function was defined).
        const body = node.childForFieldName('body');
        if (body) this.statement(body, unknownVariables(state), depth, undefined);
        return;
      }
      default:
        // Lists, negations, groups, do-groups, test commands, words with substitutions: their parts in order.
        if (isWordNode(node.type)) this.word(node, state, depth);
        else for (const child of node.namedChildren) if (child) this.statement(child, state, depth, stdin);
    }
  }

  /** if / elif / else and case: each branch from the state before; afterwards any branch's directories. */
  private branches(node: Node, state: ShellState, depth: number): void {
    const conditions = new Set(
      node.childrenForFieldName(node.type === 'if_statement' ? 'condition' : 'value').map((c) => c?.id),
    );
    for (const child of node.namedChildren)
      if (child && conditions.has(child.id)) this.statement(child, state, depth, undefined);
    const start = copyState(state);
    // The then-part is the if's own statements; elif/else clauses and case items are the other branches.
    const thenPart = copyState(start);
    const outcomes = node.type === 'if_statement' ? [thenPart] : [];
    let exhaustive = false;
    for (const child of node.namedChildren) {
      if (!child || conditions.has(child.id)) continue;
      if (['elif_clause', 'else_clause', 'case_item'].includes(child.type)) {
        if (child.type === 'else_clause') exhaustive = true;
        const branch = copyState(start);
        this.statement(child, branch, depth, undefined);
        outcomes.push(branch);
      } else this.statement(child, thenPart, depth, undefined);
    }
    // No else (or a case no item may match): the state before is one outcome too.
    if (!exhaustive) outcomes.push(start);
    const [first, ...rest] = outcomes;
    replaceState(state, first!);
    mergeInto(state, rest);
  }

  private pipeline(node: Node, state: ShellState, depth: number): void {
    // Every stage runs in its own subshell (bash without lastpipe): a `cd` inside ends with it.
    let stdin: string | undefined;
    for (const stage of node.namedChildren) {
      if (!stage) continue;
      this.statement(stage, copyState(state), depth, stdin);
      stdin = this.stageOutput(stage, state, depth);
    }
  }

  /**
   * What a pipeline stage writes to the next one, when the reader knows it: a `cat` heredoc's body; `echo`'s
   * arguments as echo prints them (quotes removed, `-e` escapes decoded; an argument the reader cannot expand makes
   * the output unknown, so `echo "$x" | sh` is unreadable, never read as the text `$x`); `printf`'s arguments as
   * written (quotes and all: apply_patch's reader decodes them).
   */
  private stageOutput(stage: Node, state: ShellState, depth: number): string | undefined {
    const command = stage.type === 'redirected_statement' ? stage.childForFieldName('body') : stage;
    if (command?.type !== 'command') return undefined;
    const name = command.childForFieldName('name')?.text;
    if (name === 'cat' && stage.type === 'redirected_statement') {
      const heredoc = stage.childrenForFieldName('redirect').find((r) => r?.type === 'heredoc_redirect');
      return heredoc?.namedChildren.find((c) => c?.type === 'heredoc_body')?.text;
    }
    const args = command.childrenForFieldName('argument').filter((a): a is Node => a !== null);
    if (name === 'printf') return args.map((a) => a.text).join(' ');
    if (name !== 'echo') return undefined;
    const words = args.map((a) => this.word(a, copyState(state), depth));
    if (words.some((w) => !w.exact)) return undefined;
    let escapes = false;
    while (words.length > 0 && /^-[neE]+$/.test(words[0]!.text))
      escapes ||= words.shift()!.text.includes('e');
    const text = words.map((w) => w.text).join(' ');
    return escapes
      ? text.replace(/\\(n|t|\\)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : '\\'))
      : text;
  }

  private redirected(node: Node, state: ShellState, depth: number, piped: string | undefined): void {
    const body = node.childForFieldName('body');
    const own = node.childrenForFieldName('redirect').filter((r): r is Node => r !== null);
    // tree-sitter-bash hangs what follows a heredoc's start on its line inside the heredoc node: `cat <<EOF > f`,
    // `cat <<EOF | sh`, `cat <<EOF && rm f`. The redirections are this command's; the rest runs after it.
    const heredocs = own.filter((r) => r.type === 'heredoc_redirect');
    const tails = heredocs.flatMap((r) => r.namedChildren.filter((c): c is Node => c !== null));
    const redirects = [...own, ...tails.filter((c) => c.type === 'file_redirect')];
    const before = copyState(state);
    const stdin = redirectInput(redirects, state, this) ?? piped;
    if (body?.type === 'command') this.command(body, redirects, state, depth, stdin);
    else {
      if (body) this.statement(body, state, depth, stdin);
      // tree-sitter-bash hangs `cd d && echo x > f`'s redirection on the whole list; bash applies it to the
      // last command, after the `cd`. Both the directories before and after are kept, to be safe.
      const after = copyState(state);
      mergeInto(after, [before]);
      this.redirections(redirects, after, depth);
    }
    for (const tail of tails) {
      if (['heredoc_start', 'heredoc_body', 'heredoc_end', 'file_redirect'].includes(tail.type)) continue;
      if (tail.type !== 'pipeline') {
        this.statement(tail, state, depth, undefined);
        continue;
      }
      // `cat <<EOF | sh`: the heredoc's text is what the next stage reads.
      let input = this.stageOutput(node, state, depth);
      for (const stage of tail.namedChildren) {
        if (!stage) continue;
        this.statement(stage, copyState(state), depth, input);
        input = this.stageOutput(stage, state, depth);
      }
    }
  }

  private command(
    node: Node,
    outer: Node[],
    state: ShellState,
    depth: number,
    stdin: string | undefined,
  ): void {
    const words: ShellWord[] = [];
    const assignments: Node[] = [];
    const redirects = [...outer];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'variable_assignment') assignments.push(child);
      else if (child.type.endsWith('_redirect')) redirects.push(child);
      else if (child.type === 'command_name')
        words.push(...this.words(child.namedChildren[0] ?? child, state, depth));
      else words.push(...this.words(child, state, depth));
    }
    const herein = redirectInput(redirects, state, this) ?? stdin;
    // `A=1 cmd` sets A for cmd only; a bare `A=1` sets it for the rest of the shell.
    const own = words.length > 0 ? copyState(state) : state;
    for (const a of assignments) this.assign(a, own, depth);
    this.redirections(redirects, state, depth);
    if (words.length === 0) return;
    const input = redirects.find(
      (r) => r.type === 'file_redirect' && r.children.some((c) => c?.text === '<'),
    );
    const inputFile = input?.childForFieldName('destination');
    commandEffects(words, {
      state: own,
      shellState: state,
      stdin: herein,
      stdinFile: inputFile ? this.word(inputFile, state, depth) : undefined,
      emit: (effect) => this.emit(effect, own),
      shell: (source, sameShell) => this.source(source, sameShell ? state : copyState(own), depth + 1),
    });
  }

  private redirections(redirects: Node[], state: ShellState, depth: number): void {
    for (const r of redirects) {
      if (r.type !== 'file_redirect') continue;
      const destination = r.childForFieldName('destination');
      if (!destination) continue;
      // tree-sitter-bash reads `N<>file` as `<` plus an error node: the operator is the text before the target.
      const op = redirectOperator(r, destination);
      const word = this.word(destination, state, depth);
      if (op === '<') this.emit({ kind: 'path', word, dirs: state.dirs, access: 'read', how: '`<`' }, state);
      else if ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(word.text))
        continue; // 2>&1: a descriptor
      else if (op !== '<&') {
        const how = `\`${op}\` redirection`;
        if (!word.exact) this.effects.push({ kind: 'unresolved', text: word.text, how });
        else this.emit({ kind: 'path', word, dirs: state.dirs, access: 'write', how }, state);
      }
    }
  }

  private assign(node: Node, state: ShellState, depth: number): void {
    const name = node.childForFieldName('name')?.text;
    const value = node.childForFieldName('value');
    if (!name) return;
    const append = node.children.some((c) => c?.type === '+=');
    if (value?.type === 'array') {
      const elements = value.namedChildren
        .filter((c): c is Node => c !== null)
        .flatMap((c) => this.words(c, state, depth));
      const before = append ? state.arrays.get(name) : [];
      state.arrays.set(
        name,
        before && elements.every((w) => w.exact && !w.glob) ? [...before, ...elements] : undefined,
      );
      state.vars.set(name, undefined);
      return;
    }
    const word = value ? this.word(value, state, depth) : { text: '', exact: true, glob: false };
    const runs = runsCodeVariable(name, word.exact ? word.text : undefined);
    if (runs) this.effects.push({ kind: 'unresolved', text: node.text, how: runs });
    const before = append ? state.vars.get(name) : '';
    state.vars.set(name, word.exact && before !== undefined ? before + word.text : undefined);
    state.arrays.delete(name);
  }

  /**
   * A word as the words bash makes of it: an unquoted expansion of a known value is split on blanks, an array
   * expansion (`"${a[@]}"`, `${a[*]}`) of a known array gives its elements; anything else is one word.
   */
  words(node: Node, state: ShellState, depth: number): ShellWord[] {
    const quoted = node.type === 'string' && node.namedChildren.length === 1;
    const inner = quoted ? node.namedChildren[0]! : node;
    if (inner.type === 'expansion') {
      const elements = arrayElements(inner, state);
      if (elements !== undefined) {
        if (quoted && /\[\*\]$/.test(inner.namedChildren[0]?.text ?? ''))
          return [{ text: elements.map((e) => e.text).join(' '), exact: true, glob: false }];
        return elements;
      }
    }
    const word = this.word(node, state, depth);
    if ((node.type === 'simple_expansion' || node.type === 'expansion') && word.exact) {
      const parts = word.text.split(/[ \t\n]+/).filter((p) => p !== '');
      return parts.map((p) => ({ text: p, exact: true, glob: /[*?[]/.test(p) }));
    }
    return [word];
  }

  /** Expands a word node; substitutions inside it are read as the commands they are. */
  word(node: Node, state: ShellState, depth: number): ShellWord {
    switch (node.type) {
      case 'word':
      case 'number':
        return expandUnquoted(node.text, state);
      case 'raw_string':
        return { text: node.text.slice(1, -1), exact: true, glob: false };
      case 'ansi_c_string': {
        const text = decodeAnsiC(node.text.slice(2, -1));
        return text === undefined
          ? { text: node.text, exact: false, glob: false }
          : { text, exact: true, glob: false };
      }
      case 'string_content':
        return { text: node.text.replace(/\\([$`"\\\n])/g, '$1'), exact: true, glob: false };
      case 'simple_expansion':
      case 'expansion':
        return expandVariable(node, state);
      case 'command_substitution':
      case 'process_substitution':
        for (const child of node.namedChildren)
          if (child) this.statement(child, copyState(state), depth, undefined);
        return { text: node.text, exact: false, glob: false };
      case 'string':
      case 'translated_string':
      case 'concatenation': {
        const children = node.namedChildren.filter((c): c is Node => c !== null);
        const parts = children.map((c) => this.word(c, state, depth));
        if (node.type !== 'concatenation' && parts.length === 0)
          return { text: '', exact: true, glob: false };
        // Inside quotes tree-sitter-bash leaves line breaks (and other literal text) between its string_content
        // nodes: they are part of the word ("line 1<newline>line 2" is one word with a newline in it).
        const gap = (i: number): string =>
          node.type === 'concatenation' || i === 0
            ? ''
            : node.text.slice(
                children[i - 1]!.endIndex - node.startIndex,
                children[i]!.startIndex - node.startIndex,
              );
        return {
          text: parts.every((p) => p.exact) ? parts.map((p, i) => gap(i) + p.text).join('') : node.text,
          exact: parts.every((p) => p.exact),
          glob: node.type === 'concatenation' && parts.some((p) => p.glob),
        };
      }
      default:
        for (const child of node.namedChildren)
          if (child) this.statement(child, copyState(state), depth, undefined);
        return { text: node.text, exact: false, glob: false };
    }
  }
}

function isWordNode(type: string): boolean {
  return [
    'word',
    'string',
    'raw_string',
    'concatenation',
    'command_substitution',
    'process_substitution',
    'simple_expansion',
    'expansion',
  ].includes(type);
}

function expandUnquoted(text: string, state: ShellState): ShellWord {
  const out = expandTilde(text, state);
  if (out === undefined) return { text, exact: false, glob: false };
  // Unquoted glob characters are live; a backslash makes the next character literal.
  const glob = /(^|[^\\])[*?[]/.test(out) || /(^|[^\\])\{[^}]*,[^}]*\}/.test(out);
  return { text: out.replace(/\\(.)/g, '$1'), exact: true, glob };
}

function expandVariable(node: Node, state: ShellState): ShellWord {
  const nameNode = node.namedChildren.find(
    (c) => c?.type === 'variable_name' || c?.type === 'special_variable_name',
  );
  const plain = node.type === 'simple_expansion' || node.namedChildren.length === 1;
  const name = nameNode?.text;
  if (name && plain && nameNode?.type === 'variable_name') {
    if (name === 'PWD' && state.dirs?.length === 1) return { text: state.dirs[0]!, exact: true, glob: false };
    const value = state.vars.get(name);
    if (value !== undefined) return { text: value, exact: true, glob: false };
  }
  return { text: node.text, exact: false, glob: false };
}

/** A heredoc's or herestring's text, when the command reads one. */
function redirectInput(redirects: Node[], state: ShellState, reader: Reader): string | undefined {
  for (const r of redirects) {
    if (r.type === 'heredoc_redirect')
      return r.namedChildren.find((c) => c?.type === 'heredoc_body')?.text ?? '';
    if (r.type === 'herestring_redirect') {
      const value = r.namedChildren[0];
      return value ? reader.word(value, state, 0).text : '';
    }
  }
  return undefined;
}

/** What a pipeline stage writes to the next one, when it is plain text (echo, printf, cat <<EOF). */

/** The elements of `${a[@]}` / `${a[*]}` when `a` is an array the reader knows (undefined otherwise). */
function arrayElements(node: Node, state: ShellState): ShellWord[] | undefined {
  if (node.namedChildren.length !== 1) return undefined; // ${a[@]:1}, ${a[@]/x/y}: not followed
  const subscript = node.namedChildren[0];
  if (subscript?.type !== 'subscript') return undefined;
  const name = subscript.childForFieldName('name')?.text ?? subscript.namedChildren[0]?.text;
  const index = subscript.childForFieldName('index')?.text ?? subscript.namedChildren[1]?.text;
  if (!name || (index !== '@' && index !== '*')) return undefined;
  return state.arrays.get(name);
}

export function copyState(state: ShellState): ShellState {
  return {
    dirs: state.dirs ? [...state.dirs] : undefined,
    stack: state.stack.map((d) => (d ? [...d] : undefined)),
    vars: new Map(state.vars),
    arrays: new Map(state.arrays),
    files: state.files,
  };
}

/** A copy in which no variable or array has a known value. */
function unknownVariables(state: ShellState): ShellState {
  const copy = copyState(state);
  for (const name of copy.vars.keys()) copy.vars.set(name, undefined);
  for (const name of copy.arrays.keys()) copy.arrays.set(name, undefined);
  return copy;
}

function replaceState(target: ShellState, source: ShellState): void {
  target.dirs = source.dirs;
  target.stack = source.stack;
  target.vars = source.vars;
  target.arrays = source.arrays;
}

/** After branches: every directory any of them may have left; a variable they disagree on is unknown. */
function mergeInto(target: ShellState, others: ShellState[]): void {
  for (const other of others) {
    if (target.dirs === undefined || other.dirs === undefined) target.dirs = undefined;
    else {
      const union = [...new Set([...target.dirs, ...other.dirs])];
      target.dirs = union.length > MAX_DIRS ? undefined : union;
    }
    for (const [name, value] of other.vars)
      if (target.vars.get(name) !== value) target.vars.set(name, undefined);
    for (const name of target.vars.keys()) if (!other.vars.has(name)) target.vars.set(name, undefined);
    for (const [name, value] of other.arrays)
      if (JSON.stringify(target.arrays.get(name)) !== JSON.stringify(value))
        target.arrays.set(name, undefined);
    for (const name of target.arrays.keys()) if (!other.arrays.has(name)) target.arrays.set(name, undefined);
  }
}
