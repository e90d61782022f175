// The panel's add / update / remove of a spec as ONE text replacement of `.weave/specs.json`, composed from
// the spec model's comment-preserving edits (src/core/spec/edit.ts): only changed fields are rewritten, a
// rename carries over to the other specs' references and a removal drops them, so the file stays valid.
// The provider applies the result as a WorkspaceEdit (undoable). No 'vscode' here: unit-tested in plain Node.
import { parse, type ParseError } from 'jsonc-parser';
import { withTest } from './withTest';
import { addSpec, applyTextEdits, removeSpec, updateSpec, type SpecInput, type TextEdit } from './edit';
import type { Spec } from '../../shared/specSchema';

/** Replace `length` characters at `offset` with `content`. */
export type SpecTextEdit = TextEdit;

/** The edit cannot be made (bad file, unknown or duplicate id): the message is for the user. */
export class SpecEditError extends Error {}

const SPEC_KEYS = [
  'id',
  'title',
  'kind',
  'statement',
  'test',
  'anchors',
  'dependsOn',
  'interactsWith',
] as const;
const REFERENCE_FIELDS = ['dependsOn', 'interactsWith'] as const;

export function addSpecEdit(text: string, spec: Spec): SpecTextEdit {
  const doc = new SpecDocument(text);
  if (doc.has(spec.id)) throw new SpecEditError(`a spec with the id "${spec.id}" already exists`);
  doc.apply(addSpec(doc.text, canonicalSpec(spec)));
  return inFileStyle(text, doc.edit());
}

/** Longest line an array may be joined onto (the demo's and most hand-written files' width). */
const INLINE_ARRAY_MAX_LINE = 110;

/**
 * The JSON formatter puts each array element on a line of its own; files written by hand usually keep short
 * lists of strings on one line (`"files": ["test/a.test.js"]`). When the file already does, the inserted text
 * does too, so an added spec looks like its neighbours.
 */
export function inFileStyle(original: string, edit: SpecTextEdit): SpecTextEdit {
  if (!/^[^\n]*"\s*:\s*\[\s*"[^"\n]*"(\s*,\s*"[^"\n]*")*\s*\]/m.test(original)) return edit;
  const content = edit.content.replace(
    /^([^\n]*)\[\s*\n((?:\s*"(?:[^"\\\n]|\\.)*"\s*,?\s*\n)+)\s*\]/gm,
    (whole, head: string, items: string) => {
      const joined = `${head}[${items
        .split('\n')
        .map((l) => l.trim().replace(/,$/, ''))
        .filter(Boolean)
        .join(', ')}]`;
      return joined.length <= INLINE_ARRAY_MAX_LINE ? joined : whole;
    },
  );
  return { ...edit, content };
}

/** Rewrites the changed fields of the spec that had `originalId`; a rename also renames references to it. */
export function updateSpecEdit(text: string, originalId: string, spec: Spec): SpecTextEdit {
  const doc = new SpecDocument(text);
  const old = doc.spec(originalId);
  if (!old) throw new SpecEditError(`no spec with the id "${originalId}" in specs.json`);
  if (spec.id !== originalId && doc.has(spec.id)) {
    throw new SpecEditError(`a spec with the id "${spec.id}" already exists`);
  }
  const next = canonicalSpec(spec);
  const changed: Partial<Record<keyof SpecInput, unknown>> = {};
  for (const key of SPEC_KEYS) if (!sameJson(old[key], next[key])) changed[key] = next[key];
  if (Object.keys(changed).length > 0) doc.apply(updateSpec(doc.text, originalId, changed));
  if (spec.id !== originalId) {
    doc.rewriteReferences(originalId, (refs) => refs.map((r) => (r === originalId ? spec.id : r)));
  }
  return inFileStyle(text, doc.edit());
}

/** Removes the spec and every reference other specs hold to it. */
export function removeSpecEdit(text: string, id: string): SpecTextEdit {
  const doc = new SpecDocument(text);
  if (!doc.has(id)) throw new SpecEditError(`no spec with the id "${id}" in specs.json`);
  doc.rewriteReferences(id, (refs) => refs.filter((r) => r !== id));
  doc.apply(removeSpec(doc.text, id));
  return doc.edit();
}

/** The spec with its keys in the documented order and without empty optional test fields. */
function canonicalSpec(spec: Spec): Spec {
  const test: Spec['test'] = { command: spec.test.command, files: spec.test.files };
  if (spec.test.cwd !== undefined) test.cwd = spec.test.cwd;
  if (spec.test.env !== undefined && Object.keys(spec.test.env).length > 0) test.env = spec.test.env;
  if (spec.test.timeoutSeconds !== undefined) test.timeoutSeconds = spec.test.timeoutSeconds;
  return withTest(spec, test);
}

/** The file's text edited step by step; `edit()` is the net change as one replacement of the original. */
class SpecDocument {
  text: string;

  constructor(private readonly original: string) {
    this.text = original;
    const errors: ParseError[] = [];
    const root = parse(original, errors, { allowTrailingComma: true }) as unknown;
    if (errors.length > 0)
      throw new SpecEditError('specs.json has syntax errors: fix them before editing specs');
    if (!isRecord(root) || !Array.isArray(root['specs']))
      throw new SpecEditError('specs.json has no "specs" array');
  }

  private specs(): Record<string, unknown>[] {
    const root = parse(this.text, [], { allowTrailingComma: true }) as Record<string, unknown>;
    return (root['specs'] as unknown[]).filter(isRecord);
  }

  has(id: string): boolean {
    return this.spec(id) !== undefined;
  }

  spec(id: string): Record<string, unknown> | undefined {
    return this.specs().find((s) => s['id'] === id);
  }

  apply(edits: TextEdit[]): void {
    this.text = applyTextEdits(this.text, edits);
  }

  rewriteReferences(id: string, rewrite: (refs: string[]) => string[]): void {
    for (const spec of this.specs()) {
      const fields: Partial<Record<keyof SpecInput, unknown>> = {};
      for (const field of REFERENCE_FIELDS) {
        const refs = spec[field];
        if (Array.isArray(refs) && refs.includes(id)) {
          fields[field] = rewrite(refs.filter((r): r is string => typeof r === 'string'));
        }
      }
      if (Object.keys(fields).length > 0 && typeof spec['id'] === 'string') {
        this.apply(updateSpec(this.text, spec['id'], fields));
      }
    }
  }

  edit(): SpecTextEdit {
    const before = this.original;
    const after = this.text;
    let start = 0;
    const max = Math.min(before.length, after.length);
    while (start < max && before[start] === after[start]) start++;
    let end = 0;
    while (end < max - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
    return {
      offset: start,
      length: before.length - start - end,
      content: after.slice(start, after.length - end),
    };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
