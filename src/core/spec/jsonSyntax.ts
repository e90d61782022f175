// What jsonc-parser leaves unsaid about a spec file's JSON, each located at the offending token: syntax errors
// in plain words (where jsonc-parser reports only a code), nesting too deep to parse safely, duplicate keys
// (JSON silently keeps the last) and trailing commas (accepted, but plain JSON rejects them). load.ts calls
// these before the schema sees the value.
import {
  createScanner,
  getNodePath,
  printParseErrorCode,
  type Node as JsonNode,
  type ParseError,
} from 'jsonc-parser';
import type { ProblemCollector } from './problemCollector';
import { formatJsonPath } from './problems';

// jsonc-parser's SyntaxKind values (a const enum in its typings, which isolatedModules cannot inline).
const OPEN_BRACE_TOKEN = 1;
const CLOSE_BRACE_TOKEN = 2;
const OPEN_BRACKET_TOKEN = 3;
const CLOSE_BRACKET_TOKEN = 4;
const COMMA_TOKEN = 5;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const EOF_TOKEN = 17;

/** Offset of the first bracket that opens level `maxDepth + 1`, found without recursion. */
export function offsetBeyondDepth(source: string, maxDepth: number): number | undefined {
  const scanner = createScanner(source, true);
  let depth = 0;
  for (let token = scanner.scan(); token !== EOF_TOKEN; token = scanner.scan()) {
    if (token === OPEN_BRACE_TOKEN || token === OPEN_BRACKET_TOKEN) {
      depth++;
      if (depth > maxDepth) return scanner.getTokenOffset();
    } else if (token === CLOSE_BRACE_TOKEN || token === CLOSE_BRACKET_TOKEN) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/** JSON keeps only the last of two equal keys, silently dropping the first: almost always a paste mistake. */
export function reportDuplicateKeys(node: JsonNode, collector: ProblemCollector): void {
  if (node.type === 'object') {
    const seen = new Set<string>();
    for (const property of node.children ?? []) {
      const key = property.children?.[0];
      if (key === undefined || typeof key.value !== 'string') continue;
      if (seen.has(key.value)) {
        collector.addAtOffset(
          key.offset,
          `duplicate key "${key.value}": JSON keeps only the last one`,
          'error',
          formatJsonPath(getNodePath(key)),
        );
      }
      seen.add(key.value);
    }
  }
  for (const child of node.children ?? []) reportDuplicateKeys(child, collector);
}

/** Trailing commas are accepted (JSONC), but VS Code's JSON mode flags them, so say so gently, at the comma. */
export function reportTrailingCommas(source: string, collector: ProblemCollector): void {
  const scanner = createScanner(source, true);
  let pendingComma: number | undefined;
  for (let token = scanner.scan(); token !== EOF_TOKEN; token = scanner.scan()) {
    if (token === LINE_COMMENT || token === BLOCK_COMMENT) continue;
    if (pendingComma !== undefined && (token === CLOSE_BRACE_TOKEN || token === CLOSE_BRACKET_TOKEN)) {
      collector.addAtOffset(pendingComma, 'trailing comma (allowed here, but not in plain JSON)', 'warning');
    }
    pendingComma = token === COMMA_TOKEN ? scanner.getTokenOffset() : undefined;
  }
}

/** A jsonc-parser error in words a user can act on, naming the token it found. */
export function syntaxMessage(error: ParseError, source: string, afterDocument: boolean): string {
  const found = describeToken(source, error.offset, error.length);
  if (afterDocument) return `syntax error: unexpected ${found} after the end of the JSON document`;
  switch (printParseErrorCode(error.error)) {
    case 'InvalidSymbol':
      return source[error.offset] === "'"
        ? `syntax error: unexpected ${found}: JSON strings and property names need double quotes`
        : `syntax error: unexpected ${found}`;
    case 'InvalidNumberFormat':
      return `syntax error: invalid number ${found}`;
    case 'PropertyNameExpected':
      return `syntax error: expected a property name in double quotes, found ${found}`;
    case 'ValueExpected':
      return `syntax error: expected a value, found ${found}`;
    case 'ColonExpected':
      return `syntax error: expected ':' after the property name, found ${found}`;
    case 'CommaExpected':
      return `syntax error: expected ',' before ${found}`;
    case 'CloseBraceExpected':
      return `syntax error: expected '}' to close an object, found ${found}`;
    case 'CloseBracketExpected':
      return `syntax error: expected ']' to close an array, found ${found}`;
    case 'EndOfFileExpected':
      return `syntax error: unexpected ${found} after the end of the JSON document`;
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return 'syntax error: unterminated /* comment */';
    case 'UnexpectedEndOfString':
      return 'syntax error: unterminated string (missing closing ")';
    case 'UnexpectedEndOfNumber':
      return 'syntax error: unfinished number';
    case 'InvalidUnicode':
      return 'syntax error: invalid \\u escape (write four hex digits)';
    case 'InvalidEscapeCharacter':
      return 'syntax error: invalid escape in a string (valid: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)';
    case 'InvalidCharacter':
      return 'syntax error: a raw control character (e.g. a line break or tab) inside a string; escape it (\\n, \\t)';
    default:
      return 'syntax error';
  }
}

/** jsonc-parser reports a bad escape at the start of its string; point at the backslash instead. */
export function errorOffset(error: ParseError, source: string): number {
  const code = printParseErrorCode(error.error);
  if (code !== 'InvalidEscapeCharacter' && code !== 'InvalidUnicode') return error.offset;
  const token = source.slice(error.offset, error.offset + error.length);
  const escape = /\\(?:u(?![0-9a-fA-F]{4})|[^"\\/bfnrtu])/.exec(token);
  return escape === null ? error.offset : error.offset + escape.index;
}

function describeToken(source: string, offset: number, length: number): string {
  if (offset >= source.length) return 'the end of the file';
  const token = source.slice(offset, offset + Math.max(1, Math.min(length, 30)));
  return JSON.stringify(token);
}
