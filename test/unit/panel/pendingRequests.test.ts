// The webview's requests to the extension always settle: with the reply, or rejected on an error reply, a reply
// of the wrong kind, silence past the timeout, a failed send, or the view going away. The anchor picker's query
// stays within what the protocol admits, so the extension answers it.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test, mock } from 'node:test';
import { PendingRequests, REPLY_TIMEOUT_MS } from '../../../media/src/pendingRequests';
import {
  MAX_SYMBOL_QUERY_LENGTH,
  parseToExtension,
  symbolSearchQuery,
  type ToWebview,
} from '../../../src/shared/protocol';

type Reply = ToWebview<'symbols'> | ToWebview<'editResult'>;

beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
afterEach(() => mock.timers.reset());

/** A request whose sent ids are recorded, as the extension would see them. */
function start(requests: PendingRequests<Reply>, expected: Reply['type'] = 'symbols') {
  const sent: number[] = [];
  const promise = requests.request(expected, (requestId) => sent.push(requestId));
  return { sent, promise };
}

test('a reply resolves its own request, by id, and only once', async () => {
  const requests = new PendingRequests<Reply>();
  const first = start(requests);
  const second = start(requests);
  assert.equal(requests.size, 2);
  const [firstId] = first.sent;
  const [secondId] = second.sent;
  assert.ok(firstId !== undefined && secondId !== undefined && firstId !== secondId);
  assert.ok(requests.settle({ type: 'symbols', requestId: secondId, symbols: [] }));
  assert.deepEqual(await second.promise, { type: 'symbols', requestId: secondId, symbols: [] });
  assert.equal(requests.settle({ type: 'symbols', requestId: secondId, symbols: [] }), false, 'answered');
  assert.equal(requests.size, 1);
  requests.settle({ type: 'symbols', requestId: firstId, symbols: [] });
  await first.promise;
  assert.equal(requests.size, 0);
});

test('a reply carrying an error rejects with that error', async () => {
  const requests = new PendingRequests<Reply>();
  const { sent, promise } = start(requests, 'editResult');
  requests.settle({ type: 'editResult', requestId: sent[0] ?? -1, error: 'specs.json has syntax errors' });
  await assert.rejects(promise, /specs\.json has syntax errors/);
  assert.equal(requests.size, 0);
});

test('a reply of another kind rejects instead of passing for the expected one', async () => {
  const requests = new PendingRequests<Reply>();
  const { sent, promise } = start(requests, 'editResult');
  requests.settle({ type: 'symbols', requestId: sent[0] ?? -1, symbols: [] });
  await assert.rejects(promise, /expected a editResult reply, got symbols/);
});

test('no reply within the timeout rejects, and a late reply is ignored', async () => {
  const requests = new PendingRequests<Reply>();
  const { sent, promise } = start(requests);
  mock.timers.tick(REPLY_TIMEOUT_MS - 1);
  assert.equal(requests.size, 1, 'still waiting just before the timeout');
  mock.timers.tick(1);
  await assert.rejects(promise, /no answer from the extension within 60 s/);
  assert.equal(requests.size, 0);
  assert.equal(requests.settle({ type: 'symbols', requestId: sent[0] ?? -1, symbols: [] }), false);
});

test('a send that throws rejects at once and leaves nothing waiting', async () => {
  const requests = new PendingRequests<Reply>();
  const promise = requests.request('symbols', () => {
    throw new Error('the webview is disposed');
  });
  await assert.rejects(promise, /the webview is disposed/);
  assert.equal(requests.size, 0);
});

test('the view going away rejects every waiting request', async () => {
  const requests = new PendingRequests<Reply>();
  const a = start(requests);
  const b = start(requests, 'editResult');
  requests.rejectAll('the panel was closed');
  await assert.rejects(a.promise, /the panel was closed/);
  await assert.rejects(b.promise, /the panel was closed/);
  assert.equal(requests.size, 0);
});

test('the anchor picker cuts a long query to what the extension accepts', () => {
  const typed = `  ${'LruCache.get'.repeat(40)}  `;
  const message = (query: string) => ({ type: 'searchSymbols', requestId: 1, query });
  assert.equal(parseToExtension(message(typed.trim())).ok, false, 'the uncut query is refused');
  const query = symbolSearchQuery(typed);
  assert.equal(query.length, MAX_SYMBOL_QUERY_LENGTH);
  assert.ok(typed.trim().startsWith(query));
  assert.ok(parseToExtension(message(query)).ok);
  assert.equal(symbolSearchQuery('  cache.js#get '), 'cache.js#get');
});
