// Tiny DOM builders: the panel is plain TypeScript, so elements are built here instead of from HTML strings
// (no innerHTML: spec text is user data and must never become markup).

type Child = Node | string | null | undefined | false;
type AttrValue = string | number | boolean | undefined | null;
type Attrs = Record<string, AttrValue | ((event: Event) => void)>;

function apply(element: Element, attrs: Attrs, children: Child[]): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== undefined && value !== null)
      element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  apply(element, attrs, children);
  return element;
}

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  apply(element, attrs, children);
  return element;
}

/** A decorative codicon (the accessible name comes from the text next to it or the button's aria-label). */
export function codicon(name: string, extra = ''): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name} ${extra}`.trim(), 'aria-hidden': 'true' });
}

/** Re-renders `root` while keeping keyboard focus on the element with the same data-key. */
export function replaceKeepingFocus(root: HTMLElement, ...children: Node[]): void {
  const active = document.activeElement;
  const key =
    active instanceof HTMLElement || active instanceof SVGElement ? active.dataset['key'] : undefined;
  // A state push while the user types in the filter box must not move the caret.
  const caret = active instanceof HTMLInputElement ? [active.selectionStart, active.selectionEnd] : undefined;
  root.replaceChildren(...children);
  if (!key) return;
  const next = root.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
  next?.focus();
  const [start, end] = caret ?? [];
  if (next instanceof HTMLInputElement && typeof start === 'number' && typeof end === 'number') {
    next.setSelectionRange(start, end);
  }
}
