// The side panel's overview, shown whenever the form is not: the toolbar (check all / affected, init, new spec),
// the banners of a folder without specs.json or not trusted, the summary line, the spec file's problems, the spec
// list and the graph. It only renders: what a button does is the entry's (main.ts) to decide, through
// OverviewActions, and what stays open across reloads comes in as OverviewView.
import type { ParsedPanelState, ToExtensionMessage } from '../../src/shared/protocol';
import { codicon, h } from './dom';
import { renderGraph } from './graph';
import { renderSpecList, type SpecFilter } from './list';
import { STATUS_LOOK } from './status';
import { checkCounts, panelCheckView, panelSummaryText } from '../../src/shared/checkCounts';

/** In the narrow side panel a spec id wraps at dashes onto lines of at most this many characters. */
const GRAPH_WRAP_AT = 14;

export interface OverviewActions {
  send(message: ToExtensionMessage): void;
  newSpec(): void;
  editSpec(id: string): void;
  /** The graph section was opened or closed. */
  graphToggled(open: boolean): void;
  /** The potential interactions were shown or hidden in the graph. */
  potentialToggled(shown: boolean): void;
  /** The list's filter changed (it is applied in place; kept for the next render). */
  filterChanged(filter: SpecFilter): void;
}

/** What the user left open, remembered across the view being hidden. */
export interface OverviewView {
  graphOpen: boolean;
  potentialShown: boolean;
  filter: SpecFilter;
  /** The spec the form has just saved, marked in the list for a few seconds. */
  justSaved?: string | undefined;
}

export function renderOverview(
  current: ParsedPanelState,
  actions: OverviewActions,
  view: OverviewView,
): Node[] {
  const { send } = actions;
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
      toolbarButton('add', 'New spec', 'new-spec', () => actions.newSpec()),
      current.progress
        ? toolbarButton('debug-stop', 'Cancel check', 'cancel-check', () => send({ type: 'cancelCheck' }))
        : null,
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
      renderSpecList(
        current,
        {
          check: (id) => send({ type: 'check', target: { ids: [id] } }),
          edit: (id) => actions.editSpec(id),
          openSpec: (id) => send({ type: 'openSpec', id }),
          openAnchor: (anchor) => send({ type: 'openAnchor', anchor }),
        },
        view.filter,
        (filter) => actions.filterChanged(filter),
        view.justSaved,
      ),
    ),
  );
  const graph = h(
    'details',
    { class: 'graph-section', open: view.graphOpen },
    h('summary', { 'data-key': 'graph-summary' }, h('h2', {}, 'Graph')),
    renderGraph(current, {
      wrapAt: GRAPH_WRAP_AT,
      fit: 'shrink',
      onSelect: (id) => actions.editSpec(id),
      onOpenLarge: () => send({ type: 'openGraph' }),
      potentialShown: view.potentialShown,
      onTogglePotential: (shown) => actions.potentialToggled(shown),
    }),
  );
  graph.addEventListener('toggle', () => actions.graphToggled(graph.open));
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

/** "8 specs · checking 2/8 · 2 pass · 1 running · 5 queued": the counts the status bar shows, from the same model. */
function summary(current: ParsedPanelState): string {
  const counts = checkCounts(panelCheckView(current));
  return panelSummaryText(counts, new Date(), (status) => STATUS_LOOK[status].label);
}
