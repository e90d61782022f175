// The list of specs with their verdict badges and per-spec actions. One Tab stop for the whole list (roving
// tabindex): ↑/↓ (and Home/End) move between specs, → and ← move through the focused spec's buttons, Enter
// edits the spec, Escape goes back from a button to its spec (and, on the spec, closes it). The filter box above
// it narrows the rows shown (in place, so typing keeps its caret); ↓ from it enters the list, whose keys move
// among the rows shown.
// One row at a time is "open" (its title, anchors and actions on lines of their own): the row last clicked or
// reached with the keyboard. It stays open when the focus leaves the list and closes only when another row opens
// or on Escape, so the layout never changes under the pointer (a row that closed as focus left it moved the graph's
// "Open large view" between a press and its release, and the click missed).
import type { ParsedPanelState } from '../../src/shared/protocol';
import { codicon, h } from './dom';
import { isFailing, STATUS_LOOK, statusOf, type SpecStatus } from './status';

export interface ListActions {
  check(id: string): void;
  edit(id: string): void;
  openSpec(id: string): void;
  openAnchor(anchor: string): void;
}

/** The spec that holds the list's Tab stop, kept across re-renders. */
let current: string | undefined;
/** The open spec (see above), kept across re-renders. */
let opened: string | undefined;
/** A Tab key went down and its focus has not landed yet: a row it lands on opens (keyboard, not a re-render). */
let tabbing = false;
document.addEventListener('keydown', (event) => {
  if (event.key === 'Tab') tabbing = true;
});
document.addEventListener('keyup', () => (tabbing = false));

/** Opens `item` (closing the row open before), or closes every row (`undefined`). */
function setOpen(list: HTMLElement, item: HTMLElement | undefined): void {
  opened = item?.dataset['specId'];
  for (const row of list.querySelectorAll<HTMLElement>(':scope > li.spec'))
    row.classList.toggle('open', row === item);
}

export function statusBadge(status: SpecStatus, detail?: string): HTMLSpanElement {
  const look = STATUS_LOOK[status];
  return h(
    'span',
    { class: `badge status-${status}`, title: detail },
    codicon(look.icon, status === 'running' ? 'codicon-modifier-spin' : ''),
    h('span', { class: 'badge-label' }, look.label),
  );
}

/** The last audit's mutation score (`weave audit`): how many changes of its code the spec's test notices. */
function auditBadge(
  audit: NonNullable<ParsedPanelState['audit']>[string] | undefined,
): HTMLSpanElement | null {
  if (audit === undefined || audit.score === null) return null;
  const text = audit.vacuous ? 'vacuous' : `mutants ${Math.round(audit.score * 100)}%`;
  const title = audit.vacuous
    ? 'Its test noticed none of the changes Weave made to its code: it constrains nothing (weave audit).'
    : `Its test noticed ${Math.round(audit.score * 100)}% of the changes Weave made to its code; ${audit.survived} went unnoticed (weave audit).`;
  return h('span', { class: `spec-audit${audit.vacuous ? ' vacuous' : ''}`, title }, text);
}

/**
 * The line shown under a spec that does not pass: for a failure, the assertion the runner printed (the same
 * excerpt as the diagnostic), not the runner's summary "exit code 1: 1 of 1 test failed"; otherwise the reason
 * (e.g. "timed out after 60 s", "blocked by cache-hit").
 */
export function headline(verdict: ParsedPanelState['verdicts'][string] | undefined): string {
  const excerptLine = verdict?.excerpt?.split('\n').find((l) => l.trim()) ?? '';
  const reason = verdict?.reason?.trim() ?? '';
  return verdict?.verdict === 'fail' ? excerptLine || reason : reason || excerptLine;
}

/** What the list shows: specs whose id, title, kind or verdict hold every word of `text`; failing ones only. */
export interface SpecFilter {
  text: string;
  failingOnly: boolean;
}

