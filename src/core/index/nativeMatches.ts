// The native binding's query matches, made cheaper for the index (issue #26: on the native binding extraction cost
// 0.99× the parse, 0.77× through this module; bench corpus, single thread, CPU time, 2026-12-02). The binding's own
// Query.matches turns every captured node into a JavaScript node object registered in the tree's node cache
// (a weak handle plus a finalizer per node, which V8 must later run) and sends a capture-name string per capture.
// This module calls the same native matcher (`_matches`, ts_query_cursor in C) and:
//   - builds, per captured node, a small CapturedNode instead of a node object of the binding's classes, not
//     registered in the node cache (the cache only keeps node identity across calls, which extraction never
//     compares; a captured node holds its tree, so the tree outlives it). Most captures are only asked where
//     they start and their text: the start is in the node's transfer fields (TSNode.context, what the binding's
//     own getters read in C), the end takes one native call; anything else goes to a binding node made on first
//     use (issue #26: the binding's node constructor and getters were ~10% of a worker's time, 2026-12-03);
//   - disables the `@reference.*` captures in C: extraction reads only their name (is this match a reference?),
//     never their node, so the pattern's capture name is put back in JavaScript without a node crossing
//     Node-API (the match's name node stands in for it);
//   - keeps the binding's predicates (#eq?, #match?, … compiled by the binding from the same query source),
//     evaluated on the same captures as before.
// The results are the binding's Query.matches results minus those two costs: test/e2e/index/nativeParser.test.ts
// compares extraction on native and WASM trees over this repository's sources.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ExtractionQuery, SyntaxNode } from './syntax';

/** Fields of a node in the binding's transfer array: node id (2 words), then TSNode.context[0..3]. */
const nodeFieldCount = 6;
/** The symbol the binding reports for an ERROR node, which has no node subclass. */
const errorSymbol = 0xffff;

/** The parts of the binding (its native addon and the classes index.js wraps around it) the matcher uses. */
interface NativeAddon {
  nodeTransferArray: Uint32Array;
  /** The native node methods index.js's node getters call, each on the node in the transfer array. */
  NodeMethods: { endIndex(tree: unknown): number };
}
type NodeClass = new (tree: unknown) => Record<number, number>;
interface NativeQuery {
  _matches(tree: unknown, ...range: number[]): [Array<number | string>, Array<number | object | null>];
  predicates: ReadonlyArray<ReadonlyArray<(captures: Capture[]) => boolean>>;
  disableCapture(name: string): void;
  startIndexForPattern(pattern: number): number;
  endIndexForPattern(pattern: number): number;
}
interface NativeTree {
  rootNode: Record<number, number>;
  language: { nodeSubclasses: NodeClass[] };
  getText(node: { startIndex: number; endIndex: number }): string;
}
interface Capture {
  name: string;
  node: SyntaxNode;
}

/**
 * The native binding's addon object (the one its index.js wraps), loaded the way index.js loads it:
 * node-gyp-build from the package's folder returns the already-loaded module.
 */
export function loadNativeAddon(requireHere: NodeJS.Require): NativeAddon {
  const packageDir = path.dirname(requireHere.resolve('tree-sitter/package.json'));
  const requireInPackage = createRequire(path.join(packageDir, 'index.js'));
  const gypBuild = requireInPackage('node-gyp-build') as (dir: string) => NativeAddon;
  const addon = gypBuild(packageDir);
  if (!(addon.nodeTransferArray instanceof Uint32Array))
    throw new Error('the native tree-sitter addon has no node transfer array');
  return addon;
}

/**
 * Wraps a compiled native query: `matches(root)` as the binding's own, cheaper. `source` is the query's source
 * text (pattern offsets are UTF-8 byte offsets into it); `syntaxNodeClass` is the binding's SyntaxNode (ERROR
 * nodes are of it).
 */
export function leanNativeQuery(
  query: NativeQuery,
  source: string,
  addon: NativeAddon,
  syntaxNodeClass: NodeClass,
): ExtractionQuery {
  const referenceCaptureOf = referenceCaptures(query, source);
  for (const name of new Set(referenceCaptureOf.values())) query.disableCapture(name);
  return {
    matches(node: SyntaxNode) {
      const from = node as unknown as NativeTree['rootNode'] & { tree: NativeTree };
      return matchesOf(query, from.tree, from, addon, syntaxNodeClass, referenceCaptureOf);
    },
  };
}

/**
 * Pattern index → its `@reference.*` capture name, for the patterns that have one. Empty (nothing is disabled)
 * when a pattern holds more than one reference capture or captures anything but a name besides: its reference
 * capture could be absent from a match, which only its node would tell.
 */
function referenceCaptures(query: NativeQuery, source: string): Map<number, string> {
  const bytes = Buffer.from(source, 'utf8');
  const out = new Map<number, string>();
  for (let pattern = 0; pattern < query.predicates.length; pattern++) {
    const text = bytes
      .subarray(query.startIndexForPattern(pattern), query.endIndexForPattern(pattern))
      .toString('utf8');
    const names = new Set([...withoutComments(text).matchAll(/@([\w.-]+)/g)].map((m) => m[1]!));
    const references = [...names].filter((n) => n.startsWith('reference.'));
    if (references.length === 0) continue;
    if (references.length > 1 || [...names].some((n) => n !== 'name' && !n.startsWith('reference.')))
      return new Map();
    out.set(pattern, references[0]!);
  }
  return out;
}

