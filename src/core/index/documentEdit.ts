// Builds the tree-sitter edit for a text change given as an offset, a deleted length and the inserted text
// (VS Code's TextDocumentContentChangeEvent: rangeOffset, rangeLength, text), all in UTF-16 code units.
import type { DocumentEdit, Position } from './types';

export function documentEditFor(
  oldText: string,
  offset: number,
  deletedLength: number,
  inserted: string,
): DocumentEdit {
  const startPosition = positionAt(oldText, offset);
  const oldEndPosition = positionAt(oldText, offset + deletedLength);
  const insertedLines = inserted.split('\n');
  const newEndPosition: Position =
    insertedLines.length === 1
      ? { line: startPosition.line, column: startPosition.column + inserted.length }
      : {
          line: startPosition.line + insertedLines.length - 1,
          column: insertedLines[insertedLines.length - 1]!.length,
        };
  return {
    startIndex: offset,
    oldEndIndex: offset + deletedLength,
    newEndIndex: offset + inserted.length,
    startPosition,
    oldEndPosition,
    newEndPosition,
  };
}

function positionAt(text: string, offset: number): Position {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart };
}
