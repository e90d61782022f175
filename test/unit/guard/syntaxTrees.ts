// Both shell parsers' trees as text, for comparing them: one line a node, its fields, type, range and text.
import type { SyntaxNode } from '../../../src/cli/guard/shellSyntax';

const FIELDS = ['name', 'argument', 'body', 'redirect', 'destination', 'descriptor', 'value', 'operator'];

export function treeText(node: SyntaxNode, indent = '', fields: string[] = []): string {
  const own =
    `${indent}${fields.length > 0 ? fields.join(',') + ': ' : ''}` +
    `${node.isNamed ? node.type : JSON.stringify(node.type)} [${node.startIndex},${node.endIndex}] ` +
    JSON.stringify(node.text);
  const lines = [own];
  for (const child of node.children) {
    if (!child) continue;
    const on = FIELDS.filter((f) => node.childrenForFieldName(f).some((c) => c?.id === child.id));
    lines.push(treeText(child, indent + '  ', on));
  }
  return lines.join('\n');
}
