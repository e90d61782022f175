// The declared layer order of src/ (ARCHITECTURE.md, "Layers": "The declared order"), held by walking every
// import of every file under src/ with the TypeScript parser: static imports and re-exports, `import type`,
// `import x = require()`, `require()`, `import()` and `import('…')` types. Two rules:
// - a folder imports only folders of lower rank (shared is below everything; the faces are above the core; two
//   folders of one rank do not import each other);
// - a folder with a barrel (an index.ts listed in BARRELS) is entered only through it.
// Today's code breaks both in many places: those imports are listed, one line each with why, in
// architecture-exceptions.txt. The list only shrinks: a new break fails here, and so does a listed import that
// no longer exists (delete its line) — issue #28 ends when the file is empty.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { REPO_ROOT } from '../support/paths';

/**
 * Highest rank first; a rank is the folders (under src/) that share it. `core/*.ts` is the base: the files
 * directly in src/core (errors.ts; the one verdict list and small helpers such as definedOnly belong there).
 * `core/tasks` is split by job, each subfolder a folder of the order; `core/tasks/*.ts`, the files directly in
 * it, is the task format they all share. `core/workspace` is declared before it exists (issue #28: one way to
 * copy a workspace).
 */
const LAYER_ORDER: readonly (readonly string[])[] = [
  ['cli', 'extension'],
  ['mcp'],
  ['core/tasks/bench', 'core/tasks/mine'],
  ['core/tasks/eval'],
  ['core/tasks/export'],
  ['core/tasks/harbor'],
  ['core/tasks/run'],
  ['core/tasks/*.ts'],
  ['core/draft'],
  ['core/audit'],
  ['core/agent'],
  ['core/model'],
  ['core/blame'],
  ['core/coupling'],
  ['core/fullCheck'],
  ['core/selection'],
  ['core/coverage'],
  ['core/check'],
  ['core/anchors'],
  ['core/index'],
  ['core/spec'],
  ['core/workspace'],
  ['core/sandbox'],
  ['core/git'],
  ['core/process'],
  ['core/*.ts', 'core/secrets'],
  ['shared'],
];

/** index.ts files that are their folder's public surface, and those that are not (with why). */
const BARRELS = [
  'core/check/index.ts',
  'core/fullCheck/index.ts',
  'core/index/index.ts',
  'core/model/index.ts',
  'core/spec/index.ts',
  'core/workspace/index.ts',
  'extension/panel/index.ts',
];
const NOT_BARRELS: Record<string, string> = {
  'cli/commands/index.ts': 'the `weave index` verb, named for what it does',
};

const SRC = path.join(REPO_ROOT, 'src');
const EXCEPTIONS_FILE = path.join(REPO_ROOT, 'test/unit/architecture-exceptions.txt');

const rankOf = new Map<string, number>(
  LAYER_ORDER.flatMap((rank, i) => rank.map((folder) => [folder, LAYER_ORDER.length - i] as const)),
);

/** The folder of the layer order a file (relative to src/) belongs to. */
function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'core') return parts[0]!;
  if (parts.length === 2) return 'core/*.ts';
  if (parts[1] === 'tasks') return parts.length === 3 ? 'core/tasks/*.ts' : `core/tasks/${parts[2]!}`;
  return `core/${parts[1]!}`;
}

