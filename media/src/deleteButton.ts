// The edit form's Delete button: a first press only asks for a second, deliberate one (instead of a modal
// dialog) and says in the form's status line what the second press will do.
import { codicon, h } from './dom';

export interface DeleteActions {
  /** Resolves to an error message, or undefined once the spec was removed from specs.json. */
  remove(id: string): Promise<string | undefined>;
  /** The spec is gone: leave the form, announcing it. */
  deleted(announcement: string): void;
}

export function deleteButton(id: string, status: HTMLElement, actions: DeleteActions): HTMLButtonElement {
  let confirming = false;
  const button = h('button', { type: 'button', class: 'secondary danger' }, codicon('trash'), ' Delete spec');
  button.addEventListener('click', () => {
    if (!confirming) {
      confirming = true;
      button.replaceChildren(codicon('trash'), ` Press again to delete ${id}`);
      status.textContent = `Press “Delete” again to remove ${id} and every reference to it.`;
      return;
    }
    status.textContent = `Deleting ${id}…`;
    void actions.remove(id).then((error) => {
      if (error) status.textContent = `Not deleted: ${error}`;
      else actions.deleted(`Deleted spec ${id}.`);
    });
  });
  return button;
}
