// What the index reads from a tree-sitter tree, as structural types that both parsers satisfy: web-tree-sitter
// (WebAssembly, everywhere) and the native `tree-sitter` Node binding (the CLI's worker threads, when it loads).
// Extraction (extract.ts) is written against these, so both parsers go through the same code.
import type { LanguageId } from './types';

export interface SyntaxPoint {
  row: number;
  column: number;
}

export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: SyntaxPoint;
  readonly endPosition: SyntaxPoint;
  readonly parent: SyntaxNode | null;
  readonly hasError: boolean;
  childForFieldName(fieldName: string): SyntaxNode | null;
  /** The subtree as an S-expression. */
  toString(): string;
}

export interface SyntaxTree {
  readonly rootNode: SyntaxNode;
}

export interface ExtractionQuery {
  matches(node: SyntaxNode): Array<{ captures: Array<{ name: string; node: SyntaxNode }> }>;
}

/** Which tree-sitter parsed: the native Node binding or web-tree-sitter's WebAssembly build. */
export type ParserKind = 'native' | 'wasm';

/** A language as a parse host loaded it: its joined extraction query (languages.ts) and who parses it. */
export interface ParsingLanguage {
  id: LanguageId;
  parser: ParserKind;
  query: ExtractionQuery;
}

/** One thread's parser: loads languages, parses text, and counts the trees not yet released. */
export interface ParseHost {
  language(id: LanguageId): Promise<ParsingLanguage>;
  parse(lang: ParsingLanguage, text: string): SyntaxTree;
  release(tree: SyntaxTree): void;
  readonly liveTreeCount: number;
  dispose(): void;
}
