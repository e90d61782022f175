// Spec edits keep the user's comments and formatting and produce a valid file.
import test from 'node:test';
import assert from 'node:assert/strict';
import { addSpec, applyTextEdits, removeSpec, updateSpec } from '../../../src/core/spec/edit';
import { parseSpecText } from '../../../src/core/spec/load';

const original = `// Our specs
{
    "version": 1,
    "specs": [
        // the headline feature
        {
            "id": "cache-hit",
            "title": "Cache hit",
            "kind": "functional",
            "statement": "One request.",
            "test": { "command": "node --test test/a.test.js" } /* keep me */
        },
        {
            "id": "no-stale-read",
            "title": "No stale read",
            "kind": "reliability",
            "statement": "Refetch after TTL.",
            "test": { "command": "node --test test/b.test.js" },
            "dependsOn": ["cache-hit"]
        }
    ]
}
`;

function specs(text: string) {
  const result = parseSpecText(text, 'specs.json');
  assert.ok(
    result.ok,
    result.ok ? '' : result.problems.map((p) => `${p.line}:${p.column} ${p.message}`).join('\n'),
  );
  return result.specFile.specs;
}

test('addSpec appends a spec with the file’s indentation, keeping comments', () => {
  const edited = applyTextEdits(
    original,
    addSpec(original, {
      id: 'size-budget',
      title: 'Size budget',
      kind: 'performance',
      statement: 'At most 32 entries.',
      test: { command: 'node --test test/c.test.js' },
    }),
  );
  assert.deepEqual(
    specs(edited).map((s) => s.id),
    ['cache-hit', 'no-stale-read', 'size-budget'],
  );
  for (const comment of ['// Our specs', '// the headline feature', '/* keep me */'])
    assert.ok(edited.includes(comment));
  assert.match(edited, /\n {12}"id": "size-budget"/, 'four-space indentation as in the file');
});

test('addSpec creates the specs array when the file has none', () => {
  const edited = applyTextEdits(
    '{ "version": 1 }',
    addSpec('{ "version": 1 }', {
      id: 'a',
      title: 'A',
      kind: 'security',
      statement: 'S',
      test: { command: 'x' },
    }),
  );
  assert.deepEqual(
    specs(edited).map((s) => s.id),
    ['a'],
  );
});

test('updateSpec changes and removes fields in one edit', () => {
  const edits = updateSpec(original, 'no-stale-read', {
    title: 'Never serve stale data',
    interactsWith: ['cache-hit'],
    dependsOn: undefined,
  });
  assert.equal(edits.length, 1);
  const edited = applyTextEdits(original, edits);
  const updated = specs(edited).find((s) => s.id === 'no-stale-read');
  assert.equal(updated?.title, 'Never serve stale data');
  assert.deepEqual(updated?.interactsWith, ['cache-hit']);
  assert.deepEqual(updated?.dependsOn, []);
  assert.ok(edited.includes('/* keep me */') && edited.includes('// the headline feature'));
  assert.equal(
    edited.slice(0, original.indexOf('"no-stale-read"')),
    original.slice(0, original.indexOf('"no-stale-read"')),
  );
});

test('removeSpec removes exactly that spec', () => {
  const edited = applyTextEdits(original, removeSpec(original, 'no-stale-read'));
  assert.deepEqual(
    specs(edited).map((s) => s.id),
    ['cache-hit'],
  );
  assert.ok(edited.includes('/* keep me */'));
});

test('unknown ids are refused', () => {
  assert.throws(() => removeSpec(original, 'nope'), /no spec with id "nope"/);
  assert.throws(() => updateSpec(original, 'nope', { title: 'x' }), /no spec with id "nope"/);
});

test('CRLF files stay CRLF', () => {
  const crlf = original.replace(/\n/g, '\r\n');
  const edited = applyTextEdits(
    crlf,
    addSpec(crlf, { id: 'z', title: 'Z', kind: 'interface', statement: 'S', test: { command: 'x' } }),
  );
  assert.equal(edited.replace(/\r\n/g, '').includes('\n'), false);
  assert.ok(specs(edited).some((s) => s.id === 'z'));
});
