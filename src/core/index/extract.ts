// Turns one parsed tree into definitions (with qualified names), references and import specifiers, from
// the language's joined query (stock tags + our definitions/imports queries, see languages.ts).
import type { ParsingLanguage, SyntaxNode as Node, SyntaxTree } from './syntax';
import type { LanguageId, Range, SymbolDef } from './types';

export interface ExtractedFile {
  symbols: SymbolDef[];
  references: string[];
  importSpecifiers: string[];
  hasSyntaxErrors: boolean;
}

const kindByCapture: Record<string, SymbolDef['kind']> = {
  class: 'class',
  interface: 'interface',
  function: 'function',
  method: 'method',
  module: 'module',
  type: 'type',
  enum: 'enum',
  constant: 'constant',
  field: 'field',
};

/** When two captures name the same node, the more specific kind wins, whatever order the matches come in. */
const kindRank: Partial<Record<SymbolDef['kind'], number>> = { method: 3, function: 2, class: 2 };

/** A definition or a qualifier scope (a Go receiver, a Rust impl block) before nesting is resolved. */
interface Scoped {
  start: number;
  end: number;
  name: string;
  /** The name as qualified inside its scope: `name`, or `picomatch.test` for `picomatch.test = …`. */
  local: string;
  /** undefined for a qualifier: it names its contents but is not a symbol itself. */
  def?: SymbolDef;
}

export function extractFile(tree: SyntaxTree, lang: ParsingLanguage): ExtractedFile {
  const defs = new Map<string, Scoped>();
  const qualifiers: Scoped[] = [];
  const references = new Set<string>();
  const importSpecifiers = new Set<string>();

  for (const match of lang.query.matches(tree.rootNode)) {
    let nameNode: Node | undefined;
    let defNode: Node | undefined;
    let defKind: string | undefined;
    let isReference = false;
    let qualifierNode: Node | undefined;
    let qualifierName: Node | undefined;
    for (const capture of match.captures) {
      const c = capture.name;
      if (c === 'name') nameNode = capture.node;
      else if (c.startsWith('definition.')) {
        defNode = capture.node;
        defKind = c.slice('definition.'.length);
      } else if (c.startsWith('reference.')) isReference = true;
      else if (c === 'qualifier') qualifierNode = capture.node;
      else if (c === 'qualifier.name') qualifierName = capture.node;
      else if (c.startsWith('import')) addImport(lang.id, c, capture.node, importSpecifiers);
    }
    if (qualifierNode && qualifierName) {
      qualifiers.push({
        start: qualifierNode.startIndex,
        end: qualifierNode.endIndex,
        name: qualifierName.text,
        local: qualifierName.text,
      });
    }
    if (!nameNode) continue;
    if (defNode && defKind !== undefined) {
      if (isNamedValueOfDefinition(defNode)) continue;
      const name = nameNode.text;
      const key = `${defNode.startIndex}:${defNode.endIndex}:${name}`;
      const kind = kindByCapture[defKind] ?? 'other';
      const existing = defs.get(key);
      // The same node can match twice (Rust: a function in an impl's declaration list is both a method and a
      // function; JS: a function assigned to `exports.x` is both a function and an exported value); the more
      // specific kind wins.
      if (existing?.def) {
        if ((kindRank[kind] ?? 1) > (kindRank[existing.def.kind] ?? 1)) existing.def.kind = kind;
        continue;
      }
      const local = memberPrefix(defNode) + name;
      defs.set(key, {
        start: defNode.startIndex,
        end: defNode.endIndex,
        name,
        local,
        def: { name, qualifiedName: local, kind, range: rangeOf(defNode), nameRange: rangeOf(nameNode) },
      });
    } else if (isReference) {
      references.add(nameNode.text);
    }
  }

  return {
    symbols: qualify([...defs.values()], qualifiers),
    references: [...references],
    importSpecifiers: [...importSpecifiers],
    hasSyntaxErrors: tree.rootNode.hasError,
  };
}

/**
 * Qualifies each definition by the definitions and qualifier scopes that contain it (`Class.method`,
 * `outer.inner`, Go `Type.Method`, Rust `Type.method`), and calls a function directly inside a class a method.
 */
