import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseSpecText } from '../../../src/core/spec';
import type { Spec } from '../../../src/shared/specSchema';
import { applyTextEdits } from '../../../src/core/spec/edit';
import {
  addSpecEdit,
  removeSpecEdit,
  SpecEditError,
  updateSpecEdit,
  type SpecTextEdit,
} from '../../../src/core/spec/specEdits';

const DEMO = fs.readFileSync(path.resolve(__dirname, '../../../../examples/.weave/specs.json'), 'utf8');

const NEW_SPEC: Spec = {
  id: 'retry-budget',
  title: 'A failed GET is retried at most twice',
  kind: 'reliability',
  statement: 'If the origin fails, the client shall retry at most twice.',
  test: { command: 'node --test test/retry.test.js', files: ['test/retry.test.js'] },
  anchors: ['src/client.js#Client.get'],
  dependsOn: ['response-shape'],
  interactsWith: [],
};

function applied(text: string, edit: SpecTextEdit): string {
  return applyTextEdits(text, [edit]);
}

function specsOf(text: string) {
  const result = parseSpecText(text, '.weave/specs.json');
  assert.ok(result.ok, `edited file no longer loads: ${JSON.stringify(!result.ok && result.problems)}`);
  return result.specFile.specs;
}

test('the demo file has comments (the other tests rely on it)', () => {
  assert.match(DEMO, /^\s*\/\//m);
});

test('adding a spec appends it, keeps every comment and stays loadable', () => {
  const after = applied(DEMO, addSpecEdit(DEMO, NEW_SPEC));
  const specs = specsOf(after);
  assert.deepEqual(specs.at(-1), NEW_SPEC);
  assert.equal(specs.length, specsOf(DEMO).length + 1);
  for (const comment of DEMO.match(/\/\/.*$/gm) ?? []) assert.ok(after.includes(comment), `lost ${comment}`);
});

test('adding a spec is one replacement that leaves the text before the specs array untouched', () => {
  const edit = addSpecEdit(DEMO, NEW_SPEC);
  assert.ok(edit.offset > DEMO.indexOf('"specs"'));
  assert.equal(edit.length, 0, 'an append replaces nothing');
});

test('adding an existing id is refused', () => {
  assert.throws(() => addSpecEdit(DEMO, { ...NEW_SPEC, id: 'cache-hit' }), SpecEditError);
});

test('updating a title rewrites only that value', () => {
  const old = specsOf(DEMO).find((s) => s.id === 'cache-hit');
  assert.ok(old);
  const edit = updateSpecEdit(DEMO, 'cache-hit', { ...old, title: 'One request per URL within the TTL' });
  assert.equal(DEMO.slice(edit.offset, edit.offset + edit.length).includes('"statement"'), false);
  const after = applied(DEMO, edit);
  assert.equal(specsOf(after).find((s) => s.id === 'cache-hit')?.title, 'One request per URL within the TTL');
  assert.equal(after.length - DEMO.length, 'One request per URL within the TTL'.length - old.title.length);
});

test('renaming a spec renames the references other specs hold', () => {
  const old = specsOf(DEMO).find((s) => s.id === 'cache-hit');
  assert.ok(old);
  const after = applied(DEMO, updateSpecEdit(DEMO, 'cache-hit', { ...old, id: 'single-fetch' }));
  const specs = specsOf(after);
  assert.equal(
    specs.some((s) => s.id === 'cache-hit'),
    false,
  );
  assert.ok(specs.some((s) => s.id === 'single-fetch'));
  for (const spec of specs) {
    assert.equal(
      spec.dependsOn.includes('cache-hit') || spec.interactsWith.includes('cache-hit'),
      false,
      spec.id,
    );
  }
  assert.ok(specs.find((s) => s.id === 'no-stale-read')?.dependsOn.includes('single-fetch'));
});

test('removing a spec removes it and every reference to it', () => {
  const after = applied(DEMO, removeSpecEdit(DEMO, 'response-shape'));
  const specs = specsOf(after);
  assert.equal(
    specs.some((s) => s.id === 'response-shape'),
    false,
  );
  for (const spec of specs) assert.equal(spec.dependsOn.includes('response-shape'), false, spec.id);
  assert.equal(specs.length, specsOf(DEMO).length - 1);
});

test('unknown ids and broken files give a message, not an edit', () => {
  assert.throws(() => removeSpecEdit(DEMO, 'nope'), /no spec with the id "nope"/);
  assert.throws(() => addSpecEdit('{ "version": 1, "specs": [ ', NEW_SPEC), /syntax errors/);
  assert.throws(() => addSpecEdit('{ "version": 1 }', NEW_SPEC), /no "specs" array/);
});

test('tabs and CRLF line ends are kept when a spec is added', () => {
  const text = '{\r\n\t"version": 1,\r\n\t"specs": []\r\n}\r\n';
  const lone = { ...NEW_SPEC, dependsOn: [] };
  const after = applied(text, addSpecEdit(text, lone));
  assert.equal(after.replace(/\r\n/g, '').includes('\n'), false, 'a bare \\n slipped in');
  assert.match(after, /\r\n\t\t\{/);
  assert.deepEqual(specsOf(after), [lone]);
});

test('an added spec keeps short string lists on one line, like the demo file writes them', () => {
  const text = applied(DEMO, addSpecEdit(DEMO, NEW_SPEC));
  assert.deepEqual(specsOf(text).at(-1), NEW_SPEC);
  const added = text.slice(text.indexOf('"id": "retry-budget"'));
  assert.match(added, /"files": \["test\/retry\.test\.js"\]/);
  assert.match(added, /"anchors": \["src\/client\.js#Client\.get"\]/);
  assert.match(added, /"dependsOn": \["response-shape"\]/);
});

test('a file that writes one array element per line gets the same for an added spec', () => {
  const multiLine = JSON.stringify({ version: 1, goal: 'g', specs: [] }, null, 2);
  const text = applied(multiLine, addSpecEdit(multiLine, NEW_SPEC));
  assert.match(text, /"files": \[\n\s+"test\/retry\.test\.js"\n\s+\]/);
});
