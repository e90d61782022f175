// The spec form's state as data (media/src/formSnapshot.ts): an existing spec comes back from the form unchanged,
// hidden test settings survive an edit, ids derive from titles, and every issue lands in a slot.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  draftOf,
  emptySnapshot,
  errorSlotOf,
  idFromTitle,
  snapshotOf,
} from '../../../media/src/formSnapshot';
import type { ParsedPanelState } from '../../../src/shared/protocol';
import { validateSpecDraft } from '../../../src/shared/specDraft';
import type { Spec } from '../../../src/shared/specSchema';

const cacheHit: Spec = {
  id: 'cache-hit',
  title: 'A repeated GET within the TTL makes one request',
  kind: 'functional',
  statement: 'When the same URL is fetched twice within the TTL, the client shall send one request.',
  test: {
    command: 'node --test test/cache-hit.test.js',
    files: ['test/cache-hit.test.js', 'test/helpers.js'],
    cwd: 'packages/client',
    env: { TZ: 'UTC' },
    timeoutSeconds: 30,
  },
  anchors: ['src/client.js#Client.get'],
  dependsOn: ['response-shape'],
  interactsWith: [],
};
const state = { specs: [cacheHit] } as unknown as ParsedPanelState;

test('an unedited spec comes back from the form as it was, test settings the form does not show included', () => {
  const snapshot = snapshotOf(state, 'cache-hit');
  assert.ok(snapshot);
  assert.equal(snapshot.fields.files, 'test/cache-hit.test.js\ntest/helpers.js');
  assert.deepEqual(draftOf(snapshot, snapshot.anchors, cacheHit), cacheHit);
  assert.equal(snapshotOf(state, 'no-such-spec'), undefined);
});

test('typed text is trimmed and test files are one per line, blank lines dropped', () => {
  const snapshot = emptySnapshot();
  Object.assign(snapshot.fields, {
    id: ' retry ',
    title: ' Retries ',
    statement: ' The client shall retry. ',
    command: '  npm test ',
    files: ' test/a.test.js \r\n\n  test/b.test.js\n',
  });
  const draft = draftOf(snapshot, ['src/retry.js'], undefined);
  assert.deepEqual(draft, {
    id: 'retry',
    title: 'Retries',
    kind: 'functional',
    statement: 'The client shall retry.',
    test: { command: 'npm test', files: ['test/a.test.js', 'test/b.test.js'] },
    anchors: ['src/retry.js'],
    dependsOn: [],
    interactsWith: [],
  });
  assert.ok(validateSpecDraft(draft, []).ok);
});

test('the id derived from a title is a valid spec id', () => {
  assert.equal(idFromTitle('A repeated GET within the TTL!'), 'a-repeated-get-within-the-ttl');
  assert.equal(idFromTitle('  Café — naïve résumé  '), 'cafe-naive-resume');
  assert.equal(idFromTitle('x'.repeat(100)).length, 60);
  assert.equal(idFromTitle('!!!'), '');
  for (const title of ['Cache hit', 'Über-fast (p99 < 5 ms)', '2 retries at most'])
    assert.match(idFromTitle(title), /^[a-z0-9][a-z0-9-]*$/);
});

test('every issue lands in a slot: nested test fields in theirs, anything else under the whole form', () => {
  assert.equal(errorSlotOf('test.command'), 'command');
  assert.equal(errorSlotOf('test.files'), 'files');
  assert.equal(errorSlotOf('dependsOn'), 'dependsOn');
  assert.equal(errorSlotOf('spec'), 'spec');
  assert.equal(errorSlotOf('test.env'), 'spec');
  assert.equal(errorSlotOf('constructor'), 'spec');
});
