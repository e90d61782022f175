// The plain-command parser (src/cli/guard/plainShell.ts) against tree-sitter-bash: wherever it accepts a command,
// its tree is tree-sitter-bash's, node for node, and the guard's effects and decision are the same. Checked on
// every string literal in the guard's tests (the command tables of test/unit/guard, the apply_patch and e2e guard
// tests, the client bypass forms), on the bypass forms' commands, on commands agents commonly run, and on
// generated commands (a fixed seed). What it does not read must be refused (NotPlainShell), never read otherwise.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import ts from 'typescript';
import { bashParse } from '../../../src/cli/guard/bashSyntax';
import { NotPlainShell, parsePlainShell, plainShellParse } from '../../../src/cli/guard/plainShell';
import type { ProtectedSet } from '../../../src/cli/guard/protectedPaths';
import { readShell } from '../../../src/cli/guard/shellReader';
import type { ShellParse } from '../../../src/cli/guard/shellSyntax';
import { NEEDS_GRAMMAR, plainShellFinding, shellFinding } from '../../../src/cli/guard/shellVerdict';
import { REPO_ROOT } from '../../support/paths';
import { SHELL_FORMS } from '../../support/bypassForms';
import { treeText } from './syntaxTrees';

/** Test files whose strings are the guard's command tables. */
const TABLES = [
  ...fs
    .readdirSync(path.join(REPO_ROOT, 'test/unit/guard'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `test/unit/guard/${f}`),
  'test/unit/cli/applyPatch.test.ts',
  ...fs
    .readdirSync(path.join(REPO_ROOT, 'test/e2e/guard'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `test/e2e/guard/${f}`),
  'test/e2e/clients/bypassForms.test.ts',
  'test/support/bypassForms.ts',
];

/** Every string literal (and template without substitutions) in a TypeScript file. */
function stringsIn(file: string): string[] {
  const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Commands agents run all the time: each must be read without the grammar (else the fast path is gone). */
const EVERYDAY = [
  'cd src && grep -n get client.js > /tmp/x',
  'git status',
  'git diff --stat',
  'git log --oneline -5',
  'ls -la',
  'npm test',
  'npm test 2>&1 | tail -20',
  'cd examples && npm run build 2>&1 | head -50',
  'node --test test/cache-hit.test.js',
  "grep -rn 'fetchUser' src/ --include=*.js",
  'cat src/client.js',
  "sed -n '1,40p' src/client.js",
  'rm -f /tmp/out.txt',
  'mkdir -p build/out',
  'cp src/a.js src/b.js',
  'python3 -m pytest -q tests/test_x.py',
  'echo "done" > /tmp/log.txt',
  'git add -A && git commit -q -m "fix the cache"',
  'cat src/client.js | wc -l; ls src',
  "find . -name '*.test.js' -not -path ./node_modules",
];

const rejected = (source: string): boolean => {
  try {
    parsePlainShell(source);
    return false;
  } catch (error) {
    if (error instanceof NotPlainShell) return true;
    throw error;
  }
};

describe('plain commands read without the bash grammar', () => {
  let bash: ShellParse;
  let ws: string;
  let set: ProtectedSet;
  before(async () => {
    bash = await bashParse();
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'weave-plain-shell-')));
    for (const dir of ['test', 'src', '.weave', 'test/forms'])
      fs.mkdirSync(path.join(ws, dir), { recursive: true });
    for (const file of ['test/a.test.js', 'test/cache-hit.test.js', 'test/forms/x.test.js', 'src/client.js'])
      fs.writeFileSync(path.join(ws, file), '// x\n');
    set = {
      workspaceDir: ws,
      weaveDir: path.join(ws, '.weave'),
      files: new Map(
        ['test/a.test.js', 'test/cache-hit.test.js', 'test/forms/x.test.js'].map((f) => [
          path.join(ws, f),
          ['s1'],
        ]),
      ),
    };
  });
  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  /** Same tree, same effects, same decision, wherever plainShell accepts `source`. Returns whether it did. */
  function sameAsGrammar(source: string): boolean {
    let plain: string;
    try {
      plain = treeText(parsePlainShell(source));
    } catch (error) {
      if (error instanceof NotPlainShell) {
        assert.equal(plainShellFinding(source, ws, set), NEEDS_GRAMMAR, source);
        return false;
      }
      throw error;
    }
    assert.equal(plain, bash(source, treeText), `tree of ${JSON.stringify(source)}`);
    const effects = (parse: ShellParse): string => JSON.stringify(readShell(parse, source, ws));
    let plainEffects: string;
    try {
      plainEffects = effects(plainShellParse);
    } catch (error) {
      // Plain, but it runs shell code that is not (`sh -c 'echo $x'`): the whole command goes to the grammar.
      if (!(error instanceof NotPlainShell)) throw error;
      assert.equal(plainShellFinding(source, ws, set), NEEDS_GRAMMAR, source);
      return false;
    }
    assert.equal(plainEffects, effects(bash), `effects of ${JSON.stringify(source)}`);
    const decision = plainShellFinding(source, ws, set);
    assert.notEqual(decision, NEEDS_GRAMMAR, source);
    assert.deepEqual(decision, shellFinding(bash, source, ws, set), `decision on ${JSON.stringify(source)}`);
    return true;
  }

  test('every string in the guard tests: the same tree, effects and decision, or refused', () => {
    const strings = [...new Set(TABLES.flatMap(stringsIn))];
    const accepted = strings.filter(sameAsGrammar);
    // The tables hold hundreds of commands; a good share of them are plain.
    assert.ok(strings.length > 500, `${strings.length} strings`);
    assert.ok(accepted.length > 200, `${accepted.length} of ${strings.length} read without the grammar`);
  });

  test('the bypass forms of issue #36: the same decision', () => {
    for (const form of SHELL_FORMS) sameAsGrammar(form.command(8080));
  });

  test('everyday commands are read without the grammar, and protected writes still refused', () => {
    for (const source of EVERYDAY) assert.ok(sameAsGrammar(source), source);
    for (const source of [
      'cd test && echo x > a.test.js',
      'rm -f test/cache-hit.test.js',
      "sed -i 's/a/b/' test/a.test.js",
      'git checkout -- test',
      'cp /tmp/x test/forms/x.test.js && npm test 2>&1 | tail',
    ]) {
      assert.ok(sameAsGrammar(source), source);
      const finding = plainShellFinding(source, ws, set);
      assert.ok(finding !== undefined && finding !== NEEDS_GRAMMAR, `${source} is refused`);
    }
  });

  test('what it does not read goes to the grammar', () => {
    for (const source of [
      'echo $HOME > f',
      'echo "$x" > f',
      'echo `id`',
      'cat <<EOF > f\nx\nEOF',
      'a=1 b',
      'x=1',
      'export A=1',
      'if true; then rm f; fi',
      '(cd test && rm a)',
      '{ rm a; }',
      'sleep 1 &',
      'rm a\nrm b',
      'echo a\\ b',
      'ls [ab]',
      'echo {a,b}',
      'cat x 1<>f',
      'cat <(ls)',
      'echo x >| f',
      'echo x &> f',
      'echo hi>f',
      '> f echo',
      'echo > f x',
      'x - 2> f',
      'a | b |& c',
      '! true',
      'echo "  "',
      'echo x # comment',
      "echo $'a'",
      'echo == x',
      'for x in a; do rm $x; done',
    ])
      assert.ok(rejected(source), source);
  });

  test('generated commands: the same tree wherever it accepts one', () => {
    let seed = 20261207;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const names = [
      'git',
      'ls',
      'cd',
      'grep',
      'echo',
      'x',
      './run.sh',
      '/bin/ls',
      'a.b',
      'x-y',
      '_z',
      '-',
      '12%%',
      'a=b',
    ];
    const words = [
      '-n',
      '-1',
      '5',
      '0x1',
      '10a',
      '1.5',
      'x=y',
      '--a=b',
      'src/x.js',
      '~',
      '~/x',
      '*.js',
      'a?',
      '%',
      '^x',
      ',',
      '+',
      '-',
      '--',
      '.',
      '/tmp/x',
      "'a b'",
      "''",
      "'$x'",
      '"a b"',
      '""',
      '" "',
      '" a"',
      'x"y"',
      '"y"x',
      "a'b'c",
      '1"x"',
      '==',
      '=~',
      '=',
      'in',
      'done',
      '12',
      '2',
      '@',
      'a:b=c',
    ];
    const operators = [' && ', ' || ', ' | ', '; ', ';', '&&', '||', '|'];
    const redirections = [
      ' > f',
      ' >> f',
      ' < f',
      ' 2>&1',
      ' 2>/dev/null',
      ' >f',
      ' 1>f',
      ' >&2',
      ' > "a b"',
      ' > 5',
    ];
    let accepted = 0;
    for (let n = 0; n < 3000; n++) {
      let source = random() < 0.2 ? ' ' : '';
      const commands = 1 + Math.floor(random() * 4);
      for (let c = 0; c < commands; c++) {
        if (c > 0) source += pick(operators);
        source += [pick(names), ...Array.from({ length: Math.floor(random() * 4) }, () => pick(words))].join(
          ' ',
        );
        if (random() < 0.35) source += pick(redirections);
        if (random() < 0.1) source += pick(redirections);
      }
      if (random() < 0.15) source += pick([' ', ';', ' ;']);
      let plain: string;
      try {
        plain = treeText(parsePlainShell(source));
      } catch (error) {
        if (error instanceof NotPlainShell) continue;
        throw error;
      }
      accepted++;
      assert.equal(plain, bash(source, treeText), `tree of ${JSON.stringify(source)}`);
    }
    assert.ok(accepted > 500, `${accepted} of 3000 accepted`);
  });
});
