// A spec's shell command as the simple commands it may run, each with its words after the expansions the reader
// can know (quotes removed, variables assigned earlier in the same command or in the spec's env substituted).
// Every simple command anywhere in the tree counts, in if/loop branches and command substitutions too: any of them
// may run. What the reader cannot know is kept as written with `exact: false`, so the caller can say so (deny by
// default) instead of guessing. `cd DIR` moves the following commands, as bash would.
import path from 'node:path';
import type { Node, Parser } from 'web-tree-sitter';
import { withBashTree } from './bashSyntax';

export interface Word {
  text: string;
  exact: boolean;
}

export interface SimpleCommand {
  words: Word[];
  /** Variables this command runs with: the spec's env, exports and assignments before it, its own prefix. */
  env: ReadonlyMap<string, string | undefined>;
  /** The folder it starts in (absolute; undefined once a `cd` the reader cannot follow ran). */
  cwd: string | undefined;
}

export interface ReadCommands {
  commands: SimpleCommand[];
  /** Parts of the source the reader could not read (a syntax error). */
  unreadable: string[];
}

export function readSimpleCommands(
  bash: Parser,
  source: string,
  cwd: string,
  env: ReadonlyMap<string, string | undefined>,
): ReadCommands {
  return withBashTree(bash, source, (root) => {
    const state: WalkState = { cwd, env: new Map(env), commands: [], unreadable: [] };
    walk(root, state);
    return { commands: state.commands, unreadable: state.unreadable };
  });
}

interface WalkState {
  cwd: string | undefined;
  env: Map<string, string | undefined>;
  commands: SimpleCommand[];
  unreadable: string[];
}

function walk(node: Node, state: WalkState): void {
  switch (node.type) {
    case 'ERROR':
      state.unreadable.push(`shell syntax the parser cannot read: ${clip(node.text)}`);
      return;
    case 'command':
      command(node, state);
      return;
    case 'variable_assignment':
      assign(node, state.env, state);
      return;
    case 'declaration_command':
      // export/declare/local/readonly X=Y: the value reaches the commands after it.
      for (const child of node.namedChildren)
        if (child?.type === 'variable_assignment') assign(child, state.env, state);
      return;
  }
  for (const child of node.namedChildren) if (child) walk(child, state);
}

function command(node: Node, state: WalkState): void {
  const env = new Map(state.env);
  const words: Word[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'variable_assignment') assign(child, env, state);
    else if (child.type === 'command_name') words.push(wordOf(child.namedChildren[0] ?? child, env));
    else if (child.type !== 'file_redirect' && child.type !== 'herestring_redirect')
      words.push(wordOf(child, env));
    // Substitutions inside the words run too.
    if (child.type !== 'variable_assignment') for (const inner of substitutions(child)) walk(inner, state);
  }
  if (words.length === 0) return;
  state.commands.push({ words, env, cwd: state.cwd });
  if (words[0]?.text === 'cd') {
    const target = words[1];
    state.cwd = target?.exact && state.cwd !== undefined ? path.resolve(state.cwd, target.text) : undefined;
  }
}

function assign(node: Node, env: Map<string, string | undefined>, state: WalkState): void {
  const name = node.childForFieldName('name')?.text;
  const value = node.childForFieldName('value');
  if (name === undefined) return;
  const word = value ? wordOf(value, env) : { text: '', exact: true };
  env.set(name, word.exact ? word.text : undefined);
  if (value) for (const inner of substitutions(value)) walk(inner, state);
}

function* substitutions(node: Node): Generator<Node> {
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'command_substitution' || child.type === 'process_substitution') yield child;
    else yield* substitutions(child);
  }
}

/** One word after quote removal and the expansions the reader knows. */
export function wordOf(node: Node, env: ReadonlyMap<string, string | undefined>): Word {
  switch (node.type) {
    case 'word':
    case 'number':
      return { text: node.text.replace(/\\(.)/g, '$1'), exact: true };
    case 'raw_string':
      return { text: node.text.slice(1, -1), exact: true };
    case 'string': {
      const parts = node.namedChildren.map((c) =>
        c?.type === 'string_content' ? { text: c.text, exact: true } : c ? wordOf(c, env) : undefined,
      );
      return join(parts, node.text);
    }
    case 'concatenation':
      return join(
        node.namedChildren.map((c) => (c ? wordOf(c, env) : undefined)),
        node.text,
      );
    case 'simple_expansion':
    case 'expansion': {
      const name = node.namedChildren.find((c) => c?.type === 'variable_name')?.text;
      const plain = node.type === 'simple_expansion' || /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(node.text);
      const value = name !== undefined && plain ? env.get(name) : undefined;
      return value === undefined ? { text: node.text, exact: false } : { text: value, exact: true };
    }
    default:
      return { text: node.text, exact: false };
  }
}

function join(parts: Array<Word | undefined>, written: string): Word {
  if (parts.some((p) => p === undefined || !p.exact)) return { text: written, exact: false };
  return { text: parts.map((p) => p!.text).join(''), exact: true };
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
