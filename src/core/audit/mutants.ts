// Mutants of one file's text inside given line ranges: every operator (operators.ts) at every node of the
// tree-sitter tree that starts in a range, minus the ones that do not parse (a mutant that is a syntax error
// tells nothing about the tests). The tree and every re-parse are released as soon as they are read.
import type { Node } from 'web-tree-sitter';
import type { Range, TreeSitterHost } from '../index';
import { mutationsAt, type MutableLanguage, type MutationOperator } from './operators';

export interface Mutant {
  /** Stable within one text: file, offsets, operator and replacement. */
  id: string;
  /** Workspace-relative, '/'-separated. */
  file: string;
  /** 1-based, for people and editors. */
  line: number;
  column: number;
  operator: MutationOperator;
  /** UTF-16 offsets into the file's text. */
  start: number;
  end: number;
  original: string;
  replacement: string;
}

export async function mutantsOfFile(
  host: TreeSitterHost,
  file: string,
  language: MutableLanguage,
  text: string,
  ranges: readonly Range[],
): Promise<Mutant[]> {
  const lang = await host.language(language);
  const tree = host.parse(lang, text);
  const found: Mutant[] = [];
  try {
    const visit = (node: Node): void => {
      if (node.type === 'comment') return;
      if (inRanges(node.startPosition.row, ranges)) {
        for (const edit of mutationsAt(node, language)) {
          found.push({
            id: `${file}@${edit.start}-${edit.end}:${edit.operator}:${edit.replacement}`,
            file,
            line: edit.row + 1,
            column: edit.column + 1,
            operator: edit.operator,
            start: edit.start,
            end: edit.end,
            original: edit.original,
            replacement: edit.replacement,
          });
        }
      }
      for (const child of node.children) if (child) visit(child);
    };
    visit(tree.rootNode);
  } finally {
    host.release(tree);
  }
  const unique = new Map(found.map((m) => [m.id, m]));
  const parses: Mutant[] = [];
  for (const mutant of unique.values()) {
    const mutatedTree = host.parse(lang, applyMutant(text, mutant));
    try {
      if (!mutatedTree.rootNode.hasError) parses.push(mutant);
    } finally {
      host.release(mutatedTree);
    }
  }
  return parses.sort((a, b) => a.start - b.start || a.id.localeCompare(b.id));
}

export function applyMutant(text: string, mutant: Pick<Mutant, 'start' | 'end' | 'replacement'>): string {
  return text.slice(0, mutant.start) + mutant.replacement + text.slice(mutant.end);
}

/** The mutant as a unified diff of the lines it touches (what a person reads to see the hole). */
export function mutantDiff(text: string, mutant: Mutant): string {
  const lineStart = text.lastIndexOf('\n', mutant.start - 1) + 1;
  const nextNewline = text.indexOf('\n', mutant.end);
  const lineEnd = nextNewline === -1 ? text.length : nextNewline;
  const before = text.slice(lineStart, lineEnd).split('\n');
  const after = applyMutant(text, mutant)
    .slice(lineStart, lineEnd + mutant.replacement.length - (mutant.end - mutant.start))
    .split('\n');
  return [
    `--- a/${mutant.file}`,
    `+++ b/${mutant.file}`,
    `@@ -${mutant.line},${before.length} +${mutant.line},${after.length} @@`,
    ...before.map((l) => `-${l}`),
    ...after.map((l) => `+${l}`),
  ].join('\n');
}

function inRanges(row: number, ranges: readonly Range[]): boolean {
  return ranges.some((r) => row >= r.start.line && row <= r.end.line);
}
