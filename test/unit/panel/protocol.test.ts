import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseToExtension, parseToWebview, type PanelState } from '../../../src/shared/protocol';

const spec = {
  id: 'a',
  title: 'A',
  kind: 'functional',
  statement: 'S',
  test: { command: 'node --test', files: [] },
  anchors: [],
  dependsOn: [],
  interactsWith: [],
};
const state: PanelState = {
  specFile: '.weave/specs.json',
  goal: '',
  specs: [spec as PanelState['specs'][number]],
  problems: [],
  verdicts: { a: { verdict: 'fail', reason: 'exit code 1' } },
  changes: { a: 'broken' },
  baseline: { runId: 'r1', commit: null },
  potentialInteractions: [],
  trusted: true,
  running: [],
};

test('well-formed messages pass in both directions', () => {
  assert.ok(parseToWebview({ type: 'state', state }).ok);
  assert.ok(
    parseToWebview({ type: 'symbols', requestId: 3, symbols: [{ anchor: 'src/a.js', file: 'src/a.js' }] }).ok,
  );
  assert.ok(parseToExtension({ type: 'check', target: { ids: ['a'] } }).ok);
  assert.ok(parseToExtension({ type: 'check', target: 'affected' }).ok);
  assert.ok(parseToExtension({ type: 'addSpec', requestId: 1, spec }).ok);
});

test('malformed messages are rejected with a reason naming the field', () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ type: 'runShell', command: 'rm -rf /' }, /type "runShell"/],
    [{ type: 'check', target: 'everything' }, /target/],
    [{ type: 'check', target: { ids: [] } }, /target/],
    [{ type: 'addSpec', requestId: 1, spec: { ...spec, id: 'Not An Id' } }, /spec\.id/],
    [{ type: 'addSpec', requestId: 1, spec: { ...spec, extra: true } }, /spec/],
    [{ type: 'searchSymbols', requestId: -1, query: 'x' }, /requestId/],
    ['just a string', /malformed/],
    [null, /malformed/],
  ];
  for (const [raw, reason] of cases) {
    const parsed = parseToExtension(raw);
    assert.ok(!parsed.ok, JSON.stringify(raw));
    assert.match(parsed.error, reason);
  }
  const badState = parseToWebview({
    type: 'state',
    state: { ...state, verdicts: { a: { verdict: 'great' } } },
  });
  assert.ok(!badState.ok);
  assert.match(badState.error, /state\.verdicts\.a\.verdict/);
});
