// The Weave side panel's front end (runs in the webview; bundled by scripts/build.mjs to dist/webview.js).
// It renders the state the extension pushes and sends requests back; every message it receives is checked
// against src/shared/protocol.ts and a malformed one is reported to the extension's log and ignored. This entry
// routes the messages, keeps what survives a reload (webview state) and switches between the overview
// (overview.ts) and the spec form (form.ts), for which it answers the form's requests to the extension. A spec
// the form saved is brought into view in the list once the state holding it arrives.
import { z } from 'zod';
import {
  parseToWebview,
  type ParsedPanelState,
  type ToExtensionMessage,
  type ToWebview,
} from '../../src/shared/protocol';
import { h, replaceKeepingFocus } from './dom';
import { SpecForm } from './form';
import { emptySnapshot, snapshotOf, type FormSnapshot } from './formSnapshot';
import { NO_FILTER, type SpecFilter } from './list';
import { renderOverview } from './overview';
import { PendingRequests, reasonOf } from './pendingRequests';

// The CSP has no 'unsafe-eval': tell zod not to probe `new Function` (it would only log a CSP violation).
z.config({ jitless: true });

interface VsCodeApi {
  postMessage(message: ToExtensionMessage): void;
  getState(): unknown;
  setState(state: PersistedState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** What survives the view being hidden and shown again (the webview is recreated). */
interface PersistedState {
  form?: FormSnapshot | undefined;
  graphOpen?: boolean;
  /** The panel's graph hides the potential (static) interactions until asked: they crowd a narrow view. */
  potentialShown?: boolean;
  /** The spec list's filter box and "Failing only" toggle. */
  filter?: SpecFilter;
}

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
let persisted: PersistedState = (vscode.getState() as PersistedState | undefined) ?? {};
let state: ParsedPanelState | undefined;
let form: SpecForm | undefined;
/** The id the form has just written, until a state that holds it is shown (specs.json is re-read after a save). */
let savedSpec: string | undefined;
/** The row marked as just saved, for as long as the "Saved spec …" note stays. */
let justSaved: string | undefined;
let justSavedTimer: ReturnType<typeof setTimeout> | undefined;
const requests = new PendingRequests<ToWebview<'symbols'> | ToWebview<'editResult'>>();
// The view is being torn down (closed, or hidden without retained context): no reply can reach it any more.
window.addEventListener('pagehide', () => requests.rejectAll('the panel was closed'));

const announcer = h('p', { class: 'flash', role: 'status', 'aria-live': 'polite' });
const listView = h('div', { class: 'list-view' });
const formView = h('div', { class: 'form-view', hidden: true });
app.replaceChildren(announcer, listView, formView);

function send(message: ToExtensionMessage): void {
  vscode.postMessage(message);
}

function persist(next: PersistedState): void {
  persisted = next;
  vscode.setState(persisted);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = parseToWebview(event.data);
  if (!parsed.ok) {
    send({ type: 'log', level: 'warn', message: `webview ignored a ${parsed.error}`.slice(0, 2000) });
    return;
  }
  const message = parsed.message;
  switch (message.type) {
    case 'state':
      state = message.state;
      render();
      return;
    case 'showNewSpecForm':
      openForm(emptySnapshot());
      return;
    case 'symbols':
    case 'editResult':
      requests.settle(message);
      return;
  }
});

function render(): void {
  if (!state) return;
  const current = state;
  if (form) form.refresh();
  else if (persisted.form) openForm(persisted.form);
  replaceKeepingFocus(
    listView,
    ...renderOverview(
      current,
      {
        send,
        newSpec: () => openForm(emptySnapshot()),
        editSpec,
        graphToggled: (open) => persist({ ...persisted, graphOpen: open }),
        potentialToggled: (shown) => {
          persist({ ...persisted, potentialShown: shown });
          render();
        },
        filterChanged: (filter) => persist({ ...persisted, filter }),
      },
      {
        graphOpen: persisted.graphOpen ?? true,
        potentialShown: persisted.potentialShown ?? false,
        filter: persisted.filter ?? NO_FILTER,
        justSaved,
      },
    ),
  );
  revealSaved();
}

/**
 * A spec added with the form lands wherever specs.json puts it, often below the fold or behind the filter: once
 * the list holds it, clear a filter that hides it (and say so), scroll to it, give it the focus and mark it.
 */
function revealSaved(): void {
  const id = savedSpec;
  if (id === undefined || form || !state?.specs.some((s) => s.id === id)) return;
  savedSpec = undefined;
  clearTimeout(justSavedTimer);
  justSaved = id;
  justSavedTimer = setTimeout(() => {
    justSaved = undefined;
    listView.querySelector('.spec.just-saved')?.classList.remove('just-saved');
  }, ANNOUNCEMENT_MS);
  if (rowOf(id)?.hidden === true) {
    persist({ ...persisted, filter: NO_FILTER });
    announce(`${announcer.textContent ?? ''} The filter hid it, so it was cleared.`.trim());
  }
  render(); // draws the mark (and the list unfiltered)
  const row = rowOf(id);
  row?.scrollIntoView({ block: 'nearest' });
  row?.focus();
}

function rowOf(id: string): HTMLElement | null {
  return listView.querySelector<HTMLElement>(`.spec-list > li[data-spec-id="${CSS.escape(id)}"]`);
}

function editSpec(id: string): void {
  if (!state) return;
  const snapshot = snapshotOf(state, id);
  if (snapshot) openForm(snapshot);
}

function openForm(snapshot: FormSnapshot): void {
  savedSpec = undefined;
  persist({ ...persisted, form: snapshot });
  if (!state) return; // opened by the extension before the first state: render() brings it up
  form = new SpecForm(
    {
      state: () => state as ParsedPanelState,
      search: (query) =>
        requests
          .request('symbols', (requestId) => send({ type: 'searchSymbols', requestId, query }))
          .then(
            (answer) => ({ symbols: answer.symbols }),
            (e: unknown) => ({ symbols: [], error: reasonOf(e) }),
          ),
      save: (spec, originalId) =>
        editResult((requestId) =>
          send(
            originalId === undefined
              ? { type: 'addSpec', requestId, spec }
              : { type: 'updateSpec', requestId, id: originalId, spec },
          ),
        ),
      remove: (id) => editResult((requestId) => send({ type: 'removeSpec', requestId, id })),
      close: (announcement, saved) => closeForm(announcement, saved),
      persist: (next) => persist({ ...persisted, form: next }),
    },
    snapshot,
  );
  formView.replaceChildren(form.element);
  formView.hidden = false;
  listView.hidden = true;
  form.focusFirstField();
}

/** Resolves to the reason the edit was not made, or undefined once specs.json was written. */
function editResult(post: (requestId: number) => void): Promise<string | undefined> {
  return requests.request('editResult', post).then(
    () => undefined,
    (e: unknown) => reasonOf(e),
  );
}

/** How long "Saved spec …" stays: long enough to read, gone before it looks like the state of things. */
const ANNOUNCEMENT_MS = 6000;
let announcementTimer: ReturnType<typeof setTimeout> | undefined;

function announce(text: string): void {
  clearTimeout(announcementTimer);
  announcer.textContent = text;
  if (text) announcementTimer = setTimeout(() => (announcer.textContent = ''), ANNOUNCEMENT_MS);
}

function closeForm(announcement?: string, saved?: string): void {
  form = undefined;
  persist({ ...persisted, form: undefined });
  formView.replaceChildren();
  formView.hidden = true;
  listView.hidden = false;
  announce(announcement ?? '');
  savedSpec = saved;
  render();
  // Revealed already (an edit: the list held the spec): the focus is on its row. Otherwise until it arrives.
  if (saved !== undefined && savedSpec === undefined) return;
  listView.querySelector<HTMLElement>('[data-key="new-spec"]')?.focus();
}

send({ type: 'ready' });
