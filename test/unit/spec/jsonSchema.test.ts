// The schema VS Code reads for specs.json (jsonValidation) must offer what the whole schema offers for
// completion and hovers, and validate nothing: Weave's own diagnostics are the one report of each problem.
import test from 'node:test';
import assert from 'node:assert/strict';
import { specFileEditingSchema, specFileJsonSchema } from '../../../src/core/spec/jsonSchema';

const VALIDATING = [
  'type',
  'required',
  'enum',
  'const',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'propertyNames',
  'minItems',
  'maxItems',
  'uniqueItems',
  'format',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
];

/** Every schema node below `node`, with its path (property names as `.name`, array items as `[]`). */
function nodes(node: unknown, at = ''): Array<[string, Record<string, unknown>]> {
  if (typeof node !== 'object' || node === null) return [];
  const n = node as Record<string, unknown>;
  const out: Array<[string, Record<string, unknown>]> = [[at, n]];
  for (const [name, child] of Object.entries((n['properties'] ?? {}) as Record<string, unknown>))
    out.push(...nodes(child, `${at}.${name}`));
  if (n['items']) out.push(...nodes(n['items'], `${at}[]`));
  if (typeof n['additionalProperties'] === 'object') out.push(...nodes(n['additionalProperties'], `${at}{}`));
  return out;
}

test('the editing schema holds no keyword that validates, and no additionalProperties: false', () => {
  for (const [at, node] of nodes(specFileEditingSchema())) {
    for (const keyword of VALIDATING) assert.ok(!(keyword in node), `${keyword} at "${at}"`);
    assert.notEqual(node['additionalProperties'], false, `additionalProperties: false at "${at}"`);
  }
});

test('the editing schema keeps every property, description and default of the whole schema', () => {
  const full = new Map(nodes(specFileJsonSchema()));
  const editing = new Map(nodes(specFileEditingSchema()));
  assert.ok(full.size > 20, `only ${full.size} schema nodes`);
  assert.deepEqual([...editing.keys()], [...full.keys()]);
  for (const [at, node] of full) {
    assert.equal(editing.get(at)?.['description'], node['description'], `description at "${at}"`);
    assert.deepEqual(editing.get(at)?.['default'], node['default'], `default at "${at}"`);
  }
  assert.equal(specFileEditingSchema()['allowComments'], true);
});

test('allowed values stay offered as completions (examples); a plain string completes with its quotes', () => {
  const editing = new Map(nodes(specFileEditingSchema()));
  assert.deepEqual(editing.get('.specs[].kind')?.['examples'], [
    'functional',
    'interface',
    'security',
    'performance',
    'reliability',
    'compatibility',
  ]);
  assert.deepEqual(editing.get('.version')?.['examples'], [1]);
  assert.deepEqual(editing.get('.specs[].title')?.['defaultSnippets'], [{ label: '""', body: '' }]);
  assert.equal(editing.get('.specs[].kind')?.['defaultSnippets'], undefined);
});
