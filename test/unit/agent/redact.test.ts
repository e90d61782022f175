// The secret redaction applied to everything an agent run writes, on hand-written texts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createRedactor } from '../../../src/core/agent/redact';

describe('redaction', () => {
  const redact = createRedactor(['my-configured-key-value']);
  test('removes the configured key and key-like values', () => {
    const text = [
      'key my-configured-key-value here',
      'Authorization: Bearer abc.def-123',
      '{"authorization":"Basic dXNlcjpwYXNz"}',
      'OPENAI_API_KEY=sk-proj-AAAAAAAAAAAAAAAAAAAA',
      "const apiKey = 'k-1234567890';",
      'password: "hunter2hunter2"',
    ].join('\n');
    const out = redact(text);
    for (const secret of [
      'my-configured-key-value',
      'abc.def-123',
      'dXNlcjpwYXNz',
      'sk-proj-AAAA',
      'k-1234567890',
      'hunter2hunter2',
    ]) {
      assert.ok(!out.includes(secret), `${secret} is redacted in:\n${out}`);
    }
    assert.match(out, /\[REDACTED\]/);
  });
  test('leaves ordinary code alone', () => {
    const code =
      'const cached = this.cache.get(url);\nif (response.status === 200) this.cache.set(url, response);';
    assert.equal(redact(code), code);
  });
});
