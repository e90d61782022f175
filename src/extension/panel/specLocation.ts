// Where a spec's object sits in specs.json, for "open spec": found on the text as it is now, so it works
// while the file is mid-edit (jsonc-parser recovers from most syntax errors).
import { findNodeAtLocation, parseTree } from 'jsonc-parser';

export function locateSpec(text: string, id: string): { offset: number; length: number } | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const specs = root ? findNodeAtLocation(root, ['specs']) : undefined;
  for (const spec of specs?.children ?? []) {
    const idNode = findNodeAtLocation(spec, ['id']);
    if (idNode?.value === id) return { offset: spec.offset, length: spec.length };
  }
  return undefined;
}