function sourceFiles(): string[] {
  return fs
    .readdirSync(SRC, { recursive: true })
    .map((f) => String(f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort();
}

/** Every module specifier a file names, found by the TypeScript parser (not a regex: comments and strings lie). */
function specifiersOf(file: string): string[] {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const literal = (node: ts.Node | undefined): void => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      literal(node.moduleReference.expression);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    )
      literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A relative specifier as the src/-relative file it names (`.js` written for `.ts`, folders by index.ts). */
function resolve(from: string, specifier: string): string | undefined {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [target.replace(/\.js$/, '.ts'), `${target}.ts`, `${target}/index.ts`, target];
  return candidates.find((c) => fs.statSync(path.join(SRC, c), { throwIfNoEntry: false })?.isFile());
}

interface Walk {
  /** `from → to` (paths under src/) of every import that breaks a rule, each once. */
  breaks: Map<string, string[]>;
  unresolved: string[];
  unknownFolders: Set<string>;
}

function walk(): Walk {
  const breaks = new Map<string, string[]>();
  const unresolved: string[] = [];
  const unknownFolders = new Set<string>();
  const note = (from: string, to: string, rule: string): void => {
    const key = `src/${from} → src/${to}`;
    const rules = breaks.get(key) ?? [];
    if (!rules.includes(rule)) rules.push(rule);
    breaks.set(key, rules);
  };
  for (const from of sourceFiles()) {
    for (const specifier of specifiersOf(from)) {
      if (!specifier.startsWith('.')) continue;
      const to = resolve(from, specifier);
      if (to === undefined) {
        unresolved.push(`src/${from}: '${specifier}'`);
        continue;
      }
      // Files under resources/ (hooks loaded into test processes, bundled where src/ imports them) are not a layer.
      if (to.startsWith('../resources/')) continue;
      const [a, b] = [folderOf(from), folderOf(to)];
      for (const folder of [a, b]) if (!rankOf.has(folder)) unknownFolders.add(folder);
      if (a !== b && (rankOf.get(b) ?? 0) >= (rankOf.get(a) ?? 0)) note(from, to, `layer: ${a} → ${b}`);
      for (const barrel of BARRELS) {
        const dir = `${path.posix.dirname(barrel)}/`;
        if (to.startsWith(dir) && to !== barrel && !from.startsWith(dir)) note(from, to, `barrel: ${barrel}`);
      }
    }
  }
  return { breaks, unresolved, unknownFolders };
}

/** The allow-list: `src/a.ts → src/b.ts  why`, one import a line; blank lines and `#` comments aside. */
function readExceptions(): Map<string, string> {
  const listed = new Map<string, string>();
  const lines = fs.readFileSync(EXCEPTIONS_FILE, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    const m = /^(src\/\S+) → (src\/\S+) {2,}(\S.*)$/.exec(line);
    assert.ok(m, `architecture-exceptions.txt:${i + 1}: not 'src/FROM → src/TO  why': ${line}`);
    const key = `${m[1]!} → ${m[2]!}`;
    assert.ok(!listed.has(key), `architecture-exceptions.txt:${i + 1}: listed twice: ${key}`);
    listed.set(key, m[3]!);
  });
  return listed;
}

describe('the declared layer order of src/ (ARCHITECTURE.md, Layers)', () => {
  const result = walk();
  const exceptions = readExceptions();

  it('resolves every relative import, and every folder has a place in the order', () => {
    assert.deepEqual(result.unresolved, []);
    assert.deepEqual([...result.unknownFolders], [], 'add new folders to LAYER_ORDER and ARCHITECTURE.md');
  });

  it('finds no import against the order or past a barrel beyond the listed exceptions', () => {
    const unlisted = [...result.breaks].filter(([key]) => !exceptions.has(key));
    assert.equal(
      unlisted.length,
      0,
      'import only from lower folders, and into a barrelled folder through its index.ts (the exceptions only shrink):\n' +
        unlisted.map(([key, rules]) => `${key}  (${rules.join('; ')})`).join('\n'),
    );
  });

  it('lists no exception that is paid off', () => {
    const paid = [...exceptions.keys()].filter((key) => !result.breaks.has(key));
    assert.equal(
      paid.length,
      0,
      'no such import any more: delete these lines from architecture-exceptions.txt:\n' + paid.join('\n'),
    );
  });

  it('knows every index.ts under src/ as a barrel or not', () => {
    const indexFiles = sourceFiles().filter((f) => path.posix.basename(f) === 'index.ts');
    assert.deepEqual(indexFiles, [...BARRELS, ...Object.keys(NOT_BARRELS)].sort());
  });

  it('is the order ARCHITECTURE.md states', () => {
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'ARCHITECTURE.md'), 'utf8');
    const block = /<!-- declared layer order[^>]*-->\n```\n([\s\S]*?)```/.exec(doc);
    assert.ok(block, 'ARCHITECTURE.md has the declared layer order block');
    const stated = block[1]!
      .trimEnd()
      .split('\n')
      .map((line) => line.split('│')[0]!.trim());
    assert.deepEqual(
      stated,
      LAYER_ORDER.map((rank) => rank.map((folder) => `src/${folder}`).join(' · ')),
    );
  });
});
