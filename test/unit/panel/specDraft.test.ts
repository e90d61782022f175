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

test('an empty field is worded for the form like the id is, never as zod’s "Too small"', () => {
  const result = validateSpecDraft(
    {
      id: 'a',
      title: '',
      kind: 'functional',
      statement: '',
      test: { command: '   ', files: [''] },
      anchors: [''],
    },
    [],
  );
  assert.ok(!result.ok);
  const messages = Object.fromEntries(result.issues.map((i) => [i.field, i.message]));
  assert.deepEqual(messages, {
    title: 'Give the spec a title (one line a person reads in lists).',
    statement: 'Give the spec a statement (the requirement it checks).',
    'test.command': 'Give the test a command (the shell command that runs it).',
    'test.files': 'Remove the empty test file entry.',
    anchors: 'Remove the empty anchor.',
  });
});

test('a source file a spec anchors, listed as a test file, is a warning (the spec still saves)', () => {
  const draft = {
    id: 'clamp-bounds',
    title: 't',
    kind: 'reliability',
    statement: 's',
    test: {
      command: 'node --test test/clamp.test.js',
      files: ['test/clamp.test.js', 'src/math.js', 'README.md'],
    },
    anchors: ['src/math.js#clamp'],
  };
  const result = validateSpecDraft(draft, [{ id: 'add-works', anchors: ['src/math.js#add'] }]);
  assert.ok(result.ok);
  assert.deepEqual(result.warnings, [
    {
      field: 'test.files',
      severity: 'warning',
      message:
        'src/math.js does not look like a test and clamp-bounds, add-works anchor it: as a test file it is protected (an agent may never edit it). Is it the code under test?',
    },
  ]);
  // A test-named file or one no spec anchors is not questioned.
  const plain = validateSpecDraft(
    { ...draft, test: { ...draft.test, files: ['test/clamp.test.js', 'scripts/x.js'] } },
    [],
  );
  assert.ok(plain.ok);
  assert.deepEqual(plain.warnings, []);
});
