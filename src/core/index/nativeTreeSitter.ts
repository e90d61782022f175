// The native `tree-sitter` Node binding as a parse host: the CLI's parse workers use it when it and the grammar
// packages load (an optional dependency compiled by node-gyp, so it may be missing), because it parses at about
// twice web-tree-sitter's speed per CPU-second (measured 2026-12-01). The queries are the same joined sources
// WASM compiles (grammars/queries, copied from the grammar packages), so both hosts extract the same things;
// test/e2e/index/nativeParser.test.ts compares them on this repository's own sources.
//
// Memory: the binding frees a tree only when V8 collects its JavaScript wrapper, and V8 does not see the trees'
// native memory (the binding reports none), so a plain loop grows to gigabytes (6.9 GB on the 42 MB corpus).
// The host therefore collects garbage itself after every ~2 MB parsed (collectIfDue), when the worker is
// between batches and holds no tree.
import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { GrammarLocation } from '../grammarLocation';
import type { ExtractionQuery, ParseHost, SyntaxTree } from './syntax';
import { leanNativeQuery, loadNativeAddon } from './nativeMatches';
import { joinedQuerySource } from './treeSitterHost';
import type { LanguageId } from './types';

interface NativeParser {
  setLanguage(language: unknown): void;
  parse(input: string, oldTree?: null, options?: { bufferSize?: number }): SyntaxTree;
}
interface NativeBinding {
  new (): NativeParser;
  Query: new (language: unknown, source: string) => Parameters<typeof leanNativeQuery>[0];
  SyntaxNode: Parameters<typeof leanNativeQuery>[3];
}

export interface NativeLanguage {
  id: LanguageId;
  parser: 'native';
  query: ExtractionQuery;
  grammar: unknown;
}

/** The grammar package and export of each indexed language. */
const grammarPackages: Record<LanguageId, { pkg: string; exportName?: string }> = {
  typescript: { pkg: 'tree-sitter-typescript', exportName: 'typescript' },
  tsx: { pkg: 'tree-sitter-typescript', exportName: 'tsx' },
  javascript: { pkg: 'tree-sitter-javascript' },
  python: { pkg: 'tree-sitter-python' },
  go: { pkg: 'tree-sitter-go' },
  rust: { pkg: 'tree-sitter-rust' },
  java: { pkg: 'tree-sitter-java' },
};

const collectEveryBytes = 2 * 1024 * 1024;

export type NativeLoad = { ok: true; host: NativeTreeSitterHost } | { ok: false; reason: string };

/**
 * Loads the native binding, resolved like the grammar packages: from node_modules above this file (dist/ or
 * out/src/core/index/). Never throws: a missing or unloadable binding is a reason, and the caller uses WASM.
 */
export function loadNativeTreeSitter(location: GrammarLocation, fromDir: string = __dirname): NativeLoad {
  const requireHere = createRequire(path.join(fromDir, 'noop.js'));
  let binding: NativeBinding;
  let addon: ReturnType<typeof loadNativeAddon>;
  try {
    binding = requireHere('tree-sitter') as NativeBinding;
    addon = loadNativeAddon(requireHere);
  } catch (error) {
    return { ok: false, reason: `the native tree-sitter binding does not load: ${firstLine(error)}` };
  }
  const gc = exposedGc();
  if (!gc) return { ok: false, reason: 'no garbage collector to call: native trees would never be freed' };
  return { ok: true, host: new NativeTreeSitterHost(binding, addon, requireHere, location, gc) };
}

export class NativeTreeSitterHost implements ParseHost {
  private readonly parser: NativeParser;
  private readonly loaded = new Map<LanguageId, Promise<NativeLanguage>>();
  private current: unknown;
  private liveTrees = 0;
  private bytesSinceCollect = 0;

  constructor(
    private readonly binding: NativeBinding,
    private readonly addon: ReturnType<typeof loadNativeAddon>,
    private readonly requireHere: NodeJS.Require,
    private readonly location: GrammarLocation,
    private readonly gc: () => void,
  ) {
    this.parser = new binding();
  }

  get liveTreeCount(): number {
    return this.liveTrees;
  }

  /** Rejects when the language's grammar package does not load or its queries do not compile natively. */
  language(id: LanguageId): Promise<NativeLanguage> {
    let entry = this.loaded.get(id);
    if (!entry) {
      entry = Promise.resolve().then(() => this.load(id));
      this.loaded.set(id, entry);
    }
    return entry;
  }

  parse(lang: NativeLanguage, text: string): SyntaxTree {
    if (this.current !== lang.grammar) {
      this.parser.setLanguage(lang.grammar);
      this.current = lang.grammar;
    }
    // The binding copies the input in chunks of bufferSize UTF-16 units; one chunk for the whole text is faster.
    const tree = this.parser.parse(text, null, { bufferSize: text.length + 1 });
    this.liveTrees++;
    this.bytesSinceCollect += text.length;
    return tree;
  }

  /** The tree is freed when collected: releasing drops the count, collectIfDue() frees the memory. */
  release(_tree: SyntaxTree): void {
    this.liveTrees--;
  }

  /** Collects garbage after every ~2 MB parsed; call it only while no tree is in use. */
  collectIfDue(): void {
    if (this.bytesSinceCollect < collectEveryBytes) return;
    this.bytesSinceCollect = 0;
    this.gc();
  }

  dispose(): void {
    this.loaded.clear();
  }

  private load(id: LanguageId): NativeLanguage {
    const { pkg, exportName } = grammarPackages[id];
    let grammar: unknown;
    try {
      const exported = this.requireHere(pkg) as Record<string, unknown>;
      grammar = exportName === undefined ? exported : exported[exportName];
    } catch (error) {
      throw new Error(`${pkg} does not load natively: ${firstLine(error)}`, { cause: error });
    }
    if (grammar === undefined) throw new Error(`${pkg} exports no ${exportName ?? 'grammar'}`);
    try {
      const source = joinedQuerySource(this.location.grammarsDir, id);
      const compiled = new this.binding.Query(grammar, source);
      const query = leanNativeQuery(compiled, source, this.addon, this.binding.SyntaxNode);
      return { id, parser: 'native', query, grammar };
    } catch (error) {
      throw new Error(`the ${id} queries do not compile natively: ${firstLine(error)}`, { cause: error });
    }
  }
}

/**
 * A function that runs a full garbage collection. node --expose-gc is a process flag (a worker cannot be
 * started with it), so it is set at run time and `gc` read from a fresh context, where V8 installs it.
 */
function exposedGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
