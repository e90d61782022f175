// parseSpecText / loadSpecFile on valid files: defaults, locations, warnings, BOM and CRLF, several problems at once.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { loadSpecFile, parseSpecText } from '../../../src/core/spec/load';
import { formatProblem, SpecLoadError } from '../../../src/core/spec/problems';
import { EXAMPLES, FIXTURES } from '../../support/paths';

const GOOD = path.join(FIXTURES, 'specs-good');

test('every good fixture loads', async () => {
  for (const name of await fs.readdir(GOOD)) {
    const result = await loadSpecFile(path.join(GOOD, name));
    assert.ok(result.ok, `${name}: ${result.ok ? '' : result.problems.map(formatProblem).join('\n')}`);
  }
});

test('the demo workspace has 7-8 valid, interacting specs whose commands each run their own test file', async () => {
  const result = await loadSpecFile(EXAMPLES);
  assert.ok(result.ok, result.ok ? '' : result.problems.map(formatProblem).join('\n'));
  const { specs } = result.specFile;
  assert.ok(specs.length >= 7 && specs.length <= 8, `${specs.length} specs`);
  assert.deepEqual(result.warnings, []);
  assert.ok(new Set(specs.map((s) => s.kind)).size >= 5, 'several kinds');
  assert.ok(result.graph.declaredInteractions().length >= 5);
  assert.ok(specs.some((s) => s.id === 'no-secret-caching' && s.kind === 'security'));
  for (const spec of specs) {
    assert.equal(spec.test.command, `node --test test/${spec.id}.test.js`);
    assert.deepEqual(spec.test.files, [`test/${spec.id}.test.js`]);
    for (const file of [...spec.test.files, ...spec.anchors.map((a) => a.split('#')[0] ?? '')]) {
      assert.ok(existsSync(path.join(EXAMPLES, file)), `${spec.id}: ${file} exists`);
    }
  }
});

test('defaults are filled in and locations point at the values', () => {
  const text = [
    '// comment line',
    '{',
    '  "version": 1,',
    '  "specs": [',
    '    { "id": "a", "title": "A", "kind": "security", "statement": "S",',
    '      "test": { "command": "npm test" } }',
    '  ]',
    '}',
  ].join('\n');
  const result = parseSpecText(text, 'specs.json');
  assert.ok(result.ok);
  assert.equal(result.specFile.defaults.timeoutSeconds, 120);
  assert.equal(result.specFile.defaults.cwd, '.');
  assert.deepEqual(result.specFile.specs[0]?.test.files, []);
  assert.deepEqual(result.specFile.specs[0]?.anchors, []);

  const command = result.locations.locateSpec('a', ['test', 'command']);
  assert.ok(command);
  assert.equal(text.slice(command.offset, command.offset + command.length), '"npm test"');
  assert.deepEqual([command.line, command.column], [6, 28]);
  const key = result.locations.locateKey(['specs', 0, 'kind']);
  assert.ok(key);
  assert.equal(text.slice(key.offset, key.offset + key.length), '"kind"');
  assert.equal(result.locations.locateSpec('a')?.line, 5);
  assert.equal(result.locations.locate(['specs', 5]), undefined);
  assert.equal(result.locations.specAt(text.indexOf('"S"')), 'a');
  assert.equal(result.locations.specAt(0), undefined);
  assert.equal(result.locations.specIndex('a'), 0);
});

test('a byte-order mark and CRLF line endings do not shift lines or columns', () => {
  const lines = ['{', '  "version": 1,', '  "specs": [', '    { "id": "bad id" }', '  ]', '}'];
  const result = parseSpecText(`\uFEFF${lines.join('\r\n')}`, 'specs.json');
  assert.equal(result.ok, false);
  if (result.ok) return;
  const problem = result.problems.find((p) => p.path === 'specs[0].id');
  assert.ok(problem);
  assert.deepEqual([problem.line, problem.column], [4, 13]);
});

test('several problems are reported at once, sorted by position', () => {
  const text = JSON.stringify(
    {
      version: 1,
      specs: [
        { id: 'a', title: 1, kind: 'functional', statement: 's', test: { command: 'x' } },
        {
          id: 'a',
          title: 't',
          kind: 'functional',
          statement: 's',
          test: { command: 'x' },
          dependsOn: ['nope'],
        },
      ],
    },
    null,
    2,
  );
  const result = parseSpecText(text, 'f.json');
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.deepEqual(
    result.problems.map((p) => p.path),
    ['specs[0].title', 'specs[1].id', 'specs[1].dependsOn[0]'],
  );
  const lines = result.problems.map((p) => p.line);
  assert.deepEqual(
    lines,
    [...lines].sort((a, b) => a - b),
  );
});

test('warnings do not make a file invalid', () => {
  const text = `{
  "version": 1,
  "specs": [
    { "id": "a", "title": "t", "kind": "functional", "statement": "s", "test": { "command": "x", "timeoutSeconds": 0.5 } },
    { "id": "b", "title": "t", "kind": "functional", "statement": "s", "test": { "command": "x" }, "dependsOn": ["a", "a"], },
  ],
}`;
  const result = parseSpecText(text, 'f.json');
  assert.ok(result.ok);
  const found = result.warnings.map((w) => `${w.line}:${w.column} ${w.message}`);
  assert.equal(result.warnings.length, 5, found.join('\n'));
  assert.ok(result.warnings.every((w) => w.severity === 'warning'));
  assert.ok(found.some((w) => w.startsWith('4:') && /seconds, not milliseconds/.test(w)));
  assert.ok(found.some((w) => w.startsWith('5:') && /listed twice/.test(w)));
  const commas = result.warnings.filter((w) => /trailing comma/.test(w.message));
  assert.deepEqual(
    commas.map((w) => text.split('\n')[w.line - 1]?.[w.column - 1]),
    [',', ',', ','],
    'trailing-comma warnings point at the comma',
  );
});

test('formatProblem and SpecLoadError', () => {
  const problem = {
    file: 'a.json',
    line: 3,
    column: 7,
    path: 'specs[0].id',
    message: 'bad',
    severity: 'error',
  } as const;
  assert.equal(formatProblem(problem), 'a.json:3:7: specs[0].id: bad');
  assert.equal(formatProblem({ ...problem, path: '' }), 'a.json:3:7: bad');
  assert.equal(formatProblem({ ...problem, severity: 'warning' }), 'a.json:3:7: specs[0].id: warning: bad');
  const error = new SpecLoadError('a.json', [problem, { ...problem, line: 9 }]);
  assert.ok(error instanceof Error);
  assert.equal(error.problems.length, 2);
  assert.equal(error.message, 'a.json:3:7: specs[0].id: bad (and 1 more)');
});

test('pathological nesting is refused with a location instead of overflowing the stack', () => {
  const deep = `{"version": 1, "specs": [], "goal": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const result = parseSpecText(deep, 'f.json');
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.match(result.problems[0]?.message ?? '', /nested more than 64 levels/);
  // '{' is level 1, so the 64th '[' of "goal" opens level 65: offset goal + 63, column goal + 64.
  assert.equal(result.problems[0]?.column, deep.indexOf('"goal": ') + '"goal": '.length + 64);
});

test('a number too big for a double (1e400) is not a usable timeout', () => {
  const result = parseSpecText(
    '{"version": 1, "defaults": {"timeoutSeconds": 1e400}, "specs": []}',
    'f.json',
  );
  assert.equal(result.ok, false);
  if (!result.ok) assert.equal(result.problems[0]?.path, 'defaults.timeoutSeconds');
});
