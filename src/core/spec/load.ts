// Loading `.weave/specs.json`: read the bytes safely (missing, directory, huge, not UTF-8), parse JSONC with
// jsonc-parser (keeping offsets), validate with the zod schema, then the cross-spec checks. Every problem is
// located at file:line:column with a JSON path; nothing here throws on bad input.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  createScanner,
  getNodePath,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  stripComments,
  type Node as JsonNode,
  type ParseError,
} from 'jsonc-parser';
import { SpecGraph } from './graph';
import { LineMap, SpecLocations } from './locations';
import { ProblemCollector } from './problemCollector';
import { formatJsonPath, type SpecProblem } from './problems';
import { reportReferenceProblems } from './referenceChecks';
import { specFileSchema, type SpecFile } from '../../shared/specSchema';
import { reportSchemaIssues } from './schemaProblems';
import { missingTestFileWarnings } from './testFileChecks';

export const SPEC_FILE_RELATIVE_PATH = '.weave/specs.json';
/** Far beyond any hand-written spec file; refusing bigger ones keeps a mistake (a log, a dump) from eating memory. */
export const MAX_SPEC_FILE_BYTES = 5 * 1024 * 1024;
/** A badly broken file makes jsonc-parser report an error per token; the first few say what is wrong. */
const MAX_SYNTAX_ERRORS = 20;
/** A spec file is about 5 levels deep; far deeper input is not a spec file and could overflow the parser. */
const MAX_NESTING_DEPTH = 64;

export type SpecLoadResult =
  | {
      ok: true;
      file: string;
      specFile: SpecFile;
      graph: SpecGraph;
      locations: SpecLocations;
      /** Problems that do not stop Weave (trailing commas, a timeout under a second…). */
      warnings: SpecProblem[];
    }
  | { ok: false; file: string; problems: SpecProblem[] };

export function specFilePath(workspaceDir: string): string {
  return path.join(workspaceDir, SPEC_FILE_RELATIVE_PATH);
}

/** Reads and checks `<workspaceDir>/.weave/specs.json`. */
export async function loadSpecFile(workspaceDir: string): Promise<SpecLoadResult> {
  const file = specFilePath(workspaceDir);
  const fail = (message: string): SpecLoadResult => ({
    ok: false,
    file,
    problems: [{ file, line: 1, column: 1, path: '', message, severity: 'error' }],
  });

  let bytes: Buffer;
  try {
    const stat = await fs.stat(file);
    if (stat.isDirectory()) {
      return fail(
        'this is a directory, but it must be the JSON spec file (remove it, then run `weave init`)',
      );
    }
    if (!stat.isFile()) return fail('this is not a regular file; the spec file must be a JSON file');
    if (stat.size > MAX_SPEC_FILE_BYTES) {
      return fail(
        `the spec file is ${formatBytes(stat.size)}, over the ${formatBytes(MAX_SPEC_FILE_BYTES)} limit; is this really a spec file?`,
      );
    }
    bytes = await fs.readFile(file);
  } catch (error) {
    return fail(readErrorMessage(error));
  }
  // Checked again after reading: the file may have grown between stat and read.
  if (bytes.length > MAX_SPEC_FILE_BYTES) {
    return fail(
      `the spec file is over the ${formatBytes(MAX_SPEC_FILE_BYTES)} limit; is this really a spec file?`,
    );
  }
  const decoded = decodeUtf8(bytes, file);
  if (!decoded.ok) return { ok: false, file, problems: [decoded.problem] };
  const result = parseSpecText(decoded.text, file);
  if (!result.ok) return result;
  const missing = await missingTestFileWarnings(workspaceDir, file, result.specFile, result.locations);
  return missing.length === 0
    ? result
    : { ...result, warnings: sortProblems([...result.warnings, ...missing]) };
}

