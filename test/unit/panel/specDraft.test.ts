import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateSpecDraft } from '../../../src/shared/specDraft';

const others = [
  { id: 'a', dependsOn: [] },
  { id: 'b', dependsOn: ['a'] },
];
const draft = (over: Record<string, unknown> = {}) => ({
  id: 'c',
  title: 'C',
  kind: 'security',
  statement: 'The client shall.',
  test: { command: 'node --test', files: [] },
  anchors: [],
  dependsOn: ['b'],
  interactsWith: ['a'],
  ...over,
});
const fields = (result: ReturnType<typeof validateSpecDraft>) =>
  result.ok ? [] : result.issues.map((i) => i.field);

test('a good draft passes and comes back parsed', () => {
  const result = validateSpecDraft(draft(), others);
  assert.ok(result.ok);
  assert.equal(result.spec.id, 'c');
});

test('schema problems are reported per form field', () => {
  const result = validateSpecDraft(
    draft({ id: 'Bad Id', title: '', test: { command: ' ', files: [] } }),
    others,
  );
  assert.deepEqual(fields(result).sort(), ['id', 'test.command', 'title']);
});

test('an id already taken by another spec is refused, but a spec may keep its own id', () => {
  assert.deepEqual(fields(validateSpecDraft(draft({ id: 'a', dependsOn: [], interactsWith: [] }), others)), [
    'id',
  ]);
  assert.ok(validateSpecDraft(draft({ id: 'b', dependsOn: ['a'], interactsWith: [] }), others, 'b').ok);
});

test('unknown, self and duplicate references are refused', () => {
  const result = validateSpecDraft(draft({ dependsOn: ['zz', 'b', 'b'], interactsWith: ['c'] }), others);
  assert.ok(!result.ok);
  const messages = result.issues.map((i) => `${i.field}: ${i.message}`);
  assert.ok(messages.includes('dependsOn: unknown spec id "zz"'), messages.join('\n'));
  assert.ok(messages.includes('dependsOn: dependsOn lists a spec twice'), messages.join('\n'));
  assert.ok(
    messages.includes('interactsWith: a spec cannot list itself in interactsWith'),
    messages.join('\n'),
  );
});

test('a dependency cycle through the other specs is refused', () => {
  // editing "a" to depend on "b", which already depends on "a"
  const result = validateSpecDraft(draft({ id: 'a', dependsOn: ['b'], interactsWith: [] }), others, 'a');
  assert.ok(!result.ok);
  assert.deepEqual(result.issues, [{ field: 'dependsOn', message: 'dependency cycle: a → b → a' }]);
});

test('an empty or malformed id is explained in words, not as the raw pattern', () => {
  const base = {
    title: 't',
    kind: 'functional',
    statement: 's',
    test: { command: 'true', files: [] },
    anchors: [],
    dependsOn: [],
    interactsWith: [],
  };
  const messageFor = (id: string): string => {
    const result = validateSpecDraft({ ...base, id }, []);
    assert.ok(!result.ok);
    return result.issues
      .filter((i) => i.field === 'id')
      .map((i) => i.message)
      .join(' | ');
  };
  assert.equal(messageFor(''), 'Give the spec an id (it is derived from the title until you type one).');
  assert.equal(messageFor('-cache'), 'Start the id with a lower-case letter or a digit.');
  assert.equal(
    messageFor('Cache hit'),
    'Use only lower-case letters, digits and dashes in the id (not “C”, spaces).',
  );
  for (const id of ['', '-cache', 'Cache hit']) assert.doesNotMatch(messageFor(id), /\^\[a-z0-9\]/);
});
