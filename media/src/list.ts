// The list of specs with their verdict badges and per-spec actions.
import type { ParsedPanelState } from '../../src/protocol';
import { codicon, h } from './dom';
import { STATUS_LOOK, statusOf, type SpecStatus } from './status';

export interface ListActions {
  check(id: string): void;
  edit(id: string): void;
  openSpec(id: string): void;
  openAnchor(anchor: string): void;
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

export function renderSpecList(state: ParsedPanelState, actions: ListActions): HTMLElement {
  if (state.specs.length === 0) {
    return h('p', { class: 'muted' }, 'No specs yet. Add the first one with “New spec”.');
  }
  return h(
    'ul',
    { class: 'spec-list', 'aria-label': 'Specs' },
    ...state.specs.map((spec) => {
      const status = statusOf(state, spec.id);
      const verdict = state.verdicts[spec.id];
      const detail = [verdict?.reason, verdict?.excerpt].filter(Boolean).join('\n');
      const firstLine = detail.split('\n').find((l) => l.trim()) ?? '';
      return h(
        'li',
        { class: `spec status-${status}`, 'data-spec-id': spec.id },
        h(
          'div',
          { class: 'spec-head' },
          statusBadge(status, detail || undefined),
          h('span', { class: 'spec-id' }, spec.id),
          auditBadge(state.audit?.[spec.id]),
        ),
        h('div', { class: 'spec-title' }, spec.title, ' ', h('span', { class: 'spec-kind' }, spec.kind)),
        // A pass carries a reason only when it is unverified (no test result seen): worth showing.
        firstLine ? h('div', { class: 'spec-reason', title: detail }, firstLine) : null,
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
        h(
          'div',
          { class: 'spec-actions' },
          iconButton(
            'play',
            `Check ${spec.id}`,
            `check:${spec.id}`,
            () => actions.check(spec.id),
            !state.trusted,
          ),
          iconButton('edit', `Edit ${spec.id}`, `edit:${spec.id}`, () => actions.edit(spec.id)),
          iconButton('go-to-file', `Open ${spec.id} in specs.json`, `open:${spec.id}`, () =>
            actions.openSpec(spec.id),
          ),
        ),
      );
    }),
  );
}

export function iconButton(
  icon: string,
  label: string,
  key: string,
  onClick: () => void,
  disabled = false,
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
      onclick: onClick,
    },
    codicon(icon),
  );
}
