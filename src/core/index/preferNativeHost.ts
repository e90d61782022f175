// The parse host of a CLI parse worker: each language is parsed by the native tree-sitter binding when the binding
// and that language's grammar package load and its queries compile, and by web-tree-sitter otherwise, with the
// reason recorded (the index reports both: `weave index --json` stats.parser).
import type { GrammarLocation } from '../grammarLocation';
import { loadNativeTreeSitter, type NativeLanguage, type NativeTreeSitterHost } from './nativeTreeSitter';
import type { ParseHost, ParserKind, ParsingLanguage, SyntaxTree } from './syntax';
import { TreeSitterHost, type LoadedLanguage } from './treeSitterHost';
import type { LanguageId } from './types';

/** 'native': the native binding where it loads, WASM for the rest (the CLI). 'wasm': WASM only (the extension). */
export type ParserPreference = 'native' | 'wasm';

let processPreference: ParserPreference = 'wasm';

/**
 * Makes 'native' the default of every indexer this process creates: the CLI calls it at start. The extension
 * never does: the extension host keeps web-tree-sitter (a native addon would have to match its Electron/Node
 * ABI and platform, and a crash in it would take the host down).
 */
export function preferNativeParser(): void {
  processPreference = 'native';
}

export function defaultParserPreference(): ParserPreference {
  return processPreference;
}

export interface ParsersUsed {
  byLanguage: Partial<Record<LanguageId, ParserKind>>;
  fallbacks: Partial<Record<LanguageId, string>>;
}

export class PreferNativeHost implements ParseHost {
  private readonly wasm: TreeSitterHost;
  private readonly native: NativeTreeSitterHost | undefined;
  private readonly nativeUnavailable: string | undefined;
  private readonly nativeTrees = new WeakSet<SyntaxTree>();
  private readonly used: ParsersUsed = { byLanguage: {}, fallbacks: {} };

  constructor(location: GrammarLocation, preference: ParserPreference) {
    this.wasm = new TreeSitterHost(location);
    const native = preference === 'native' ? loadNativeTreeSitter(location) : undefined;
    this.native = native?.ok ? native.host : undefined;
    this.nativeUnavailable = native && !native.ok ? native.reason : undefined;
  }

  get liveTreeCount(): number {
    return this.wasm.liveTreeCount + (this.native?.liveTreeCount ?? 0);
  }

  /** Which parser each language loaded so far went to, and why not the native one where it was wanted. */
  parsersUsed(): ParsersUsed {
    return { byLanguage: { ...this.used.byLanguage }, fallbacks: { ...this.used.fallbacks } };
  }

  async language(id: LanguageId): Promise<ParsingLanguage> {
    if (this.native) {
      try {
        const lang = await this.native.language(id);
        this.used.byLanguage[id] = 'native';
        return lang;
      } catch (error) {
        this.used.fallbacks[id] = error instanceof Error ? error.message : String(error);
      }
    } else if (this.nativeUnavailable !== undefined) {
      this.used.fallbacks[id] = this.nativeUnavailable;
    }
    const lang = await this.wasm.language(id);
    this.used.byLanguage[id] = 'wasm';
    return lang;
  }

  parse(lang: ParsingLanguage, text: string): SyntaxTree {
    const loaded = lang as LoadedLanguage | NativeLanguage;
    if (loaded.parser === 'wasm') return this.wasm.parse(loaded, text);
    const tree = this.native!.parse(loaded, text);
    this.nativeTrees.add(tree);
    return tree;
  }

  release(tree: SyntaxTree): void {
    if (this.nativeTrees.has(tree)) {
      this.nativeTrees.delete(tree);
      this.native!.release(tree);
    } else {
      this.wasm.release(tree as Parameters<TreeSitterHost['release']>[0]);
    }
  }

  /** Between batches: lets the native host free the trees released since its last collection. */
  idle(): void {
    this.native?.collectIfDue();
  }

  dispose(): void {
    this.wasm.dispose();
    this.native?.dispose();
  }
}
