// Mutation operators over tree-sitter syntax trees (JavaScript, TypeScript/TSX, Python). Each operator looks at
// one node and proposes small, syntactically valid changes of its text: the classic "would a test notice?"
// edits. A mutant is a text replacement (start/end offsets in UTF-16 code units, as tree-sitter reports them for
// a JavaScript string), so applying and undoing one is a string splice, never a re-print of the tree.
import type { Node } from 'web-tree-sitter';
import type { LanguageId } from '../index';

export const MUTATION_OPERATORS = [
  'relational',
  'equality',
  'arithmetic',
  'assignment',
  'boolean',
  'off-by-one',
  'negate-condition',
  'return-value',
  'delete-statement',
] as const;
export type MutationOperator = (typeof MUTATION_OPERATORS)[number];

/** A proposed change: replace text[start, end) by `replacement`. */
export interface MutationEdit {
  operator: MutationOperator;
  start: number;
  end: number;
  original: string;
  replacement: string;
  /** 0-based, of `start`. */
  row: number;
  column: number;
}

export type MutableLanguage = 'javascript' | 'typescript' | 'tsx' | 'python';

export function isMutableLanguage(language: LanguageId): language is MutableLanguage {
  return (
    language === 'javascript' || language === 'typescript' || language === 'tsx' || language === 'python'
  );
}

const RELATIONAL: Record<string, string> = { '<': '<=', '<=': '<', '>': '>=', '>=': '>' };
const EQUALITY: Record<string, string> = { '===': '!==', '!==': '===', '==': '!=', '!=': '==' };
const ARITHMETIC: Record<string, string> = { '+': '-', '-': '+', '*': '/', '/': '*', '%': '*', '//': '*' };
/** Compound assignments: `total += x` → `total -= x` (the accumulator's classic slip). */
const ASSIGNMENT: Record<string, string> = {
  '+=': '-=',
  '-=': '+=',
  '*=': '/=',
  '/=': '*=',
  '%=': '*=',
  '//=': '*=',
};
const BOOLEAN_JS: Record<string, string> = { '&&': '||', '||': '&&', '??': '&&' };
const BOOLEAN_PY: Record<string, string> = { and: 'or', or: 'and' };

/** The mutations one node offers (none for most nodes). `python` selects the language's spelling. */
export function mutationsAt(node: Node, language: MutableLanguage): MutationEdit[] {
  const python = language === 'python';
  const out: MutationEdit[] = [];
  const edit: Edit = (operator, target, replacement) => {
    out.push({
      operator,
      start: target.startIndex,
      end: target.endIndex,
      original: target.text,
      replacement,
      row: target.startPosition.row,
      column: target.startPosition.column,
    });
  };
  operatorMutations(node, python, edit);
  valueMutations(node, python, edit);
  statementMutations(node, python, edit);
  return out;
}

type Edit = (operator: MutationOperator, target: Node, replacement: string) => void;

/** Swapped operators: relational, equality, arithmetic, boolean and compound assignments. */
function operatorMutations(node: Node, python: boolean, edit: Edit): void {
  const swapOperator = (operatorNode: Node | null): void => {
    if (!operatorNode) return;
    const op = operatorNode.type;
    const relational = RELATIONAL[op];
    const equality = EQUALITY[op];
    const arithmetic = ARITHMETIC[op];
    const boolean = python ? BOOLEAN_PY[op] : BOOLEAN_JS[op];
    if (relational !== undefined) edit('relational', operatorNode, relational);
    else if (equality !== undefined) edit('equality', operatorNode, equality);
    else if (arithmetic !== undefined && !isStringConcatenation(node, op))
      edit('arithmetic', operatorNode, arithmetic);
    else if (boolean !== undefined) edit('boolean', operatorNode, boolean);
  };
  switch (node.type) {
    case 'binary_expression': // JS/TS: a < b, a + b, a && b
    case 'binary_operator': // Python: a + b
    case 'boolean_operator': // Python: a and b
      swapOperator(node.childForFieldName('operator'));
      break;
    case 'augmented_assignment_expression': // JS/TS: total += x
    case 'augmented_assignment': {
      // Python: total += x
      const operatorNode = node.childForFieldName('operator');
      const swapped = operatorNode ? ASSIGNMENT[operatorNode.type] : undefined;
      if (operatorNode && swapped !== undefined && !isStringAppend(node, operatorNode.type))
        edit('assignment', operatorNode, swapped);
      break;
    }
    case 'comparison_operator': // Python: a < b (possibly chained: a < b < c)
      for (const child of node.children) {
        if (
          child &&
          !child.isNamed &&
          (RELATIONAL[child.type] !== undefined || EQUALITY[child.type] !== undefined)
        )
          swapOperator(child);
      }
      break;
  }
}

