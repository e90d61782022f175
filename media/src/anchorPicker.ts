// A path field of the form (anchors, test files): chosen values as removable chips plus an ARIA combobox that
// searches the tree-sitter index (through the extension) for files and symbols (files only for test files).
// Enter takes the highlighted suggestion. Text that matches nothing is added only on a second Enter, after
// the field said so: an anchor may name a file the index does not know yet, but a typo must not slip in.
import { symbolSearchQuery, type SymbolMatch } from '../../src/shared/protocol';
import { codicon, h } from './dom';

const SEARCH_DELAY_MS = 150;

export interface PickerConfig {
  /** Field name: the ids are `field-<name>`, `<name>-options`, `<name>-help`. */
  name: string;
  /** What one value is called in messages: "anchor", "test file". */
  noun: string;
  /** Offer files only (test files), not symbols. */
  filesOnly: boolean;
  placeholder: string;
  help: string;
}

export const ANCHORS_PICKER: PickerConfig = {
  name: 'anchors',
  noun: 'anchor',
  filesOnly: false,
  placeholder: 'Search files and symbols…',
  help: 'A file, or file#Symbol. ↑/↓ choose, Enter adds.',
};

export class AnchorPicker {
  readonly element: HTMLElement;
  private anchors: string[];
  private options: SymbolMatch[] = [];
  private active = -1;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  private latestQuery = '';
  /** Typed text that matched nothing: a second Enter adds it as typed. */
  private confirmAsTyped: string | undefined;
  private readonly chips: HTMLUListElement;
  readonly input: HTMLInputElement;
  private readonly listbox: HTMLUListElement;
  private readonly status: HTMLElement;

  constructor(
    initial: readonly string[],
    private readonly search: (
      query: string,
    ) => Promise<{ symbols: SymbolMatch[]; error?: string | undefined }>,
    private readonly onChange: () => void,
    describedBy: string,
    private readonly config: PickerConfig = ANCHORS_PICKER,
  ) {
    this.anchors = [...initial];
    this.chips = h('ul', { class: 'chips', 'aria-label': `Chosen ${config.noun}s` });
    this.listbox = h('ul', { id: `${config.name}-options`, class: 'options', role: 'listbox', hidden: true });
    this.status = h('p', { class: 'muted small', 'aria-live': 'polite' });
    this.input = h('input', {
      id: `field-${config.name}`,
      type: 'text',
      role: 'combobox',
      autocomplete: 'off',
      spellcheck: 'false',
      'aria-autocomplete': 'list',
      'aria-expanded': 'false',
      'aria-controls': `${config.name}-options`,
      'aria-describedby': `${config.name}-help ${describedBy}`,
      placeholder: config.placeholder,
    });
    this.input.addEventListener('input', () => {
      this.confirmAsTyped = undefined;
      this.scheduleSearch();
    });
    this.input.addEventListener('keydown', (e) => this.onKey(e));
    this.input.addEventListener('blur', () => this.close());
    this.element = h(
      'div',
      { class: 'anchor-picker' },
      this.chips,
      h('div', { class: 'combo' }, this.input, this.listbox),
      h('p', { id: `${config.name}-help`, class: 'muted small' }, config.help),
      this.status,
    );
    this.renderChips();
  }

  value(): string[] {
    return [...this.anchors];
  }

  private scheduleSearch(): void {
    clearTimeout(this.searchTimer);
    const query = symbolSearchQuery(this.input.value);
    if (!query) {
      this.close();
      return;
    }
    this.searchTimer = setTimeout(() => void this.runSearch(query), SEARCH_DELAY_MS);
  }

  private async runSearch(query: string): Promise<void> {
    this.latestQuery = query;
    this.status.textContent = 'Searching…';
    const { symbols, error } = await this.search(query);
    if (query !== this.latestQuery || symbolSearchQuery(this.input.value) !== query) return; // a newer search is on its way
    this.options = symbols.filter(
      (s) => !this.anchors.includes(s.anchor) && (!this.config.filesOnly || s.qualifiedName === undefined),
    );
    this.active = this.options.length ? 0 : -1;
    this.status.textContent = error
      ? `Symbol search failed: ${error}`
      : `${this.options.length} suggestion${this.options.length === 1 ? '' : 's'}`;
    this.renderOptions();
  }

  private onKey(event: KeyboardEvent): void {
    const open = !this.listbox.hidden && this.options.length > 0;
    if (event.key === 'ArrowDown' && open) {
      this.active = (this.active + 1) % this.options.length;
    } else if (event.key === 'ArrowUp' && open) {
      this.active = (this.active - 1 + this.options.length) % this.options.length;
    } else if (event.key === 'Enter') {
      const typed = this.input.value.trim();
      const suggestion = open && this.active >= 0 ? this.options[this.active]?.anchor : undefined;
      if (!suggestion && !typed) return;
      event.preventDefault(); // Enter adds a value; it must not submit the form
      if (suggestion) {
        this.add(suggestion);
      } else if (this.confirmAsTyped === typed) {
        this.add(typed);
      } else {
        this.confirmAsTyped = typed;
        this.status.textContent = `Nothing in the workspace index matches “${typed}”. Press Enter again to add it as typed.`;
      }
      return;
    } else if (event.key === 'Escape' && open) {
      event.stopPropagation();
      this.close();
      return;
    } else {
      return;
    }
    event.preventDefault();
    this.renderOptions();
  }

  private add(anchor: string): void {
    if (!this.anchors.includes(anchor)) this.anchors.push(anchor);
    this.input.value = '';
    this.confirmAsTyped = undefined;
    this.close();
    this.renderChips();
    this.status.textContent = `Added ${this.config.noun} ${anchor}`;
    this.onChange();
  }

  private remove(anchor: string): void {
    this.anchors = this.anchors.filter((a) => a !== anchor);
    this.renderChips();
    this.input.focus();
    this.status.textContent = `Removed ${this.config.noun} ${anchor}`;
    this.onChange();
  }

  private close(): void {
    this.options = [];
    this.active = -1;
    this.renderOptions();
  }

  private renderOptions(): void {
    const open = this.options.length > 0;
    this.listbox.hidden = !open;
    this.input.setAttribute('aria-expanded', String(open));
    this.listbox.replaceChildren(
      ...this.options.map((option, i) => {
        const item = h(
          'li',
          {
            id: `${this.config.name}-option-${i}`,
            role: 'option',
            class: i === this.active ? 'option active' : 'option',
            'aria-selected': String(i === this.active),
          },
          codicon(option.kind === 'file' ? 'file' : 'symbol-method'),
          ' ',
          h('span', {}, option.qualifiedName ?? option.file),
          option.qualifiedName ? h('span', { class: 'muted small' }, ` ${option.file}`) : null,
        );
        // mousedown, not click: the input must keep focus (its blur would close the list first).
        item.addEventListener('mousedown', (e) => {
          e.preventDefault();
          this.add(option.anchor);
        });
        return item;
      }),
    );
    if (open && this.active >= 0)
      this.input.setAttribute('aria-activedescendant', `${this.config.name}-option-${this.active}`);
    else this.input.removeAttribute('aria-activedescendant');
  }

  private renderChips(): void {
    this.chips.replaceChildren(
      ...this.anchors.map((anchor) =>
        h(
          'li',
          { class: 'chip' },
          h('span', {}, anchor),
          h(
            'button',
            {
              type: 'button',
              class: 'icon-button',
              'aria-label': `Remove ${this.config.noun} ${anchor}`,
              title: `Remove ${anchor}`,
              onclick: () => this.remove(anchor),
            },
            codicon('close'),
          ),
        ),
      ),
    );
  }
}
