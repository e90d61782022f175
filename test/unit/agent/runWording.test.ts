import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentProgress } from '../../../src/core/agent/runAgent';
import { explainEnding, ToolFailureTally } from '../../../src/core/agent/runWording';

const tool = (target: string, name: string, ok: boolean, summary: string): AgentProgress => ({
  runId: 'r1',
  target,
  type: 'tool',
  step: 1,
  name,
  ok,
  summary,
});

describe('how an agent run ended, in words', () => {
  test('counts failed tool calls per target, most frequent first, ignoring the successful ones', () => {
    const tally = new ToolFailureTally();
    for (let i = 0; i < 3; i++) tally.note(tool('all', 'finish', false, 'unexpected argument "notes"'));
    tally.note(tool('all', 'edit', false, 'search text not found'));
    tally.note(tool('all', 'read_file', true, 'read src/a.js'));
    tally.note(tool('cache-hit', 'edit', false, 'search text not found'));
    tally.note({ runId: 'r1', target: 'all', type: 'step', step: 2, maxSteps: 40, tokens: 10 });
    assert.deepEqual(tally.of('all'), [
      { name: 'finish', summary: 'unexpected argument "notes"', count: 3 },
      { name: 'edit', summary: 'search text not found', count: 1 },
    ]);
    assert.equal(tally.of('cache-hit').length, 1);
    assert.deepEqual(tally.of('never-ran'), []);
  });

  test('a spent step budget names the setting and the tool call that kept failing', () => {
    const text = explainEnding({ stopReason: 'step-budget', steps: 40 }, [
      { name: 'finish', summary: 'unexpected argument "notes"', count: 39 },
      { name: 'edit', summary: 'search text not found', count: 1 },
    ]);
    assert.equal(
      text,
      'Did not finish: used all 40 steps of its step budget (setting weave.agent.maxSteps). 40 tool calls failed, 39× the same one: finish — unexpected argument "notes"',
    );
  });

  test('a finished run gives its summary and no failure noise', () => {
    assert.equal(
      explainEnding({ stopReason: 'finished', steps: 3, finishSummary: 'clamp honours both bounds.' }, [
        { name: 'edit', summary: 'search text not found', count: 1 },
      ]),
      'Finished after 3 steps: clamp honours both bounds.',
    );
    assert.match(
      explainEnding({ stopReason: 'model-error', steps: 1, error: 'HTTP 401' }, []),
      /model failed: HTTP 401/,
    );
  });
});