/** Changed values: integers off by one, booleans flipped. */
function valueMutations(node: Node, python: boolean, edit: Edit): void {
  switch (node.type) {
    case 'number': // JS/TS
    case 'integer': {
      // Python
      const value = integerValue(node.text);
      if (value !== undefined) {
        edit('off-by-one', node, String(value + 1n));
        if (value > 0n) edit('off-by-one', node, String(value - 1n));
      }
      break;
    }
    case 'true':
      edit('boolean', node, python ? 'False' : 'false');
      break;
    case 'false':
      edit('boolean', node, python ? 'True' : 'true');
      break;
  }
}

/** Changed statements: negated conditions, returned values dropped, statements deleted. */
function statementMutations(node: Node, python: boolean, edit: Edit): void {
  switch (node.type) {
    case 'if_statement':
    case 'while_statement':
    case 'do_statement':
    case 'elif_clause':
    case 'ternary_expression':
    case 'conditional_expression': {
      const condition = conditionOf(node, python);
      if (condition) edit('negate-condition', condition, negated(condition, python));
      break;
    }
    case 'return_statement': {
      const value = node.namedChildren.find((c) => c !== null && c.type !== 'comment');
      if (value) edit('return-value', value, python ? 'None' : 'undefined');
      break;
    }
    case 'expression_statement': {
      if (!isDeletable(node, python)) break;
      // Python needs a statement where one was; JavaScript takes an empty statement.
      edit('delete-statement', node, python ? 'pass' : ';');
      break;
    }
  }
}

/** `'a' + b` in JS stays: turning a concatenation into a subtraction gives NaN, which every test notices. */
function isStringConcatenation(node: Node, op: string): boolean {
  if (op !== '+') return false;
  const sides = [node.childForFieldName('left'), node.childForFieldName('right')];
  return sides.some((s) => s !== null && (s.type === 'string' || s.type === 'template_string'));
}

/** `out += ' '` stays, like a concatenation: `-=` on a string yields NaN (JS) or a TypeError (Python). */
function isStringAppend(node: Node, op: string): boolean {
  if (op !== '+=') return false;
  const right = node.childForFieldName('right');
  return right !== null && ['string', 'template_string', 'concatenated_string'].includes(right.type);
}

function integerValue(text: string): bigint | undefined {
  const digits = text.replace(/_/g, '');
  if (!/^\d+$/.test(digits)) return undefined;
  return BigInt(digits);
}

function conditionOf(node: Node, python: boolean): Node | null {
  const condition = node.childForFieldName('condition');
  if (condition) return condition;
  // Python's conditional expression: `a if cond else b` has three unnamed-field expressions; cond is the second.
  if (python && node.type === 'conditional_expression') return node.namedChildren[1] ?? null;
  return null;
}

function negated(condition: Node, python: boolean): string {
  if (python) return `not (${condition.text})`;
  // JS conditions of if/while come parenthesised: `(x > 1)` → `(!(x > 1))`.
  if (condition.type === 'parenthesized_expression') return `(!${condition.text})`;
  return `!(${condition.text})`;
}

/** Calls and assignments are worth deleting; a bare string (a docstring, 'use strict') or a literal is not. */
function isDeletable(node: Node, python: boolean): boolean {
  const expression = node.namedChildren[0];
  if (!expression) return false;
  const deletable = python
    ? ['call', 'assignment', 'augmented_assignment', 'await']
    : [
        'call_expression',
        'assignment_expression',
        'augmented_assignment_expression',
        'update_expression',
        'await_expression',
      ];
  if (!deletable.includes(expression.type)) return false;
  // `super(...)` in a constructor cannot go: the class would not construct at all (a syntax-level error in JS).
  return !(
    expression.type === 'call_expression' && expression.childForFieldName('function')?.type === 'super'
  );
}
