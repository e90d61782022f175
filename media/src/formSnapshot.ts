// The spec form's state as data, apart from its DOM: what survives the view being hidden (the snapshot), the
// snapshot of an existing spec, the draft the rules validate, the id derived from a title, and which error slot
// shows an issue. DOM-free, so it is unit-tested in plain Node; form.ts binds it to the controls.
import type { ParsedPanelState } from '../../src/shared/protocol';
import type { Spec } from '../../src/shared/specSchema';

export type TextField = 'id' | 'title' | 'kind' | 'statement' | 'command' | 'files';
export type ReferenceField = 'dependsOn' | 'interactsWith';

/** Everything needed to bring the form back after the view was hidden (webview state). */
export interface FormSnapshot {
  originalId?: string | undefined;
  fields: Record<TextField, string>;
  anchors: string[];
  dependsOn: string[];
  interactsWith: string[];
  /** The user typed an id: stop deriving it from the title. */
  idEdited: boolean;
  touched: string[];
}

export function emptySnapshot(): FormSnapshot {
  return {
    fields: { id: '', title: '', kind: 'functional', statement: '', command: '', files: '' },
    anchors: [],
    dependsOn: [],
    interactsWith: [],
    idEdited: false,
    touched: [],
  };
}

export function snapshotOf(state: ParsedPanelState, id: string): FormSnapshot | undefined {
  const spec = state.specs.find((s) => s.id === id);
  if (!spec) return undefined;
  return {
    originalId: id,
    fields: {
      id: spec.id,
      title: spec.title,
      kind: spec.kind,
      statement: spec.statement,
      command: spec.test.command,
      files: spec.test.files.join('\n'),
    },
    anchors: [...spec.anchors],
    dependsOn: [...spec.dependsOn],
    interactsWith: [...spec.interactsWith],
    idEdited: true,
    touched: [],
  };
}

/**
 * The spec the form holds, for validation and saving. `base` is the spec being edited: the test settings the
 * form does not show (cwd, env, timeoutSeconds) are kept from it.
 */
export function draftOf(
  snapshot: FormSnapshot,
  anchors: readonly string[],
  base: Spec | undefined,
): Record<string, unknown> {
  const f = snapshot.fields;
  return {
    id: f.id.trim(),
    title: f.title.trim(),
    kind: f.kind,
    statement: f.statement.trim(),
    test: {
      ...base?.test,
      command: f.command.trim(),
      files: f.files
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    },
    anchors: [...anchors],
    dependsOn: snapshot.dependsOn,
    interactsWith: snapshot.interactsWith,
  };
}

/** The id derived from a title until the user types one: "Cache hit!" → "cache-hit". */
export function idFromTitle(title: string): string {
  return (
    title
      .toLowerCase()
      // Accented letters decompose into letter + combining mark; the marks go, so "naïve" is "naive", not "nai-ve".
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
  );
}

/** Which error slot shows an issue of a given field path (see specDraft's `field`). */
const ERROR_SLOT: Record<string, string> = {
  id: 'id',
  title: 'title',
  kind: 'kind',
  statement: 'statement',
  'test.command': 'command',
  'test.files': 'files',
  test: 'command',
  anchors: 'anchors',
  dependsOn: 'dependsOn',
  interactsWith: 'interactsWith',
};

/** The slot of an issue's field; anything without a slot of its own shows under the whole form. */
export function errorSlotOf(field: string): string {
  return Object.hasOwn(ERROR_SLOT, field) ? (ERROR_SLOT[field] ?? 'spec') : 'spec';
}
