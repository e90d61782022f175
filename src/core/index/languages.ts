// The language registry: which file extensions Weave indexes, with which grammar, and which query files
// (in grammars/queries/<dir>/) are joined into that language's one extraction query.
import path from 'node:path';
import type { LanguageId } from './types';

export interface LanguageSpec {
  id: LanguageId;
  /** grammars/<wasm> */
  wasm: string;
  /**
   * Query files joined in this order: the stock tags (TypeScript's joins JavaScript's, ARCHITECTURE.md "Notes"), then our
   * own definitions.scm (extra definitions, qualifier scopes) and imports.scm. One joined query means one
   * walk of the tree per file.
   */
  queries: string[];
}

const typescriptQueries = [
  'javascript/tags.scm',
  'typescript/tags.scm',
  'typescript/definitions.scm',
  'typescript/imports.scm',
];

export const languages: Record<LanguageId, LanguageSpec> = {
  typescript: { id: 'typescript', wasm: 'typescript.wasm', queries: typescriptQueries },
  // TSX is TypeScript's grammar plus JSX, and the grammar package ships one set of queries for both.
  tsx: { id: 'tsx', wasm: 'tsx.wasm', queries: typescriptQueries },
  javascript: {
    id: 'javascript',
    wasm: 'javascript.wasm',
    queries: ['javascript/tags.scm', 'javascript/definitions.scm', 'javascript/imports.scm'],
  },
  python: {
    id: 'python',
    wasm: 'python.wasm',
    queries: ['python/tags.scm', 'python/definitions.scm', 'python/imports.scm'],
  },
  go: { id: 'go', wasm: 'go.wasm', queries: ['go/tags.scm', 'go/definitions.scm', 'go/imports.scm'] },
  rust: {
    id: 'rust',
    wasm: 'rust.wasm',
    queries: ['rust/tags.scm', 'rust/definitions.scm', 'rust/imports.scm'],
  },
  java: {
    id: 'java',
    wasm: 'java.wasm',
    queries: ['java/tags.scm', 'java/definitions.scm', 'java/imports.scm'],
  },
};

const byExtension: Record<string, LanguageId> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  // tree-sitter-javascript parses JSX.
  '.jsx': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
};

/** The language of a file by its extension, or undefined when Weave has no grammar for it. */
export function languageOfPath(file: string): LanguageId | undefined {
  return byExtension[path.extname(file).toLowerCase()];
}

export const languageIds = Object.keys(languages) as LanguageId[];