function qualify(defs: Scoped[], qualifiers: Scoped[]): SymbolDef[] {
  // Outer before inner: by start, then longest first; a qualifier before a definition of the same range
  // (a Go method declaration is both).
  const all = [...qualifiers, ...defs].sort(
    (a, b) => a.start - b.start || b.end - a.end || Number(a.def !== undefined) - Number(b.def !== undefined),
  );
  const stack: Scoped[] = [];
  const symbols: SymbolDef[] = [];
  for (const item of all) {
    while (
      stack.length > 0 &&
      !(stack[stack.length - 1]!.start <= item.start && item.end <= stack[stack.length - 1]!.end)
    ) {
      stack.pop();
    }
    if (item.def) {
      const parent = stack[stack.length - 1];
      if (parent) {
        item.def.qualifiedName = `${parent.def ? parent.def.qualifiedName : qualifiedScopeName(stack)}.${item.local}`;
        if (item.def.kind === 'function' && (parent.def?.kind === 'class' || parent.def === undefined)) {
          item.def.kind = 'method';
        }
      }
      symbols.push(item.def);
    }
    stack.push(item);
  }
  return symbols;
}

/** Definitions whose value is a function: `x.f = function g() {}` is the symbol `x.f`, not also `x.f.g`. */
const definingParents = new Set([
  'assignment_expression',
  'variable_declarator',
  'pair',
  'field_definition',
  'public_field_definition',
]);
function isNamedValueOfDefinition(defNode: Node): boolean {
  return (
    (defNode.type === 'function_expression' || defNode.type === 'function') &&
    definingParents.has(defNode.parent?.type ?? '')
  );
}

/**
 * What a definition assigned to a member is qualified by: `picomatch.test = …` → `picomatch.`,
 * `Foo.prototype.bar = …` → `Foo.`; the module's own exports (`exports.x`, `module.exports.x`) and `this`
 * qualify nothing (the definition belongs to the module or to the enclosing class).
 */
function memberPrefix(defNode: Node): string {
  if (defNode.type !== 'assignment_expression') return '';
  const left = defNode.childForFieldName('left');
  if (left?.type !== 'member_expression') return '';
  const object = left.childForFieldName('object')?.text.replace(/\s+/g, '') ?? '';
  const owner = object.replace(/\.prototype$/, '');
  if (owner === '' || owner === 'this' || /^(module\.)?exports$/.test(owner)) return '';
  return /^[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u.test(owner) ? `${owner}.` : '';
}

/** The qualified name of the innermost scope on the stack when it is a qualifier (not itself a symbol). */
function qualifiedScopeName(stack: Scoped[]): string {
  const names: string[] = [];
  for (let i = stack.length - 1; i >= 0; i--) {
    const s = stack[i]!;
    if (s.def) {
      names.unshift(s.def.qualifiedName);
      break;
    }
    names.unshift(s.name);
  }
  return names.join('.');
}

function addImport(language: LanguageId, capture: string, node: Node, out: Set<string>): void {
  switch (language) {
    case 'python':
      if (capture === 'import' || capture === 'import.from') out.add(node.text);
      else if (capture === 'import.name') {
        // `from .pkg import mod`: the name may be a submodule, so `.pkg.mod` is a candidate too.
        const statement = node.parent?.type === 'aliased_import' ? node.parent.parent : node.parent;
        const from = statement?.childForFieldName('module_name')?.text;
        if (from !== undefined) out.add(from.endsWith('.') ? from + node.text : `${from}.${node.text}`);
      }
      return;
    case 'go':
      out.add(node.text.replace(/^["`]|["`]$/g, ''));
      return;
    case 'rust':
      out.add(capture === 'import.mod' ? `mod ${node.text}` : node.text.replace(/\s+/g, ''));
      return;
    case 'java':
      out.add(
        node.text
          .replace(/^import\s+/, '')
          .replace(/;\s*$/, '')
          .replace(/\s+/g, ' ')
          .trim(),
      );
      return;
    default:
      if (capture === 'import') out.add(node.text);
  }
}

function rangeOf(node: Node): Range {
  const s = node.startPosition;
  const e = node.endPosition;
  return { start: { line: s.row, column: s.column }, end: { line: e.row, column: e.column } };
}
