// The anchor picker's search over the tree-sitter workspace index: files and symbols whose path or
// qualified name contains the query, best matches first. Pure (no 'vscode'); the extension hands it the
// index's files (`searchSymbols: (q) => matchAnchors(index.files.values(), q)`).
import type { FileIndex } from './types';
import type { SymbolMatch } from '../../shared/protocol';

/** `cache` finds `src/cache.js` and `LruCache.get`; `cache.js#get` narrows to symbols of matching files. */
export function matchAnchors(files: Iterable<FileIndex>, query: string, limit = 50): SymbolMatch[] {
  const hash = query.indexOf('#');
  const fileQuery = (hash === -1 ? '' : query.slice(0, hash)).trim().toLowerCase();
  const symbolQuery = (hash === -1 ? query : query.slice(hash + 1)).trim().toLowerCase();
  const scored: Array<{ score: number; match: SymbolMatch }> = [];

  for (const file of files) {
    const path = file.path.toLowerCase();
    if (fileQuery && !path.includes(fileQuery)) continue;
    if (hash === -1) {
      const score = rank(path, symbolQuery, baseName(path));
      if (score > 0)
        scored.push({ score: score + 1, match: { anchor: file.path, file: file.path, kind: 'file' } });
    }
    for (const symbol of file.symbols) {
      const name = symbol.qualifiedName.toLowerCase();
      const score = symbolQuery ? rank(name, symbolQuery, symbol.name.toLowerCase()) : 1;
      if (score === 0) continue;
      scored.push({
        score,
        match: {
          anchor: `${file.path}#${symbol.qualifiedName}`,
          file: file.path,
          qualifiedName: symbol.qualifiedName,
          kind: symbol.kind,
          line: symbol.nameRange.start.line,
        },
      });
    }
  }
  scored.sort((a, b) => b.score - a.score || a.match.anchor.localeCompare(b.match.anchor));
  return scored.slice(0, limit).map((s) => s.match);
}

/** 0 = no match; exact beats prefix of the simple name beats prefix beats substring. */
function rank(text: string, query: string, simple: string): number {
  if (!query) return 0;
  if (text === query || simple === query) return 40;
  if (simple.startsWith(query)) return 30;
  if (text.startsWith(query)) return 20;
  return text.includes(query) ? 10 : 0;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