export const NO_FILTER: SpecFilter = { text: '', failingOnly: false };

export function renderSpecList(
  state: ParsedPanelState,
  actions: ListActions,
  filter: SpecFilter = NO_FILTER,
  onFilter: (filter: SpecFilter) => void = () => undefined,
  justSaved?: string,
): HTMLElement {
  if (state.specs.length === 0) {
    return h(
      'p',
      { class: 'muted' },
      state.specFile === null
        ? 'No specs yet: “Init specs” writes a starter file, “New spec” adds one.'
        : 'No specs yet. Add the first one with “New spec”.',
    );
  }
  if (!current || !state.specs.some((s) => s.id === current)) current = state.specs[0]?.id;
  const list = h(
    'ul',
    {
      class: 'spec-list',
      'aria-label': 'Specs',
      'aria-describedby': 'spec-list-help',
    },
    ...state.specs.map((spec) => specRow(state, spec, actions, spec.id === justSaved)),
  );
  list.addEventListener('keydown', (event) => onKey(list, event, actions));
  list.addEventListener('focusin', (event) => {
    const item = (event.target as HTMLElement).closest<HTMLElement>('li.spec');
    if (item) moveStop(list, item);
    if (item && tabbing) setOpen(list, item);
    tabbing = false;
  });
  // Opened on the click, not on the press: the press's focus must not move the button about to be released.
  list.addEventListener('click', (event) => {
    const item = (event.target as HTMLElement).closest<HTMLElement>('li.spec');
    if (item && !item.classList.contains('open')) setOpen(list, item);
  });
  const shownCount = h('span', { class: 'filter-count', 'aria-live': 'polite' });
  const noMatch = h('p', { class: 'muted no-match', hidden: true });
  let active = { ...filter };
  const refilter = (next: SpecFilter): void => {
    active = next;
    applyFilter(list, active, shownCount, noMatch);
    onFilter(active);
  };
  const input = h('input', {
    type: 'search',
    class: 'spec-filter',
    placeholder: 'Filter: id, title, kind, verdict',
    // Its name stays short: the words it searches are in the placeholder (and "Title" names the form's field).
    'aria-label': 'Filter specs',
    'data-key': 'spec-filter',
    value: filter.text,
    oninput: (event: Event) => refilter({ ...active, text: (event.target as HTMLInputElement).value }),
    onkeydown: (event: Event) => {
      const key = (event as KeyboardEvent).key;
      // ↓ from the filter goes to the first spec shown, as in VS Code's own filtered trees.
      if (key === 'ArrowDown') {
        const first = items(list)[0];
        if (first) {
          event.preventDefault();
          moveStop(list, first);
          setOpen(list, first);
          first.focus();
        }
      }
    },
  });
  const failingOnly = h(
    'button',
    {
      type: 'button',
      class: 'icon-button filter-failing',
      'aria-pressed': filter.failingOnly ? 'true' : 'false',
      'aria-label': 'Show failing specs only',
      title: 'Show failing specs only (fail, broken, error, flaky, tampered, blocked)',
      'data-key': 'filter-failing',
      onclick: () => {
        const on = !active.failingOnly;
        failingOnly.setAttribute('aria-pressed', on ? 'true' : 'false');
        refilter({ ...active, failingOnly: on });
      },
    },
    codicon('filter'),
    h('span', { class: 'filter-failing-label' }, 'Failing'),
  );
  applyFilter(list, active, shownCount, noMatch);
  return h(
    'div',
    { class: 'spec-list-wrap' },
    state.specs.length > 1 ? h('div', { class: 'filter-bar', role: 'search' }, input, failingOnly) : null,
    shownCount,
    list,
    noMatch,
    h(
      'p',
      { id: 'spec-list-help', class: 'muted small' },
      '↑/↓ move between specs, → to a spec’s buttons, Enter edits.',
    ),
  );
}

