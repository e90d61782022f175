// Changes to specs.json text that keep the user's comments and formatting: each function returns jsonc-parser
// text edits (offset, length, content), which the extension turns into a WorkspaceEdit.
import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parseTree,
  type Edit,
  type FormattingOptions,
} from 'jsonc-parser';
import type { SpecFileInput } from '../../shared/specSchema';

export type SpecInput = SpecFileInput['specs'][number];
export type { Edit as TextEdit };

/** Appends a spec to `specs` (creating the array if the file has none). */
export function addSpec(text: string, spec: SpecInput): Edit[] {
  const specs = specsArray(text);
  const index = specs?.children?.length ?? 0;
  return modify(text, ['specs', index], spec, {
    formattingOptions: detectFormatting(text),
    isArrayInsertion: true,
  });
}

/**
 * Sets the given fields of spec `id`; a field set to `undefined` is removed. Returns one edit spanning the
 * changed region, so it can be applied to the original text in one step.
 */
export function updateSpec(
  text: string,
  id: string,
  fields: Partial<Record<keyof SpecInput, unknown>>,
): Edit[] {
  const index = specIndex(text, id);
  const formattingOptions = detectFormatting(text);
  let updated = text;
  for (const [field, value] of Object.entries(fields)) {
    updated = applyEdits(updated, modify(updated, ['specs', index, field], value, { formattingOptions }));
  }
  return singleEdit(text, updated);
}

/** Removes spec `id` (and the comma that separated it). References to it from other specs are left to the caller. */
export function removeSpec(text: string, id: string): Edit[] {
  return modify(text, ['specs', specIndex(text, id)], undefined, {
    formattingOptions: detectFormatting(text),
  });
}

export { applyEdits as applyTextEdits };

function specsArray(text: string) {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const specs = root === undefined ? undefined : findNodeAtLocation(root, ['specs']);
  return specs?.type === 'array' ? specs : undefined;
}

function specIndex(text: string, id: string): number {
  const items = specsArray(text)?.children ?? [];
  const index = items.findIndex((item) => {
    const idNode = findNodeAtLocation(item, ['id']);
    return idNode?.value === id;
  });
  if (index === -1) throw new Error(`no spec with id "${id}" in the spec file`);
  return index;
}

/** Indentation and line ending as the file already uses them (two spaces and \n for a new file). */
function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indents = text.split(/\r?\n/).flatMap((line) => /^([ \t]+)\S/.exec(line)?.[1] ?? []);
  if (indents.some((indent) => indent.startsWith('\t'))) return { insertSpaces: false, tabSize: 1, eol };
  const smallest = indents.reduce((min, indent) => Math.min(min, indent.length), Infinity);
  return { insertSpaces: true, tabSize: Number.isFinite(smallest) ? smallest : 2, eol };
}

function singleEdit(before: string, after: string): Edit[] {
  if (before === after) return [];
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  return [{ offset: start, length: endBefore - start, content: after.slice(start, endAfter) }];
}
