// The syntax tree the shell reader (shellReader.ts) walks: the part of web-tree-sitter's Node it uses. Two parsers
// make such trees: tree-sitter-bash (bashSyntax.ts, WebAssembly: ~40 ms of CPU to compile and start in a hook
// process) and plainShell.ts (plain commands only, the same tree tree-sitter-bash makes of them, in microseconds).
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly id: number;
  readonly startIndex: number;
  readonly endIndex: number;
  /** A grammar rule (`command`, `word`), not a token spelled out in the grammar (`&&`, `"`). */
  readonly isNamed: boolean;
  readonly children: ReadonlyArray<SyntaxNode | null>;
  readonly namedChildren: ReadonlyArray<SyntaxNode | null>;
  childForFieldName(name: string): SyntaxNode | null;
  childrenForFieldName(name: string): ReadonlyArray<SyntaxNode | null>;
}

/** Parses `source` and hands its root to `read` (a tree-sitter tree is deleted afterwards). */
export type ShellParse = <T>(source: string, read: (root: SyntaxNode) => T) => T;
