// The spec form's field markup: a labelled control with its help line and error slot, the text and Kind controls,
// the Test files picker's settings, the checklists of other specs (Depends on, Interacts with), and how a slot
// shows its issues. DOM building only, no form state: form.ts binds these to the snapshot, the validation and
// the save.
import { SPEC_KINDS } from '../../src/shared/specSchema';
import type { SpecFieldIssue } from '../../src/shared/specDraft';
import type { PickerConfig } from './anchorPicker';
import { h } from './dom';
import type { ReferenceField, TextField } from './formSnapshot';

/** The Test files field: a picker like the anchors', restricted to files. */
export const TEST_FILES_PICKER: PickerConfig = {
  name: 'files',
  noun: 'test file',
  filesOnly: true,
  placeholder: 'Search files…',
  help: 'The spec’s own tests (protected from agents). ↑/↓ choose, Enter adds.',
};

export type FieldControl = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** A field's row and the slot its issues show in (`err-<name>`, which the control's aria-describedby names). */
export interface FieldRow {
  element: HTMLElement;
  error: HTMLElement;
}

export function fieldRow(
  name: string,
  label: string,
  control: HTMLElement,
  controlId: string,
  help?: string,
): FieldRow {
  const error = h('p', { id: `err-${name}`, class: 'field-error', hidden: true });
  const element = h(
    'div',
    { class: 'field' },
    h('label', { for: controlId }, label),
    control,
    help ? h('p', { id: `help-${name}`, class: 'muted small' }, help) : null,
    error,
  );
  return { element, error };
}

/** The control of a text field: one line, or a text area (the statement's is taller). */
export function textControl(name: TextField, tag: 'input' | 'textarea'): FieldControl {
  return tag === 'input'
    ? h('input', { type: 'text', spellcheck: name === 'title' ? 'true' : 'false' })
    : h('textarea', { rows: name === 'statement' ? 4 : 2 });
}

export function kindSelect(): HTMLSelectElement {
  return h('select', {}, ...SPEC_KINDS.map((kind) => h('option', { value: kind }, kind)));
}

/** A reference field: a fieldset whose checklist (`list`) renderReferenceChoices fills. */
export function referenceFieldset(
  name: ReferenceField,
  label: string,
  help: string,
): FieldRow & { list: HTMLElement } {
  const list = h('div', { class: 'checklist' });
  const error = h('p', { id: `err-${name}`, class: 'field-error', hidden: true });
  const element = h(
    'fieldset',
    { class: 'field', 'aria-describedby': `help-${name} err-${name}` },
    h('legend', {}, label),
    h('p', { id: `help-${name}`, class: 'muted small' }, help),
    list,
    error,
  );
  return { element, error, list };
}

/** One checkbox per spec id, checked when chosen; `onToggle` hears each change. */
export function renderReferenceChoices(
  list: HTMLElement,
  name: ReferenceField,
  ids: readonly string[],
  chosen: readonly string[],
  onToggle: (id: string, checked: boolean) => void,
): void {
  if (ids.length === 0) {
    list.replaceChildren(h('p', { class: 'muted small' }, 'No other specs yet.'));
    return;
  }
  list.replaceChildren(
    ...ids.map((id) => {
      const box = h('input', {
        type: 'checkbox',
        id: `${name}-${id}`,
        value: id,
        checked: chosen.includes(id),
      });
      box.addEventListener('change', () => onToggle(id, box.checked));
      return h('div', { class: 'check' }, box, h('label', { for: box.id }, id));
    }),
  );
}

/** Shows these issues in an error slot and marks the control invalid when one of them is an error. */
export function showIssues(error: HTMLElement, shown: readonly SpecFieldIssue[], control?: Element): void {
  error.hidden = shown.length === 0;
  // A warning (a spec listed twice) is shown but does not stop the save: the loader only warns too.
  error.textContent = shown
    .map((i) => (i.severity === 'warning' ? `Warning: ${i.message}` : i.message))
    .join(' · ');
  const invalid = shown.some((i) => i.severity === undefined);
  control?.setAttribute('aria-invalid', String(invalid));
}
