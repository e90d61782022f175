// test/unit means in-process (issue #28): a unit test that starts a process — the built CLI, a shell, git,
// python3 — belongs in test/e2e, where the layer's name says so and its time is expected. This holds the
// direct ways in: node:child_process and the support modules that run git or a demo repository. (A core
// function that spawns, called from a unit test, is not caught here; the unit layer's time is the other check.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { REPO_ROOT } from '../support/paths';

const UNIT = path.join(REPO_ROOT, 'test/unit');
/** Support modules whose exports start processes (git, a demo repository, docker). */
const SPAWNING_SUPPORT = ['gitRepo', 'demoRepo', 'demoWorkspace', 'dockerEngine', 'registryRepos'];
/** Named exports of support/repos.ts that run git (its file helpers are fine). */
const SPAWNING_REPOS_EXPORTS = ['git', 'initRepo'];

test('test/unit starts no process: no child_process, no git or demo-repository helpers', () => {
  const offenders: string[] = [];
  const files = fs
    .readdirSync(UNIT, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    const text = fs.readFileSync(path.join(UNIT, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const specifier = statement.moduleSpecifier.text;
      const base = path.posix.basename(specifier);
      const named = statement.importClause?.namedBindings;
      const names = named && ts.isNamedImports(named) ? named.elements.map((e) => e.name.text) : [];
      if (specifier === 'node:child_process' || specifier === 'child_process')
        offenders.push(`${file}: imports ${specifier}`);
      else if (specifier.includes('support/') && SPAWNING_SUPPORT.includes(base))
        offenders.push(`${file}: imports ${specifier}`);
      else if (specifier.endsWith('support/repos'))
        for (const name of names.filter((n) => SPAWNING_REPOS_EXPORTS.includes(n)))
          offenders.push(`${file}: imports ${name} from ${specifier}`);
    }
  }
  assert.deepEqual(offenders, [], 'move these to test/e2e');
});
