// The imports of the TypeScript sources under src/, read with the TypeScript parser (comments and strings lie to a
// regex): for the import-circle test and the guard's hook-path test. An import is `type` when TypeScript erases it
// (`import type`, every named binding `type`, `import('…')` in a type), `dynamic` for `import()` and `require()`
// calls (loaded when they run), `static` otherwise.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './paths';

export const SRC = path.join(REPO_ROOT, 'src');

export interface ImportEdge {
  /** The specifier as written. */
  specifier: string;
  /** For a relative specifier, the src/-relative file it names; undefined for a package or a builtin. */
  file?: string;
  kind: 'static' | 'type' | 'dynamic';
  /** The named bindings of a static import (`promises` in `import { promises as fs } from 'node:fs'`). */
  names: string[];
}

/** Every .ts file under src/, src/-relative with '/'. */
export function sourceFiles(): string[] {
  return fs
    .readdirSync(SRC, { recursive: true })
    .map((f) => String(f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort();
}

/** A relative specifier as the src/-relative file it names (`.js` written for `.ts`, folders by index.ts). */
export function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [target.replace(/\.js$/, '.ts'), `${target}.ts`, `${target}/index.ts`, target];
  return candidates.find((c) => fs.statSync(path.join(SRC, c), { throwIfNoEntry: false })?.isFile());
}

export function importsOf(file: string): ImportEdge[] {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (node: ts.Node | undefined, kind: ImportEdge['kind'], names: string[] = []): void => {
    if (!node || !ts.isStringLiteralLike(node)) return;
    const resolved = resolveImport(file, node.text);
    edges.push({ specifier: node.text, ...(resolved ? { file: resolved } : {}), kind, names });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named =
        clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings : undefined;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            named !== undefined &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly)));
      const names = named?.elements.map((e) => (e.propertyName ?? e.name).text) ?? [];
      add(node.moduleSpecifier, typeOnly ? 'type' : 'static', names);
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause : undefined;
      const typeOnly =
        node.isTypeOnly ||
        (named !== undefined && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly));
      add(node.moduleSpecifier, typeOnly ? 'type' : 'static');
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly ? 'type' : 'static');
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      add(node.arguments[0], 'dynamic');
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, 'type');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}