/** Checks spec file text (e.g. an editor buffer). `file` is only used to label problems. */
export function parseSpecText(text: string, file: string): SpecLoadResult {
  // Offsets are measured without a byte-order mark, as in an editor's document.
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = new LineMap(source);

  if (source.trim() === '') return emptyFile(file, lines, 'is empty');

  // jsonc-parser and zod recurse once per level: a pathological nesting depth would overflow the stack.
  const tooDeep = offsetBeyondDepth(source, MAX_NESTING_DEPTH);
  if (tooDeep !== undefined) {
    const collector = new ProblemCollector(file, undefined, lines);
    collector.addAtOffset(
      tooDeep,
      `nested more than ${MAX_NESTING_DEPTH} levels deep; a spec file needs about 5`,
    );
    return { ok: false, file, problems: collector.problems };
  }

  const syntaxErrors: ParseError[] = [];
  const root = parseTree(source, syntaxErrors, { allowTrailingComma: true, disallowComments: false });
  const collector = new ProblemCollector(file, root, lines);
  if (syntaxErrors.length > 0 || root === undefined) {
    const onlyValueMissing = syntaxErrors.every((e) => printParseErrorCode(e.error) === 'ValueExpected');
    if (root === undefined && onlyValueMissing && stripComments(source).trim() === '') {
      return emptyFile(file, lines, 'holds only comments');
    }
    const documentEnd = root === undefined ? Infinity : root.offset + root.length;
    for (const error of syntaxErrors.slice(0, MAX_SYNTAX_ERRORS)) {
      const afterDocument = error.offset >= documentEnd && error.offset < source.length;
      collector.addAtOffset(errorOffset(error, source), syntaxMessage(error, source, afterDocument));
    }
    if (syntaxErrors.length > MAX_SYNTAX_ERRORS) {
      collector.addAtOffset(
        syntaxErrors[MAX_SYNTAX_ERRORS]?.offset ?? 0,
        `${syntaxErrors.length - MAX_SYNTAX_ERRORS} more syntax errors not shown`,
      );
    }
    if (!collector.hasErrors()) collector.addAtOffset(0, 'the spec file holds no JSON value');
    return { ok: false, file, problems: collector.problems };
  }
  reportTrailingCommas(source, collector);
  reportDuplicateKeys(root, collector);

  const value: unknown = getNodeValue(root);
  const parsed = specFileSchema.safeParse(value);
  if (!parsed.success) reportSchemaIssues(parsed.error.issues, value, collector);
  reportReferenceProblems(value, collector);

  const problems = sortProblems(collector.problems);
  if (!parsed.success || collector.hasErrors()) return { ok: false, file, problems };
  const specFile = parsed.data;
  const indexById = new Map(specFile.specs.map((spec, index) => [spec.id, index]));
  return {
    ok: true,
    file,
    specFile,
    graph: new SpecGraph(specFile.specs),
    locations: new SpecLocations(root, lines, indexById),
    warnings: problems,
  };
}

function emptyFile(file: string, lines: LineMap, what: string): SpecLoadResult {
  const collector = new ProblemCollector(file, undefined, lines);
  collector.addAtOffset(
    0,
    `the spec file ${what}; it needs at least {"version": 1, "specs": []} (run \`weave init\` for a starter)`,
  );
  return { ok: false, file, problems: collector.problems };
}

/** Offset of the first bracket that opens level `maxDepth + 1`, found without recursion. */
function offsetBeyondDepth(source: string, maxDepth: number): number | undefined {
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
function reportDuplicateKeys(node: JsonNode, collector: ProblemCollector): void {
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

// jsonc-parser's SyntaxKind values (a const enum in its typings, which isolatedModules cannot inline).
const OPEN_BRACE_TOKEN = 1;
const CLOSE_BRACE_TOKEN = 2;
const OPEN_BRACKET_TOKEN = 3;
const CLOSE_BRACKET_TOKEN = 4;
const COMMA_TOKEN = 5;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const EOF_TOKEN = 17;

/** Trailing commas are accepted (JSONC), but VS Code's JSON mode flags them, so say so gently, at the comma. */
function reportTrailingCommas(source: string, collector: ProblemCollector): void {
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

function syntaxMessage(error: ParseError, source: string, afterDocument: boolean): string {
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
function errorOffset(error: ParseError, source: string): number {
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

type Decoded = { ok: true; text: string } | { ok: false; problem: SpecProblem };

/** Strict UTF-8 (a UTF-8 BOM is fine); invalid bytes are located so the user can find them. */
function decodeUtf8(bytes: Uint8Array, file: string): Decoded {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    const bad = firstInvalidUtf8Offset(bytes);
    const before = new TextDecoder('utf-8').decode(bytes.subarray(0, bad));
    const { line, column } = new LineMap(before).position(before.length);
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    const byte = (bytes[bad] ?? 0).toString(16).padStart(2, '0');
    const message = utf16
      ? 'the spec file is UTF-16; save it as UTF-8'
      : `the spec file is not valid UTF-8 (byte 0x${byte} at byte offset ${bad}); save it as UTF-8`;
    return { ok: false, problem: { file, line, column, path: '', message, severity: 'error' } };
  }
}

/** Byte offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    let length: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      length = 2;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      min = 0x10000;
    } else {
      return i;
    }
    if (i + length > bytes.length) return i;
    let codePoint = b & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k] ?? 0;
      if ((c & 0xc0) !== 0x80) return i;
      codePoint = (codePoint << 6) | (c & 0x3f);
    }
    if (codePoint < min || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return i;
    i += length;
  }
  return bytes.length;
}

function readErrorMessage(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'the spec file does not exist; run `weave init` in the workspace folder to create a starter';
    case 'ENOTDIR':
      return 'cannot read the spec file: a folder on its path is a file';
    case 'EACCES':
    case 'EPERM':
      return 'cannot read the spec file: permission denied';
    default:
      return `cannot read the spec file: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

function sortProblems(problems: SpecProblem[]): SpecProblem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.column - b.column);
}
