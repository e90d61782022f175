// The Weave side panel's front end (runs in the webview; bundled by scripts/build.mjs to dist/webview.js).
// It renders the state the extension pushes and sends requests back; every message it receives is checked
// against src/shared/protocol.ts and a malformed one is reported to the extension's log and ignored.
import { z } from 'zod';
import {
  parseToWebview,
  type ParsedPanelState,
  type ToExtensionMessage,
  type ToWebview,
} from '../../src/shared/protocol';
import { codicon, h, replaceKeepingFocus } from './dom';
import { SpecForm } from './form';
import { emptySnapshot, snapshotOf, type FormSnapshot } from './formSnapshot';
import { renderGraph } from './graph';
import { renderSpecList } from './list';
import { PendingRequests, reasonOf } from './pendingRequests';
import { statusOf, STATUS_LOOK, type SpecStatus } from './status';

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
}

/** In the narrow side panel a spec id wraps at dashes onto lines of at most this many characters. */
const GRAPH_WRAP_AT = 14;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
let persisted: PersistedState = (vscode.getState() as PersistedState | undefined) ?? {};
let state: ParsedPanelState | undefined;
let form: SpecForm | undefined;
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
  replaceKeepingFocus(listView, ...listContent(current));
}

function listContent(current: ParsedPanelState): Node[] {
  const nodes: Node[] = [];
  const hasSpecs = current.specFile !== null && current.specs.length > 0;
  nodes.push(
    h(
      'div',
      { class: 'toolbar', role: 'toolbar', 'aria-label': 'Weave actions' },
      toolbarButton(
        'check-all',
        'Check all',
        'check-all',
        () => send({ type: 'check', target: 'all' }),
        !current.trusted || !hasSpecs,
      ),
      toolbarButton(
        'check',
        'Check affected',
        'check-affected',
        () => send({ type: 'check', target: 'affected' }),
        !current.trusted || !hasSpecs,
      ),
      current.specFile === null
        ? toolbarButton(
            'new-file',
            'Init specs',
            'init-specs',
            () => send({ type: 'initSpecs' }),
            false,
            true,
          )
        : null,
      toolbarButton('add', 'New spec', 'new-spec', () => openForm(emptySnapshot())),
    ),
  );
  if (current.specFile === null) {
    nodes.push(
      h(
        'div',
        { class: 'banner', role: 'note' },
        codicon('info'),
        h(
          'p',
          {},
          'This folder has no .weave/specs.json yet. “Init specs” writes a starter file with a spec that runs ' +
            'your test command (the test runner is detected); “New spec” adds one through a form.',
        ),
      ),
    );
  }
  if (!current.trusted) {
    nodes.push(
      h(
        'div',
        { class: 'banner', role: 'note' },
        codicon('shield'),
        h(
          'p',
          {},
          'Weave runs nothing in an untrusted folder: specs are shown and validated, but no spec test runs ' +
            'until you trust this workspace.',
        ),
      ),
    );
  }
  nodes.push(h('p', { class: 'summary', role: 'status' }, summary(current)));
  if (current.problems.length > 0) {
    nodes.push(
      h(
        'section',
        { class: 'problems', 'aria-label': 'Problems in the spec file' },
        h(
          'h2',
          {},
          codicon('warning'),
          ` ${current.problems.length} problem${current.problems.length === 1 ? '' : 's'}`,
        ),
        h(
          'ul',
          {},
          ...current.problems.map((p) =>
            h(
              'li',
              { class: `problem ${p.severity}` },
              `${current.specFile ?? p.file}:${p.line}:${p.column} ${p.path}: ${p.message}`,
            ),
          ),
        ),
      ),
    );
  }
  nodes.push(
    h(
      'section',
      { 'aria-labelledby': 'specs-heading' },
      h('h2', { id: 'specs-heading' }, 'Specs'),
      renderSpecList(current, {
        check: (id) => send({ type: 'check', target: { ids: [id] } }),
        edit: (id) => editSpec(id),
        openSpec: (id) => send({ type: 'openSpec', id }),
        openAnchor: (anchor) => send({ type: 'openAnchor', anchor }),
      }),
    ),
  );
  const graph = h(
    'details',
    { class: 'graph-section', open: persisted.graphOpen ?? true },
    h('summary', { 'data-key': 'graph-summary' }, h('h2', {}, 'Graph')),
    renderGraph(current, {
      wrapAt: GRAPH_WRAP_AT,
      onSelect: (id) => editSpec(id),
      onOpenLarge: () => send({ type: 'openGraph' }),
      potentialShown: persisted.potentialShown ?? false,
      onTogglePotential: (shown) => {
        persist({ ...persisted, potentialShown: shown });
        render();
      },
    }),
  );
  graph.addEventListener('toggle', () => persist({ ...persisted, graphOpen: graph.open }));
  nodes.push(graph);
  return nodes;
}

function toolbarButton(
  icon: string,
  label: string,
  key: string,
  onClick: () => void,
  disabled = false,
  primary = false,
): HTMLElement {
  return h(
    'button',
    { type: 'button', class: primary ? 'primary' : 'secondary', 'data-key': key, disabled, onclick: onClick },
    codicon(icon),
    ` ${label}`,
  );
}

function summary(current: ParsedPanelState): string {
  const counts = new Map<SpecStatus, number>();
  for (const spec of current.specs) {
    const status = statusOf(current, spec.id);
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  const parts = [...counts].map(([status, n]) => `${n} ${STATUS_LOOK[status].label}`);
  const total = `${current.specs.length} spec${current.specs.length === 1 ? '' : 's'}`;
  const progress = current.progress ? [`checking ${current.progress.done}/${current.progress.total}`] : [];
  return [total, ...progress, ...parts].join(' · ');
}

function editSpec(id: string): void {
  if (!state) return;
  const snapshot = snapshotOf(state, id);
  if (snapshot) openForm(snapshot);
}

function openForm(snapshot: FormSnapshot): void {
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
      close: (announcement) => closeForm(announcement),
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

function closeForm(announcement?: string): void {
  form = undefined;
  persist({ ...persisted, form: undefined });
  formView.replaceChildren();
  formView.hidden = true;
  listView.hidden = false;
  announce(announcement ?? '');
  render();
  listView.querySelector<HTMLElement>('[data-key="new-spec"]')?.focus();
}

send({ type: 'ready' });
