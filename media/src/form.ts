// The add / edit spec form. Validated as the user types with the same rules the extension applies before it
// writes specs.json (the zod schema of specs.json + unique id, known references, no dependency cycle), so
// "Save" only fails for reasons outside the form (e.g. the file changed meanwhile).
// This module holds the form's behaviour (state, validation, save); its markup is formFields.ts and its
// state as plain data is formSnapshot.ts.
import type { Spec } from '../../src/shared/specSchema';
import type { ParsedPanelState, SymbolMatch } from '../../src/shared/protocol';
import { validateSpecDraft, type SpecDraftResult, type SpecFieldIssue } from '../../src/shared/specDraft';
import { AnchorPicker, ANCHORS_PICKER } from './anchorPicker';
import { deleteButton } from './deleteButton';
import { codicon, h } from './dom';
import {
  fieldRow,
  kindSelect,
  referenceFieldset,
  renderReferenceChoices,
  showIssues,
  textControl,
  TEST_FILES_PICKER,
  type FieldControl,
} from './formFields';
import {
  draftOf,
  errorSlotOf,
  idFromTitle,
  type FormSnapshot,
  type ReferenceField,
  type TextField,
} from './formSnapshot';

export interface FormHost {
  state(): ParsedPanelState;
  search(query: string): Promise<{ symbols: SymbolMatch[]; error?: string | undefined }>;
  /** Resolves to an error message, or undefined once specs.json was written. */
  save(spec: Spec, originalId: string | undefined): Promise<string | undefined>;
  remove(id: string): Promise<string | undefined>;
  /** Back to the list; `saved` is the id of the spec just written, for the list to bring into view. */
  close(announcement?: string, saved?: string): void;
  persist(snapshot: FormSnapshot): void;
}

export class SpecForm {
  readonly element: HTMLFormElement;
  private readonly controls = new Map<TextField, FieldControl>();
  private readonly errors = new Map<string, HTMLElement>();
  private readonly references = new Map<ReferenceField, HTMLElement>();
  private readonly anchors: AnchorPicker;
  private readonly testFiles: AnchorPicker;
  private readonly status: HTMLElement;
  private readonly submit: HTMLButtonElement;
  private snapshot: FormSnapshot;
  private submitted = false;

