import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { applyMutant, mutantDiff, mutantsOfFile, type Mutant } from '../../../src/core/audit/mutants';
import { locateGrammars } from '../../../src/core/grammarLocation';
import { TreeSitterHost } from '../../../src/core/index/treeSitterHost';
import type { Range } from '../../../src/core/index/types';

const host = new TreeSitterHost(locateGrammars());
after(() => host.dispose());

const everything: Range[] = [{ start: { line: 0, column: 0 }, end: { line: 10_000, column: 0 } }];
const brief = (m: Mutant): string => `${m.line}:${m.operator}:${m.original}→${m.replacement}`;

const JS = [
  'function isAdult(age) {',
  '  return age >= 18;',
  '}',
  'function total(xs, strict) {',
  '  let sum = 0;',
  '  for (const x of xs) {',
  '    if (strict && x === null) throw new Error("null");',
  '    sum += x * 2;',
  '  }',
  "  log('total ' + sum);",
  '  return sum;',
  '}',
  '',
].join('\n');

test('JavaScript: each operator proposes its classic changes at the right place', async () => {
  const found = (await mutantsOfFile(host, 'src/a.js', 'javascript', JS, everything)).map(brief);
  for (const expected of [
    '2:relational:>=→>',
    '2:off-by-one:18→19',
    '2:off-by-one:18→17',
    '2:return-value:age >= 18→undefined',
    '7:boolean:&&→||',
    '7:equality:===→!==',
    '7:negate-condition:(strict && x === null)→(!(strict && x === null))',
    '8:arithmetic:*→/',
    "10:delete-statement:log('total ' + sum);→;",
  ]) {
    assert.ok(found.includes(expected), `expected ${expected} among ${found.join(', ')}`);
  }
  // A string concatenation is not an arithmetic mutant (it only ever yields NaN).
  assert.ok(!found.some((m) => m.startsWith('10:arithmetic')), found.join(', '));
});

test('only nodes starting inside the given ranges are mutated', async () => {
  const firstFunction: Range[] = [{ start: { line: 0, column: 0 }, end: { line: 2, column: 1 } }];
  const found = await mutantsOfFile(host, 'src/a.js', 'javascript', JS, firstFunction);
  assert.ok(found.length > 0);
  assert.ok(
    found.every((m) => m.line <= 3),
    found.map(brief).join(', '),
  );
});

test('TypeScript and Python get the same operators in their own spelling, and every mutant parses', async () => {
  const ts = 'export function within(n: number, max: number): boolean {\n  return n > 0 && n <= max;\n}\n';
  const tsFound = (await mutantsOfFile(host, 'src/w.ts', 'typescript', ts, everything)).map(brief);
  assert.ok(tsFound.includes('2:relational:>→>='), tsFound.join(', '));
  assert.ok(tsFound.includes('2:relational:<=→<'), tsFound.join(', '));
  assert.ok(tsFound.includes('2:boolean:&&→||'), tsFound.join(', '));

  const py = [
    'def grade(score, bonus=False):',
    '    """Docstrings are not statements worth deleting."""',
    '    if score >= 90 and not bonus:',
    '        return "A"',
    '    total = score + 5',
    '    print(total)',
    '    return "B" if total > 60 else "C"',
    '',
  ].join('\n');
  const pyMutants = await mutantsOfFile(host, 'lib/grade.py', 'python', py, everything);
  const pyFound = pyMutants.map(brief);
  for (const expected of [
    '3:relational:>=→>',
    '3:boolean:and→or',
    '3:negate-condition:score >= 90 and not bonus→not (score >= 90 and not bonus)',
    '4:return-value:"A"→None',
    '5:arithmetic:+→-',
    '6:delete-statement:print(total)→pass',
    '7:negate-condition:total > 60→not (total > 60)',
  ]) {
    assert.ok(pyFound.includes(expected), `expected ${expected} among ${pyFound.join(', ')}`);
  }
  assert.ok(!pyFound.some((m) => m.startsWith('2:')), 'the docstring is left alone');
  for (const m of pyMutants) {
    const lang = await host.language('python');
    const tree = host.parse(lang, applyMutant(py, m));
    assert.equal(tree.rootNode.hasError, false, `${brief(m)} parses`);
    host.release(tree);
  }
  assert.equal(host.liveTreeCount, 0, 'every tree is released');
});

test('compound assignments swap their operator, and a string append is left alone', async () => {
  const js = [
    'function acc(xs) {',
    '  let total = 0;',
    "  let out = '';",
    '  for (const x of xs) {',
    '    total += x;',
    '    total *= 2;',
    "    out += '-';",
    '  }',
    '  return out + total;',
    '}',
    '',
  ].join('\n');
  const jsFound = (await mutantsOfFile(host, 'src/acc.js', 'javascript', js, everything)).map(brief);
  assert.ok(jsFound.includes('5:assignment:+=→-='), jsFound.join(', '));
  assert.ok(jsFound.includes('6:assignment:*=→/='), jsFound.join(', '));
  assert.ok(!jsFound.some((m) => m.startsWith('7:assignment')), jsFound.join(', '));

  const ts = 'export function f(n: number): number {\n  let t = 1;\n  t -= n;\n  return t;\n}\n';
  const tsFound = (await mutantsOfFile(host, 'src/f.ts', 'typescript', ts, everything)).map(brief);
  assert.ok(tsFound.includes('3:assignment:-=→+='), tsFound.join(', '));

  const py = [
    'def acc(xs):',
    '    total = 0',
    '    for x in xs:',
    '        total //= x',
    '    return total',
    '',
  ].join('\n');
  const pyFound = (await mutantsOfFile(host, 'lib/acc.py', 'python', py, everything)).map(brief);
  assert.ok(pyFound.includes('4:assignment://=→*='), pyFound.join(', '));
});

test('a mutant reads as a one-line unified diff at its location', async () => {
  const mutants = await mutantsOfFile(host, 'src/a.js', 'javascript', JS, everything);
  const flip = mutants.find((m) => m.operator === 'relational')!;
  assert.equal(
    mutantDiff(JS, flip),
    [
      '--- a/src/a.js',
      '+++ b/src/a.js',
      '@@ -2,1 +2,1 @@',
      '-  return age >= 18;',
      '+  return age > 18;',
    ].join('\n'),
  );
});
