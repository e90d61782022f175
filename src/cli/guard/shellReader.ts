// Reads a shell command the way bash would run it, from tree-sitter-bash's syntax tree: lists, pipelines,
// subshells, compound commands (if/while/for/case, { … }, functions), redirections, heredocs, herestrings, and
// command/process substitutions (which run too). It tracks what decides where a path lands: the working
// directory through `cd`, `pushd`/`popd`, `env -C` and subshells (a subshell's `cd` ends with it; after
// if/case/loops every directory a branch may have left is kept), and variables assigned in the command itself.
// What each simple command does with its words is commands/'s job; this file hands it resolved words and
// collects the effects it reports. Nothing here decides what is protected (hookEvents.ts does).
import path from 'node:path';
import type { Node, Parser } from 'web-tree-sitter';
import { withBashTree } from './bashSyntax';
import { commandEffects } from './commands/dispatch';
import type { ShellEffect, ShellState, ShellWord } from './shellTypes';

const MAX_DEPTH = 6;
const MAX_DIRS = 8;
/** Environment variables whose value the guard may use: the agent's shell has the same ones. */
const KNOWN_ENV = ['HOME', 'CLAUDE_PROJECT_DIR', 'CURSOR_PROJECT_DIR', 'TMPDIR'];

export function readShell(bash: Parser, source: string, cwd: string): ShellEffect[] {
  const effects: ShellEffect[] = [];
  const vars = new Map<string, string | undefined>();
  for (const name of KNOWN_ENV) if (process.env[name] !== undefined) vars.set(name, process.env[name]);
  const reader = new Reader(bash, effects);
  reader.source(source, { dirs: [path.resolve(cwd)], stack: [], vars }, 0);
  return effects;
}

class Reader {
  constructor(
    private readonly bash: Parser,
    private readonly effects: ShellEffect[],
  ) {}

  source(text: string, state: ShellState, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.effects.push({ kind: 'unresolved', text: text.slice(0, 80), how: 'shell code nested too deep' });
      return;
    }
    withBashTree(this.bash, text, (root) => this.statements(root.namedChildren, state, depth));
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
        for (const child of node.namedChildren) if (child) this.statement(child, state, depth, undefined);
        mergeInto(state, [before]);
        return;
      }
      case 'function_definition': {
        // Read the body where it is defined: calling it later runs the same commands.
        const body = node.childForFieldName('body');
        if (body) this.statement(body, copyState(state), depth, undefined);
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
      stdin = stageOutput(stage);
    }
  }

  private redirected(node: Node, state: ShellState, depth: number, piped: string | undefined): void {
    const body = node.childForFieldName('body');
    const redirects = node.childrenForFieldName('redirect').filter((r): r is Node => r !== null);
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
        words.push(this.word(child.namedChildren[0] ?? child, state, depth));
      else words.push(this.word(child, state, depth));
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
      emit: (effect) => this.effects.push(effect),
      shell: (source, sameShell) => this.source(source, sameShell ? state : copyState(own), depth + 1),
    });
  }

  private redirections(redirects: Node[], state: ShellState, depth: number): void {
    for (const r of redirects) {
      if (r.type !== 'file_redirect') continue;
      const op = r.children.find((c) => c && !c.isNamed)?.text ?? '>';
      const destination = r.childForFieldName('destination');
      if (!destination) continue;
      const word = this.word(destination, state, depth);
      if (op === '<') this.effects.push({ kind: 'path', word, dirs: state.dirs, access: 'read', how: '`<`' });
      else if ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(word.text))
        continue; // 2>&1: a descriptor
      else if (op !== '<&') {
        const how = `\`${op}\` redirection`;
        if (!word.exact) this.effects.push({ kind: 'unresolved', text: word.text, how });
        else this.effects.push({ kind: 'path', word, dirs: state.dirs, access: 'write', how });
      }
    }
  }

  private assign(node: Node, state: ShellState, depth: number): void {
    const name = node.childForFieldName('name')?.text;
    const value = node.childForFieldName('value');
    const word = value ? this.word(value, state, depth) : { text: '', exact: true, glob: false };
    if (name) state.vars.set(name, word.exact ? word.text : undefined);
  }

  /** Expands a word node; substitutions inside it are read as the commands they are. */
  word(node: Node, state: ShellState, depth: number): ShellWord {
    switch (node.type) {
      case 'word':
      case 'number':
        return expandUnquoted(node.text, state);
      case 'raw_string':
        return { text: node.text.slice(1, -1), exact: true, glob: false };
      case 'ansi_c_string':
        return { text: node.text.slice(2, -1).replace(/\\(.)/g, '$1'), exact: true, glob: false };
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
  let out = text;
  if (out === '~' || out.startsWith('~/')) {
    const home = state.vars.get('HOME');
    if (home === undefined) return { text, exact: false, glob: false };
    out = home + out.slice(1);
  }
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
function stageOutput(stage: Node): string | undefined {
  const command = stage.type === 'redirected_statement' ? stage.childForFieldName('body') : stage;
  if (command?.type !== 'command') return undefined;
  const name = command.childForFieldName('name')?.text;
  if (name === 'cat' && stage.type === 'redirected_statement') {
    const heredoc = stage.childrenForFieldName('redirect').find((r) => r?.type === 'heredoc_redirect');
    return heredoc?.namedChildren.find((c) => c?.type === 'heredoc_body')?.text;
  }
  if (name === 'echo' || name === 'printf')
    return command
      .childrenForFieldName('argument')
      .map((a) => a?.text ?? '')
      .join(' ');
  return undefined;
}

export function copyState(state: ShellState): ShellState {
  return {
    dirs: state.dirs ? [...state.dirs] : undefined,
    stack: state.stack.map((d) => (d ? [...d] : undefined)),
    vars: new Map(state.vars),
  };
}

function replaceState(target: ShellState, source: ShellState): void {
  target.dirs = source.dirs;
  target.stack = source.stack;
  target.vars = source.vars;
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
  }
}
