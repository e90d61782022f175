// One thread's tree-sitter: the WebAssembly runtime, the grammars and their joined extraction queries,
// loaded once and on first use. Every tree goes through parse()/release() so the number of live trees can
// be counted (a tree that is never deleted leaks WebAssembly memory, which the GC cannot see).
import fs from 'node:fs';
import path from 'node:path';
import { Edit, Language, Parser, Query, type Tree } from 'web-tree-sitter';
import { languages } from './languages';
import type { GrammarLocation } from '../grammarLocation';
import type { ParseHost } from './syntax';
import type { DocumentEdit, LanguageId } from './types';

export interface LoadedLanguage {
  id: LanguageId;
  /** web-tree-sitter's parse host (see nativeTreeSitter.ts for the other). */
  parser: 'wasm';
  wasmParser: Parser;
  query: Query;
}

// Stock tags queries capture leading doc comments (`(comment)* @doc .`) and post-process them with the
// `#strip!` / `#select-adjacent!` / `#set-adjacent!` directives. Weave does not use doc comments, so both are
// removed before compiling: the definitions matched are the same, and the query walks ~40% faster.
const docCommentPrefix = /\(comment\)\*\s*@doc\s*\.\s*/g;
const docDirectives = /\(#(?:strip|select-adjacent|set-adjacent)!(?:[^()"]|"(?:[^"\\]|\\.)*")*\)\s*/g;

export function joinedQuerySource(grammarsDir: string, id: LanguageId): string {
  return languages[id].queries
    .map((q) => fs.readFileSync(path.join(grammarsDir, 'queries', q), 'utf8'))
    .join('\n')
    .replace(docCommentPrefix, '')
    .replace(docDirectives, '');
}

export class TreeSitterHost implements ParseHost {
  private initialized: Promise<void> | undefined;
  private readonly loaded = new Map<LanguageId, Promise<LoadedLanguage>>();
  private liveTrees = 0;

  constructor(private readonly location: GrammarLocation) {}

  /** Trees parsed by this host and not yet released. */
  get liveTreeCount(): number {
    return this.liveTrees;
  }

  language(id: LanguageId): Promise<LoadedLanguage> {
    let entry = this.loaded.get(id);
    if (!entry) {
      entry = this.load(id);
      this.loaded.set(id, entry);
    }
    return entry;
  }

  parse(lang: LoadedLanguage, text: string, oldTree?: Tree): Tree {
    const tree = lang.wasmParser.parse(text, oldTree ?? null);
    if (!tree) throw new Error(`tree-sitter returned no tree for a ${lang.id} document`);
    this.liveTrees++;
    return tree;
  }

  /** Re-parse after `edit`; the old tree is edited, used, and released. */
  reparse(lang: LoadedLanguage, oldTree: Tree, edit: DocumentEdit, text: string): Tree {
    oldTree.edit(
      new Edit({
        startIndex: edit.startIndex,
        oldEndIndex: edit.oldEndIndex,
        newEndIndex: edit.newEndIndex,
        startPosition: { row: edit.startPosition.line, column: edit.startPosition.column },
        oldEndPosition: { row: edit.oldEndPosition.line, column: edit.oldEndPosition.column },
        newEndPosition: { row: edit.newEndPosition.line, column: edit.newEndPosition.column },
      }),
    );
    try {
      return this.parse(lang, text, oldTree);
    } finally {
      this.release(oldTree);
    }
  }

  release(tree: Tree): void {
    tree.delete();
    this.liveTrees--;
  }

  dispose(): void {
    for (const entry of this.loaded.values()) {
      void entry.then(
        (l) => {
          l.query.delete();
          l.wasmParser.delete();
        },
        () => undefined,
      );
    }
    this.loaded.clear();
  }

  private async load(id: LanguageId): Promise<LoadedLanguage> {
    this.initialized ??= Parser.init({ locateFile: () => this.location.runtimeWasm });
    await this.initialized;
    const language = await Language.load(path.join(this.location.grammarsDir, languages[id].wasm));
    const parser = new Parser();
    parser.setLanguage(language);
    let query: Query;
    try {
      query = new Query(language, joinedQuerySource(this.location.grammarsDir, id));
    } catch (error) {
      parser.delete();
      throw new Error(
        `the ${id} queries do not compile: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    return { id, parser: 'wasm', wasmParser: parser, query };
  }
}