/**
 * One spec as a compact row: verdict (icon, and its word where there is room), the whole id (wrapped at its dashes
 * in a narrow list, never cut), then one line with the kind and the failure line or the title. The actions show
 * on hover and keyboard focus; the open row (see above) shows them on a line of their own, with the title and
 * anchors. The spec the form has just
 * saved is marked for a few seconds, so the eye finds where it landed.
 */
function specRow(
  state: ParsedPanelState,
  spec: ParsedPanelState['specs'][number],
  actions: ListActions,
  justSaved: boolean,
): HTMLElement {
  const status = statusOf(state, spec.id);
  const look = STATUS_LOOK[status];
  const verdict = state.verdicts[spec.id];
  const detail = [verdict?.reason, verdict?.excerpt].filter(Boolean).join('\n');
  const line = headline(verdict);
  // A pass carries a reason only when it is unverified (no test result seen): worth showing.
  const showReason = Boolean(line) && (status !== 'pass' || /unverified/.test(verdict?.reason ?? ''));
  const label = `${spec.id}, ${look.label}: ${spec.title}${line && status !== 'pass' ? `. ${line}` : ''}`;
  return h(
    'li',
    {
      class: `spec status-${status}${justSaved ? ' just-saved' : ''}${spec.id === opened ? ' open' : ''}`,
      'data-spec-id': spec.id,
      'data-key': `spec:${spec.id}`,
      'data-filter': [spec.id, spec.title, spec.kind, look.label, status].join(' ').toLowerCase(),
      'data-failing': isFailing(status) ? 'true' : 'false',
      tabindex: spec.id === current ? 0 : -1,
      'aria-label': label,
    },
    h(
      'div',
      { class: 'spec-head' },
      statusBadge(status, [look.label, detail].filter(Boolean).join(': ')),
      h(
        'span',
        { class: 'spec-id', title: `${spec.id} — ${look.label}\n${spec.title}` },
        ...idParts(spec.id),
      ),
      auditBadge(state.audit?.[spec.id]),
      h(
        'div',
        { class: 'spec-actions' },
        iconButton(
          'play',
          `Check ${spec.id}`,
          `check:${spec.id}`,
          () => actions.check(spec.id),
          !state.trusted,
          -1,
        ),
        iconButton('edit', `Edit ${spec.id}`, `edit:${spec.id}`, () => actions.edit(spec.id), false, -1),
        iconButton(
          'go-to-file',
          `Open ${spec.id} in specs.json`,
          `open:${spec.id}`,
          () => actions.openSpec(spec.id),
          false,
          -1,
        ),
      ),
    ),
    h(
      'div',
      { class: 'spec-line' },
      // The verdict's word where the head has room only for its icon (a narrow sidebar): it never disappears.
      h('span', { class: `spec-verdict status-${status}` }, look.label),
      h('span', { class: 'spec-kind' }, spec.kind),
      showReason
        ? h('span', { class: 'spec-reason', title: detail }, line)
        : h('span', { class: 'spec-title', title: spec.title }, spec.title),
    ),
    h(
      'div',
      { class: 'spec-more' },
      showReason ? h('div', { class: 'spec-title' }, spec.title) : null,
      spec.anchors.length
        ? h(
            'ul',
            { class: 'anchors', 'aria-label': `Anchors of ${spec.id}` },
            ...spec.anchors.map((anchor) =>
              h(
                'li',
                {},
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'link',
                    tabindex: -1,
                    'data-key': `anchor:${spec.id}:${anchor}`,
                    title: `Open ${anchor}`,
                    onclick: () => actions.openAnchor(anchor),
                  },
                  anchor,
                ),
              ),
            ),
          )
        : null,
    ),
  );
}

/**
 * The id as text that wraps at its dashes, except that a short last part stays with the one before it: a narrow
 * list shows "…-rates-" over "rule-12", not "…-rule-" over a lone "12" (Chromium breaks after a dash before a digit).
 */
