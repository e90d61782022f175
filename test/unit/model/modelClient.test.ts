// The model client against the scripted OpenAI-protocol server over real HTTP: streaming with tool calls
// accumulated from deltas, the package's retries (429 with retry-after, 500), a stream cut mid-way, and one
// clear message per failure (no key, wrong key, unreachable, unknown model, garbage).
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import { createModelClient, type ModelClient } from '../../../src/core/model/modelClient';
import { ModelError } from '../../../src/core/model/modelErrors';
import {
  everyConversation,
  startScriptedServer,
  type ScriptedServer,
  type ScriptStep,
} from '../../support/scriptedOpenAiServer';

const servers: ScriptedServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function serve(
  steps: ScriptStep[],
  options: { apiKey?: string; models?: string[] } = {},
): Promise<ScriptedServer> {
  const server = await startScriptedServer({ scripts: [everyConversation(steps)], ...options });
  servers.push(server);
  return server;
}

function client(
  server: ScriptedServer,
  options: { stream?: boolean; apiKey?: string; model?: string; maxRetries?: number } = {},
): ModelClient {
  return createModelClient({
    baseURL: server.baseURL,
    model: options.model ?? 'scripted-model',
    apiKey: options.apiKey ?? 'sk-test-key-000000000',
    timeoutMs: 5_000,
    maxRetries: options.maxRetries ?? 2,
    stream: options.stream ?? true,
  });
}

const ask = (c: ModelClient) => c.complete({ messages: [{ role: 'user', content: 'hello' }] });

async function rejectsWith(
  promise: Promise<unknown>,
  kind: ModelError['kind'],
  pattern: RegExp,
): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ModelError, `a ModelError, got ${String(error)}`);
    assert.equal(error.kind, kind);
    assert.match(error.message, pattern);
    return true;
  });
}

const toolStep: ScriptStep = {
  kind: 'tools',
  content: 'Reading the client first.',
  calls: [
    { name: 'read_file', arguments: { path: 'src/client.js', startLine: 1, endLine: 40 } },
    { name: 'search_text', arguments: { query: 'cache.set(' } },
  ],
};

