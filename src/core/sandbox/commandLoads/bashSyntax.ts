// The shell grammar Weave reads commands with (agents' commands in the guard, spec test commands in the
// protected set): tree-sitter-bash (grammars/bash.wasm, copied from the npm package by scripts/copy-grammars.mjs)
// on the same web-tree-sitter runtime the index uses. The grammar is loaded once per process, on first use, and
// every tree is deleted after its walk.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Language, Parser, type Node } from 'web-tree-sitter';
import { locateGrammars } from '../../grammarLocation';

let parser: Promise<Parser> | undefined;

async function loadParser(): Promise<Parser> {
  const location = locateGrammars();
  await Parser.init({ locateFile: () => location.runtimeWasm });
  // The bytes, not the path: given a path, web-tree-sitter imports fs/promises to read it, which costs a guard hook
  // process ~10 ms of CPU to load.
  const language = await Language.load(readFileSync(path.join(location.grammarsDir, 'bash.wasm')));
  const loaded = new Parser();
  loaded.setLanguage(language);
  return loaded;
}

/** The bash parser, loaded once per process. */
export function bashParser(): Promise<Parser> {
  parser ??= loadParser();
  return parser;
}

/** Parses `source` and hands its root to `read`; the tree is deleted afterwards, whatever `read` does. */
export function withBashTree<T>(bash: Parser, source: string, read: (root: Node) => T): T {
  const tree = bash.parse(source);
  if (!tree) throw new Error('tree-sitter returned no tree for a shell command');
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
  }
}
