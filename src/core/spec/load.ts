// Loading `.weave/specs.json`: read the text safely (readSpecFile.ts), parse JSONC with jsonc-parser (keeping
// offsets, syntax problems worded by jsonSyntax.ts), validate with the zod schema, then the cross-spec checks.
// Every problem is located at file:line:column with a JSON path; nothing here throws on bad input.
import { getNodeValue, parseTree, printParseErrorCode, stripComments, type ParseError } from 'jsonc-parser';
import { SpecGraph } from './graph';
import {
  errorOffset,
  offsetBeyondDepth,
  reportDuplicateKeys,
  reportTrailingCommas,
  syntaxMessage,
} from './jsonSyntax';
import { LineMap, SpecLocations } from './locations';
import { ProblemCollector } from './problemCollector';
import type { SpecProblem } from './problems';
import { readSpecFileText, specFileTextOf } from './readSpecFile';
import { reportReferenceProblems } from './referenceChecks';
import { specFileSchema, type SpecFile } from '../../shared/specSchema';
import { reportSchemaIssues } from './schemaProblems';
import { missingTestFileWarnings } from './testFileChecks';
import { specFilePath } from '../specFileLocation';

export { SPEC_FILE_RELATIVE_PATH, specFilePath } from '../specFileLocation';
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

/** Reads and checks `<workspaceDir>/.weave/specs.json`. */
export async function loadSpecFile(workspaceDir: string): Promise<SpecLoadResult> {
  const file = specFilePath(workspaceDir);
  const read = await readSpecFileText(file);
  if (!read.ok) return { ok: false, file, problems: [read.problem] };
  const result = parseSpecText(read.text, file);
  if (!result.ok) return result;
  const missing = await missingTestFileWarnings(workspaceDir, file, result.specFile, result.locations);
  return missing.length === 0
    ? result
    : { ...result, warnings: sortProblems([...result.warnings, ...missing]) };
}

/**
 * Checks the spec file's bytes as read by the caller (the guard reads them itself and keys its cache on them):
 * the same checks as loadSpecFile but the missing-test-file warnings, which read the tree.
 */
export function parseSpecFileBytes(bytes: Uint8Array, file: string): SpecLoadResult {
  const read = specFileTextOf(bytes, file);
  return read.ok ? parseSpecText(read.text, file) : { ok: false, file, problems: [read.problem] };
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

function sortProblems(problems: SpecProblem[]): SpecProblem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.column - b.column);
}