describe('model client', () => {
  test('SSE streaming: content and several tool calls are accumulated from deltas', async () => {
    const server = await serve([toolStep]);
    const turn = await ask(client(server, { stream: true }));
    assert.equal(server.chatRequests()[0]!.body!.stream, true);
    assert.equal(turn.content, 'Reading the client first.');
    assert.deepEqual(
      turn.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [
        ['read_file', { path: 'src/client.js', startLine: 1, endLine: 40 }],
        ['search_text', { query: 'cache.set(' }],
      ],
    );
    assert.equal(turn.finishReason, 'tool_calls');
    assert.equal(turn.usage.totalTokens, 120);
  });

  test('non-streaming JSON answers give the same turn', async () => {
    const server = await serve([toolStep]);
    const turn = await ask(client(server, { stream: false }));
    assert.equal(server.chatRequests()[0]!.body!.stream, false);
    assert.equal(turn.toolCalls.length, 2);
    assert.equal(turn.toolCalls[0]!.name, 'read_file');
  });

  test('429 with retry-after is retried by the client, then succeeds', async () => {
    const server = await serve([
      {
        kind: 'http',
        status: 429,
        headers: { 'retry-after': '0' },
        body: { error: { message: 'slow down' } },
      },
      { kind: 'text', content: 'ok' },
    ]);
    const turn = await ask(client(server));
    assert.equal(turn.content, 'ok');
    assert.equal(server.chatRequests().length, 2);
  });

  test('500 is retried, then succeeds', async () => {
    const server = await serve([
      { kind: 'http', status: 500, headers: { 'retry-after-ms': '10' } },
      { kind: 'text', content: 'recovered' },
    ]);
    assert.equal((await ask(client(server))).content, 'recovered');
    assert.equal(server.chatRequests().length, 2);
  });

  test('429 that never ends: a clear rate-limit message after the retries', async () => {
    const server = await serve([{ kind: 'http', status: 429, headers: { 'retry-after': '0' } }]);
    await rejectsWith(ask(client(server, { maxRetries: 1 })), 'rate-limited', /rate-limiting \(HTTP 429\)/);
    assert.equal(server.chatRequests().length, 2);
  });

  test('a stream cut mid-way is retried once and then succeeds', async () => {
    const server = await serve([{ kind: 'cut' }, toolStep]);
    const turn = await ask(client(server, { stream: true }));
    assert.equal(turn.retriedAfterCut, true);
    assert.equal(turn.toolCalls.length, 2);
    assert.equal(server.chatRequests().length, 2);
  });

  test('a stream cut twice is a clear error', async () => {
    const server = await serve([{ kind: 'cut' }]);
    await rejectsWith(ask(client(server, { stream: true })), 'stream-cut', /cut off mid-way/);
    assert.equal(server.chatRequests().length, 2);
  });

  test('a JSON body cut mid-way (no streaming) is retried once too', async () => {
    const server = await serve([{ kind: 'cut' }, { kind: 'text', content: 'whole' }]);
    const turn = await ask(client(server, { stream: false, maxRetries: 0 }));
    assert.equal(turn.content, 'whole');
    assert.equal(turn.retriedAfterCut, true);
  });

  test('garbage instead of a completion: a clear message', async () => {
    for (const stream of [true, false]) {
      const server = await serve([{ kind: 'garbage', body: '<html>It works!</html>' }]);
      await rejectsWith(
        ask(client(server, { stream })),
        'bad-response',
        /not (a chat completion|JSON)|without any completion/,
      );
    }
    const json = await serve([{ kind: 'garbage', body: '{"hello":"world"}' }]);
    await rejectsWith(ask(client(json, { stream: false })), 'bad-response', /not a chat completion/);
  });

  test('wrong key (401): one clear message, no retry', async () => {
    const server = await serve([{ kind: 'text', content: 'never' }], { apiKey: 'sk-right-key-123456' });
    await rejectsWith(
      ask(client(server, { apiKey: 'sk-wrong-key-123456' })),
      'auth',
      /rejected the API key \(HTTP 401\)/,
    );
    assert.equal(server.chatRequests().length, 1);
  });

  test('unknown model (404): names the model', async () => {
    const server = await serve([{ kind: 'text', content: 'never' }], { models: ['qwen2.5-coder'] });
    await rejectsWith(
      ask(client(server, { model: 'gpt-nonexistent' })),
      'unknown-model',
      /'gpt-nonexistent' was not found/,
    );
  });

  test('unreachable server (ECONNREFUSED): says so', async () => {
    const port = await freePort();
    const c = createModelClient({
      baseURL: `http://127.0.0.1:${port}/v1`,
      model: 'm',
      maxRetries: 1,
      timeoutMs: 2000,
    });
    await rejectsWith(
      ask(c),
      'unreachable',
      /Cannot reach the model server at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/,
    );
  });

  test('no key: allowed for loopback servers only', async () => {
    assert.throws(
      () => createModelClient({ baseURL: 'https://api.example.invalid/v1', model: 'm' }),
      (e: unknown) => e instanceof ModelError && e.kind === 'no-key' && /OPENAI_API_KEY/.test(e.message),
    );
    const server = await serve([{ kind: 'text', content: 'local' }]);
    const keyless = createModelClient({
      baseURL: server.baseURL.replace('127.0.0.1', 'localhost'),
      model: 'm',
    });
    assert.equal((await ask(keyless)).content, 'local');
    assert.throws(
      () => createModelClient({ baseURL: 'ftp://x', model: 'm', apiKey: 'k' }),
      (e: unknown) => e instanceof ModelError && e.kind === 'bad-base-url',
    );
  });

  test('cancelling a request gives a cancelled error', async () => {
    const server = await serve([{ kind: 'text', content: 'late' }]);
    const controller = new AbortController();
    controller.abort();
    await rejectsWith(
      client(server).complete({ messages: [{ role: 'user', content: 'x' }], signal: controller.signal }),
      'cancelled',
      /cancelled/,
    );
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
