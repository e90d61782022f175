// Anchor syntax: `path/to/file` or `path/to/file#Symbol.path` (e.g. `src/client.js#Client.get`). The spec loader
// only checks the syntax; resolving the symbol with tree-sitter is the index's job.

export interface ParsedAnchor {
  /** Workspace-relative file path with forward slashes and no leading `./`. */
  file: string;
  /** Dotted symbol path such as `Client.get`, when the anchor names one. */
  symbol?: string;
}

const SYMBOL_SEGMENT = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/** Why a workspace-relative path is unusable, or undefined when it is fine. */
export function relativePathProblem(path: string): string | undefined {
  if (path.trim() === '') return 'must not be empty';
  if (path !== path.trim()) return 'must not start or end with spaces';
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path) || path.startsWith('~')) {
    return `"${path}" is absolute: write it relative to the workspace folder`;
  }
  if (path.includes('\\')) return `"${path}" uses backslashes: write forward slashes (src/app.js)`;
  const segments = path.replace(/^\.\//, '').split('/');
  if (segments.includes('..')) return `"${path}" leaves the workspace folder ('..' is not allowed)`;
  if (segments.some((s) => s === '' || s === '.')) return `"${path}" has an empty or '.' segment`;
  return undefined;
}

/** Why an anchor is malformed, or undefined when its syntax is fine. */
export function anchorProblem(anchor: string): string | undefined {
  const hash = anchor.indexOf('#');
  const file = hash === -1 ? anchor : anchor.slice(0, hash);
  const symbol = hash === -1 ? undefined : anchor.slice(hash + 1);
  if (file === '')
    return `anchor "${anchor}" has no file before '#' (write file#Symbol, e.g. src/client.js#Client.get)`;
  if (file.endsWith('/')) return `anchor "${anchor}" names a directory: anchor a file or file#Symbol`;
  const fileProblem = relativePathProblem(file);
  if (fileProblem !== undefined) return `anchor ${fileProblem}`;
  if (/[*?[\]{}]/.test(file)) return `anchor "${anchor}" contains a glob character: anchor one file`;
  if (symbol === undefined) return undefined;
  if (symbol === '') return `anchor "${anchor}" has nothing after '#': name a symbol or drop the '#'`;
  if (symbol.includes('#')) return `anchor "${anchor}" has more than one '#'`;
  const segments = symbol.split('.');
  if (segments.includes(''))
    return `anchor "${anchor}" has an empty part in its symbol path (write Class.method)`;
  const bad = segments.find((segment) => !SYMBOL_SEGMENT.test(segment));
  if (bad !== undefined) {
    return `anchor "${anchor}": "${bad}" is not a symbol name (write Class.method, dot-separated identifiers)`;
  }
  return undefined;
}

/** Splits a syntactically valid anchor (see `anchorProblem`) into file and symbol. */
export function parseAnchor(anchor: string): ParsedAnchor {
  const hash = anchor.indexOf('#');
  const file = (hash === -1 ? anchor : anchor.slice(0, hash)).replace(/^\.\//, '');
  return hash === -1 ? { file } : { file, symbol: anchor.slice(hash + 1) };
}