/** Query source without its `; …` comments (a pattern's source runs on to the next one, comments included). */
function withoutComments(source: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += source[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === ';') {
      while (i < source.length && source[i] !== '\n') i++;
      out += '\n';
    } else {
      out += c;
      if (c === '"') inString = true;
    }
  }
  return out;
}

function matchesOf(
  query: NativeQuery,
  tree: NativeTree,
  from: Record<number, number>,
  addon: NativeAddon,
  syntaxNodeClass: NodeClass,
  referenceCaptureOf: Map<number, string>,
): Array<{ captures: Capture[] }> {
  // The native side reads the node to match under from the transfer array (what the binding's marshalNode does).
  for (let i = 0; i < nodeFieldCount; i++) addon.nodeTransferArray[i] = from[i]!;
  const [flat, nodes] = query._matches(tree, 0, 0, 0, 0, 0, 0, 0xffffffff, 0xffffffff, 0);
  // Read after the call: the binding reallocates the transfer array when it needs a larger one.
  const transfer = addon.nodeTransferArray;
  const classes = tree.language.nodeSubclasses;
  const built: SyntaxNode[] = new Array<SyntaxNode>(nodes.length);
  let offset = 0;
  for (let i = 0; i < nodes.length; i++) {
    const value = nodes[i];
    // An object: a node the tree's cache already holds (the root); a number: the node's symbol, with its
    // fields in the transfer array.
    if (typeof value === 'number') {
      const NodeType = value === errorSymbol ? syntaxNodeClass : (classes[value] ?? syntaxNodeClass);
      built[i] = new CapturedNode(tree, NodeType, addon, transfer, offset);
      offset += nodeFieldCount;
    } else {
      built[i] = value as unknown as SyntaxNode;
    }
  }
  const results: Array<{ captures: Capture[] }> = [];
  let i = 0;
  let nodeIndex = 0;
  while (i < flat.length) {
    const pattern = flat[i++] as number;
    const captures: Capture[] = [];
    while (i < flat.length && typeof flat[i] === 'string') {
      captures.push({ name: flat[i++] as string, node: built[nodeIndex++]! });
    }
    if (!query.predicates[pattern]!.every((p) => p(captures))) continue;
    const reference = referenceCaptureOf.get(pattern);
    if (reference !== undefined && captures.length > 0)
      captures.push({ name: reference, node: captures[0]!.node });
    results.push({ captures });
  }
  return results;
}

/** The node types whose class names the type in the binding (its prototype's `type`); others ask natively. */
const typeOfClass = new WeakMap<NodeClass, string | null>();
function classType(NodeType: NodeClass): string | undefined {
  let type = typeOfClass.get(NodeType);
  if (type === undefined) {
    const own = Object.getOwnPropertyDescriptor(NodeType.prototype, 'type')?.value as unknown;
    type = typeof own === 'string' ? own : null;
    typeOfClass.set(NodeType, type);
  }
  return type ?? undefined;
}

/**
 * A captured node: its transfer fields (node id, TSNode.context) and its binding class. `startIndex` and
 * `startPosition` are read from the fields as the binding's C getters compute them (UTF-16 input: byte offsets
 * and columns are twice the code-unit counts), `endIndex` with one native call, `text` as the binding's
 * tree.getText; the rest from a binding node built on first use.
 */
class CapturedNode implements SyntaxNode {
  private readonly f0: number;
  private readonly f1: number;
  private readonly f2: number;
  private readonly f3: number;
  private readonly f4: number;
  private readonly f5: number;
  private end = -1;
  private node: SyntaxNode | undefined;

  constructor(
    private readonly tree: NativeTree,
    private readonly NodeType: NodeClass,
    private readonly addon: NativeAddon,
    transfer: Uint32Array,
    offset: number,
  ) {
    this.f0 = transfer[offset]!;
    this.f1 = transfer[offset + 1]!;
    this.f2 = transfer[offset + 2]!;
    this.f3 = transfer[offset + 3]!;
    this.f4 = transfer[offset + 4]!;
    this.f5 = transfer[offset + 5]!;
  }

  get startIndex(): number {
    return this.f2 >>> 1;
  }

  get startPosition(): { row: number; column: number } {
    return { row: this.f3, column: this.f4 >>> 1 };
  }

  get endIndex(): number {
    if (this.end < 0) {
      const transfer = this.addon.nodeTransferArray;
      transfer[0] = this.f0;
      transfer[1] = this.f1;
      transfer[2] = this.f2;
      transfer[3] = this.f3;
      transfer[4] = this.f4;
      transfer[5] = this.f5;
      this.end = this.addon.NodeMethods.endIndex(this.tree);
    }
    return this.end;
  }

  get text(): string {
    return this.tree.getText(this);
  }

  get type(): string {
    return classType(this.NodeType) ?? this.bindingNode().type;
  }

  get endPosition() {
    return this.bindingNode().endPosition;
  }

  get parent() {
    return this.bindingNode().parent;
  }

  get hasError() {
    return this.bindingNode().hasError;
  }

  childForFieldName(fieldName: string) {
    return this.bindingNode().childForFieldName(fieldName);
  }

  toString(): string {
    return this.bindingNode().toString();
  }

  /** The same node as an object of the binding's class (not registered in its node cache). */
  private bindingNode(): SyntaxNode {
    if (!this.node) {
      const fresh = new this.NodeType(this.tree);
      fresh[0] = this.f0;
      fresh[1] = this.f1;
      fresh[2] = this.f2;
      fresh[3] = this.f3;
      fresh[4] = this.f4;
      fresh[5] = this.f5;
      this.node = fresh as unknown as SyntaxNode;
    }
    return this.node;
  }
}