  constructor(
    private readonly host: FormHost,
    initial: FormSnapshot,
  ) {
    this.snapshot = structuredClone(initial);
    const editing = initial.originalId !== undefined;
    this.anchors = new AnchorPicker(
      initial.anchors,
      (q) => host.search(q),
      () => this.changed('anchors'),
      'err-anchors',
      ANCHORS_PICKER,
    );
    this.testFiles = new AnchorPicker(
      initial.fields.files
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
      (q) => host.search(q),
      () => {
        this.snapshot.fields.files = this.testFiles.value().join('\n');
        this.changed('files');
      },
      'err-files',
      TEST_FILES_PICKER,
    );
    this.status = h('p', { class: 'form-status', role: 'status', 'aria-live': 'polite' });
    this.submit = h(
      'button',
      { type: 'submit', class: 'primary' },
      codicon('save'),
      editing ? ' Save spec' : ' Add spec',
    );
    const specError = h('p', { id: 'err-spec', class: 'field-error', role: 'alert', hidden: true });
    this.errors.set('spec', specError);

    this.element = h(
      'form',
      { class: 'spec-form', novalidate: true, 'aria-labelledby': 'form-heading' },
      h('h2', { id: 'form-heading' }, editing ? `Edit spec ${initial.originalId ?? ''}` : 'New spec'),
      this.textField('title', 'Title', 'input', 'One line a person reads in lists.'),
      this.textField('id', 'Id', 'input', 'Lower-case letters, digits and dashes; unique.'),
      this.kindField(),
      this.textField(
        'statement',
        'Statement',
        'textarea',
        'The requirement, e.g. “When …, the client shall …”.',
      ),
      this.textField('command', 'Test command', 'input', 'Shell command run in the workspace folder.'),
      this.field('files', 'Test files', this.testFiles.element, 'field-files'),
      this.field('anchors', 'Anchors', this.anchors.element, 'field-anchors'),
      this.referenceField('dependsOn', 'Depends on', 'Must hold for this spec to be meaningful.'),
      this.referenceField('interactsWith', 'Interacts with', 'Specs you suspect can conflict with this one.'),
      specError,
      h(
        'div',
        { class: 'form-actions' },
        this.submit,
        h('button', { type: 'button', class: 'secondary', onclick: () => host.close() }, 'Cancel'),
        initial.originalId !== undefined
          ? deleteButton(initial.originalId, this.status, {
              remove: (id) => host.remove(id),
              deleted: (announcement) => host.close(announcement),
            })
          : null,
      ),
      this.status,
    );
    this.element.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.save();
    });
    this.refresh();
  }

  focusFirstField(): void {
    this.controls.get('title')?.focus();
  }

  /** New state from the extension: other specs may have appeared or gone; re-check against them. */
  refresh(): void {
    for (const field of ['dependsOn', 'interactsWith'] as const) this.renderReferences(field);
    this.validate();
  }

  /** A field row whose error slot validate() fills. */
  private field(
    name: string,
    label: string,
    control: HTMLElement,
    controlId: string,
    help?: string,
  ): HTMLElement {
    const row = fieldRow(name, label, control, controlId, help);
    this.errors.set(name, row.error);
    return row.element;
  }

  private textField(name: TextField, label: string, tag: 'input' | 'textarea', help: string): HTMLElement {
    const control = textControl(name, tag);
    this.setupControl(name, control);
    return this.field(name, label, control, control.id, help);
  }

  private kindField(): HTMLElement {
    const select = kindSelect();
    this.setupControl('kind', select);
    return this.field('kind', 'Kind', select, select.id, 'What sort of constraint this is.');
  }

  /** Binds a control to the snapshot: its value, and the id that follows the title until the user types one. */
  private setupControl(name: TextField, control: FieldControl): void {
    control.id = `field-${name}`;
    control.name = name;
    control.value = this.snapshot.fields[name];
    control.setAttribute('aria-describedby', `help-${name} err-${name}`);
    control.addEventListener('input', () => {
      this.snapshot.fields[name] = control.value;
      if (name === 'id') this.snapshot.idEdited = true;
      if (name === 'title' && !this.snapshot.idEdited && this.snapshot.originalId === undefined) {
        this.snapshot.fields.id = idFromTitle(control.value);
        const id = this.controls.get('id');
        if (id) id.value = this.snapshot.fields.id;
      }
      this.changed(name);
    });
    this.controls.set(name, control);
  }

  private referenceField(name: ReferenceField, label: string, help: string): HTMLElement {
    const row = referenceFieldset(name, label, help);
    this.references.set(name, row.list);
    this.errors.set(name, row.error);
    return row.element;
  }

  private renderReferences(name: ReferenceField): void {
    const list = this.references.get(name);
    if (!list) return;
    const self = this.snapshot.originalId;
    const ids = this.host
      .state()
      .specs.map((s) => s.id)
      .filter((id) => id !== self);
    // Keep showing a chosen id that is no longer known, so its "unknown spec" error can be seen and undone.
    for (const id of this.snapshot[name]) if (!ids.includes(id)) ids.push(id);
    renderReferenceChoices(list, name, ids, this.snapshot[name], (id, checked) => {
      this.snapshot[name] = checked
        ? [...this.snapshot[name], id]
        : this.snapshot[name].filter((other) => other !== id);
      this.changed(name);
    });
  }

  private changed(field: string): void {
    if (!this.snapshot.touched.includes(field)) this.snapshot.touched.push(field);
    this.snapshot.anchors = this.anchors.value();
    this.host.persist(this.snapshot);
    this.validate();
  }

  private draft(): Record<string, unknown> {
    const base = this.host.state().specs.find((s) => s.id === this.snapshot.originalId);
    return draftOf(this.snapshot, this.anchors.value(), base);
  }

  /** Shows the issues of the fields the user has been to (all of them after a save attempt). */
  private validate(): SpecDraftResult {
    const result = validateSpecDraft(this.draft(), this.host.state().specs, this.snapshot.originalId);
    const bySlot = new Map<string, SpecFieldIssue[]>();
    for (const issue of result.ok ? result.warnings : result.issues) {
      const slot = errorSlotOf(issue.field);
      bySlot.set(slot, [...(bySlot.get(slot) ?? []), issue]);
    }
    for (const [slot, error] of this.errors) {
      const visible = this.submitted || this.snapshot.touched.includes(slot) || slot === 'spec';
      const control =
        slot === 'anchors'
          ? this.anchors.input
          : slot === 'files'
            ? this.testFiles.input
            : this.controls.get(slot as TextField);
      showIssues(error, visible ? (bySlot.get(slot) ?? []) : [], control);
    }
    return result;
  }

  private async save(): Promise<void> {
    this.submitted = true;
    const result = this.validate();
    if (!result.ok) {
      const n = result.issues.filter((i) => i.severity === undefined).length;
      this.status.textContent = `Not saved: ${n} problem${n === 1 ? '' : 's'} to fix.`;
      this.element.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    this.submit.disabled = true;
    this.status.textContent = 'Saving to specs.json…';
    const error = await this.host.save(result.spec, this.snapshot.originalId);
    this.submit.disabled = false;
    if (error) this.status.textContent = `Not saved: ${error}`;
    else this.host.close(`Saved spec ${result.spec.id} to specs.json.`, result.spec.id);
  }
}