export function idParts(id: string): Array<string | HTMLSpanElement> {
  // Short enough (at most 12 characters) to fit the narrowest list on one line.
  const tail = /[^-]{1,8}-[^-]{1,3}$/.exec(id);
  if (!tail || tail.index === 0) return [id];
  return [id.slice(0, tail.index), h('span', { class: 'id-tail' }, tail[0])];
}

function applyFilter(list: HTMLElement, filter: SpecFilter, count: HTMLElement, noMatch: HTMLElement): void {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  const all = Array.from(list.querySelectorAll<HTMLElement>(':scope > li.spec'));
  let shown = 0;
  for (const item of all) {
    const text = item.dataset['filter'] ?? '';
    const visible =
      (!filter.failingOnly || item.dataset['failing'] === 'true') && words.every((w) => text.includes(w));
    item.hidden = !visible;
    if (visible) shown++;
  }
  const filtering = words.length > 0 || filter.failingOnly;
  count.textContent = filtering ? `${shown} of ${all.length} specs shown` : '';
  noMatch.hidden = shown > 0;
  noMatch.textContent =
    filter.failingOnly && words.length === 0
      ? 'No spec is failing.'
      : `No spec matches “${filter.text.trim()}”${filter.failingOnly ? ' among the failing ones' : ''}.`;
  // The list's one Tab stop must stay on a row that is shown.
  const stop = all.find((item) => item.tabIndex === 0);
  const first = items(list)[0];
  if (first && (!stop || stop.hidden)) moveStop(list, first);
}

function items(list: HTMLElement): HTMLElement[] {
  return Array.from(list.querySelectorAll<HTMLElement>(':scope > li.spec:not([hidden])'));
}

function moveStop(list: HTMLElement, item: HTMLElement): void {
  for (const other of list.querySelectorAll<HTMLElement>(':scope > li.spec'))
    other.tabIndex = other === item ? 0 : -1;
  current = item.dataset['specId'];
}

function onKey(list: HTMLElement, event: KeyboardEvent, actions: ListActions): void {
  const target = event.target as HTMLElement;
  const item = target.closest<HTMLElement>('li.spec');
  if (!item) return;
  const all = items(list);
  const index = all.indexOf(item);
  const buttons = Array.from(item.querySelectorAll<HTMLButtonElement>('button:not([disabled])'));
  const focusItem = (next: HTMLElement | undefined): void => {
    if (!next) return;
    event.preventDefault();
    moveStop(list, next);
    setOpen(list, next);
    next.focus();
  };
  const onItem = target === item;
  switch (event.key) {
    case 'ArrowDown':
      focusItem(all[index + 1]);
      return;
    case 'ArrowUp':
      focusItem(all[index - 1]);
      return;
    case 'Home':
      focusItem(all[0]);
      return;
    case 'End':
      focusItem(all.at(-1));
      return;
    case 'ArrowRight': {
      const next = onItem ? buttons[0] : buttons[buttons.indexOf(target as HTMLButtonElement) + 1];
      if (next) {
        event.preventDefault();
        next.focus();
      }
      return;
    }
    case 'ArrowLeft': {
      if (onItem) return;
      event.preventDefault();
      const previous = buttons[buttons.indexOf(target as HTMLButtonElement) - 1];
      (previous ?? item).focus();
      return;
    }
    case 'Escape':
      if (!onItem) focusItem(item);
      else setOpen(list, undefined);
      return;
    case 'Enter':
      if (onItem && item.dataset['specId']) {
        event.preventDefault();
        actions.edit(item.dataset['specId']);
      }
      return;
  }
}

export function iconButton(
  icon: string,
  label: string,
  key: string,
  onClick: () => void,
  disabled = false,
  tabindex?: number,
): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'icon-button',
      'aria-label': label,
      title: label,
      'data-key': key,
      disabled,
      tabindex,
      onclick: onClick,
    },
    codicon(icon),
  );
}
