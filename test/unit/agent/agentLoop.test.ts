// The agent loop and its toolbox over a fake ModelClient, in-process: a script of model turns stands in for the
// model (the scripted HTTP server of test/e2e/agent covers the wire), the tools work on a temporary folder, and
// `runSpecs` is the test's own function. What is asserted is what the loop decides (when it stops and why, what
// it sends back to the model) and what the tools do to the files.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  runAgentLoop,
  type AgentBudgets,
  type LoopInput,
  type LoopProgress,
} from '../../../src/core/agent/agentLoop';
import type {
  ChatMessage,
  CompletionRequest,
  ModelClient,
  ModelTurn,
} from '../../../src/core/model/modelClient';
import { ModelError } from '../../../src/core/model/modelErrors';
import { WorkspaceJail } from '../../../src/core/agent/paths';
import { runTool } from '../../../src/core/agent/toolbox';
import type { ToolContext } from '../../../src/core/agent/toolContract';
import { readTrajectory, TrajectoryWriter } from '../../../src/core/agent/trajectory';
import type { SpecResult } from '../../../src/core/check';

type Step =
  { calls: Array<[name: string, args: unknown]>; tokens?: number } | { text: string } | { throws: Error };

/** A ModelClient that answers from a script, one step per call, and keeps every request it got. */
class FakeModel implements ModelClient {
  readonly model = 'fake';
  readonly baseURL = 'http://127.0.0.1:9/v1';
  readonly requests: ChatMessage[][] = [];
  private next = 0;
  constructor(private readonly script: Step[]) {}

  complete(request: CompletionRequest): Promise<ModelTurn> {
    this.requests.push(structuredClone(request.messages));
    const step = this.script[this.next++];
    if (step === undefined) throw new Error(`the script has no step ${this.next}`);
    if ('throws' in step) return Promise.reject(step.throws);
    const tokens = 'tokens' in step ? (step.tokens ?? 10) : 10;
    return Promise.resolve({
      content: 'text' in step ? step.text : null,
      toolCalls:
        'calls' in step
          ? step.calls.map(([name, args], i) => ({
              id: `call-${this.next}-${i}`,
              name,
              arguments: typeof args === 'string' ? args : JSON.stringify(args),
            }))
          : [],
      finishReason: 'stop',
      usage: { promptTokens: tokens - 2, completionTokens: 2, totalTokens: tokens },
      durationMs: 1,
      retriedAfterCut: false,
    });
  }
}

let root: string;
let counter = 0;
before(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-agent-loop-'));
});
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** A fresh workspace with src/a.js and a protected test file. */
function workspace(): string {
  const dir = path.join(root, `ws-${++counter}`);
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'test'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src/a.js'), 'export const a = 1;\n');
  fs.writeFileSync(path.join(dir, 'test/a.test.js'), 'assert(a === 2);\n');
  return dir;
}

async function toolContext(dir: string, specRuns: string[][] = []): Promise<ToolContext> {
  return {
    jail: await WorkspaceJail.create(dir, ['test/a.test.js']),
    specIds: ['a-is-two'],
    runSpecs(ids) {
      specRuns.push(ids ?? ['(all)']);
      const passes = fs.readFileSync(path.join(dir, 'src/a.js'), 'utf8').includes('= 2');
      return Promise.resolve([
        {
          id: 'a-is-two',
          verdict: passes ? 'pass' : 'fail',
          output: passes ? '' : 'expected 2',
        } as SpecResult,
      ]);
    },
    symbols: () => Promise.reject(new Error('no index in this test')),
    signal: new AbortController().signal,
  };
}

const BUDGETS: AgentBudgets = { maxSteps: 5, maxTokens: 1000, timeoutSeconds: 60 };

async function loop(
  dir: string,
  model: FakeModel,
  extra: Partial<LoopInput> = {},
): Promise<{
  outcome: Awaited<ReturnType<typeof runAgentLoop>>;
  progress: LoopProgress[];
  trajectory: string;
}> {
  const { signal: _signal, ...tools } = await toolContext(dir);
  const trajectory = path.join(dir, '.trajectory.jsonl');
  const progress: LoopProgress[] = [];
  const outcome = await runAgentLoop({
    client: model,
    system: 'You fix code.',
    task: 'Make a-is-two pass.',
    tools,
    budgets: BUDGETS,
    userSignal: new AbortController().signal,
    deadline: new AbortController().signal,
    trajectory: new TrajectoryWriter(trajectory, (t) => t),
    redact: (t) => t,
    onProgress: (e) => progress.push(e),
    ...extra,
  });
  return { outcome, progress, trajectory };
}

describe('the agent loop over a fake model', () => {
  test('runs the tools the model calls, feeds their results back, and stops when it calls finish', async () => {
    const dir = workspace();
    const model = new FakeModel([
      { calls: [['edit', { path: 'src/a.js', search: '= 1', replace: '= 2' }]] },
      { calls: [['run_specs', {}]] },
      { calls: [['finish', { summary: 'a is two' }]] },
    ]);
    const { outcome, progress, trajectory } = await loop(dir, model);
    assert.equal(outcome.stopReason, 'finished');
    assert.equal(outcome.finishSummary, 'a is two');
    assert.equal(outcome.steps, 3);
    assert.deepEqual(outcome.usage, { promptTokens: 24, completionTokens: 6, totalTokens: 30 });
    assert.equal(fs.readFileSync(path.join(dir, 'src/a.js'), 'utf8'), 'export const a = 2;\n');
    // The second request carries the edit's result as the tool message answering the first call.
    const toolReply = model.requests[1]!.at(-1)!;
    assert.equal(toolReply.role, 'tool');
    assert.match(String(toolReply.content), /^Edited src\/a\.js/);
    assert.match(String(model.requests[2]!.at(-1)!.content), /a-is-two.*pass/);
    assert.deepEqual(
      progress.filter((e) => e.type === 'tool').map((e) => [e.name, e.ok]),
      [
        ['edit', true],
        ['run_specs', true],
        ['finish', true],
      ],
    );
    const events = readTrajectory(trajectory).map((e) => e.type);
    assert.deepEqual(events, ['model', 'tool', 'model', 'tool', 'model', 'tool']);
  });

  test('nudges a model that answers in text, and stops at the step budget', async () => {
    const dir = workspace();
    const model = new FakeModel(Array.from({ length: 5 }, () => ({ text: 'I would edit src/a.js.' })));
    const { outcome } = await loop(dir, model, { nudge: 'Call a tool.' });
    assert.equal(outcome.stopReason, 'step-budget');
    assert.equal(outcome.error, 'stopped after 5 steps (step budget)');
    assert.equal(model.requests.length, 5);
    assert.deepEqual(model.requests[1]!.slice(-2), [
      { role: 'assistant', content: 'I would edit src/a.js.' },
      { role: 'user', content: 'Call a tool.' },
    ]);
  });

  test('stops at the token budget once the model has spent it', async () => {
    const dir = workspace();
    const model = new FakeModel([{ calls: [['list_files', {}]], tokens: 1000 }]);
    const { outcome } = await loop(dir, model);
    assert.equal(outcome.stopReason, 'token-budget');
    assert.equal(outcome.steps, 1);
  });

  test('a model error ends the run with its message; a cancel before the first step asks the model nothing', async () => {
    const failing = new FakeModel([{ throws: new ModelError('no-key', 'No API key for the endpoint') }]);
    const { outcome } = await loop(workspace(), failing);
    assert.deepEqual([outcome.stopReason, outcome.error], ['model-error', 'No API key for the endpoint']);

    const cancel = new AbortController();
    cancel.abort();
    const idle = new FakeModel([]);
    const cancelled = await loop(workspace(), idle, { userSignal: cancel.signal });
    assert.equal(cancelled.outcome.stopReason, 'cancelled');
    assert.equal(idle.requests.length, 0);
  });

  test('a spent wall-time budget stops the loop as time-budget', async () => {
    const deadline = new AbortController();
    deadline.abort();
    const { outcome } = await loop(workspace(), new FakeModel([]), { deadline: deadline.signal });
    assert.deepEqual(
      [outcome.stopReason, outcome.error],
      ['time-budget', 'stopped after 60 s (time budget)'],
    );
  });
});

describe('the toolbox', () => {
  test('a bad call is an error result the model can read, never an exception', async () => {
    const ctx = await toolContext(workspace());
    assert.match(
      (await runTool('constructor', '{}', ctx)).content,
      /^Unknown tool 'constructor'\. Available tools: /,
    );
    assert.match((await runTool('read_file', '{"path":', ctx)).content, /not valid JSON/);
    const invalid = await runTool('read_file', '{"path": 3}', ctx);
    assert.equal(invalid.ok, false);
    assert.match(invalid.content, /^Invalid arguments for read_file: path: /);
  });

  test('drops arguments the schema does not have, and says so', async () => {
    const ctx = await toolContext(workspace());
    const read = await runTool('read_file', JSON.stringify({ path: 'src/a.js', reasoning: 'look' }), ctx);
    assert.equal(read.ok, true);
    assert.match(read.content, /export const a = 1;/);
    assert.match(read.content, /\(Ignored unknown argument\(s\) of read_file: reasoning\.\)$/);
  });

  test('refuses paths outside the workspace and edits to protected files, and leaves them as they were', async () => {
    const dir = workspace();
    const ctx = await toolContext(dir);
    const outside = await runTool('read_file', JSON.stringify({ path: '../../etc/passwd' }), ctx);
    assert.deepEqual([outside.ok, outside.refused], [false, 'outside']);
    const protectedEdit = await runTool(
      'edit',
      JSON.stringify({ path: 'test/a.test.js', search: 'a === 2', replace: 'true' }),
      ctx,
    );
    assert.deepEqual(
      [protectedEdit.ok, protectedEdit.refused, protectedEdit.path],
      [false, 'protected', 'test/a.test.js'],
    );
    assert.equal(fs.readFileSync(path.join(dir, 'test/a.test.js'), 'utf8'), 'assert(a === 2);\n');
  });

  test('run_specs asks the context for the named specs and refuses unknown ids; finish carries the summary', async () => {
    const runs: string[][] = [];
    const ctx = await toolContext(workspace(), runs);
    const unknown = await runTool('run_specs', JSON.stringify({ ids: ['nope'] }), ctx);
    assert.equal(unknown.ok, false);
    assert.match(unknown.content, /^Unknown spec id\(s\): nope\. Known: a-is-two\./);
    const ran = await runTool('run_specs', JSON.stringify({ ids: ['a-is-two'] }), ctx);
    assert.equal(ran.ok, true);
    assert.deepEqual(runs, [['a-is-two']]);
    assert.deepEqual((await runTool('finish', JSON.stringify({ summary: 'done' }), ctx)).finish, {
      summary: 'done',
    });
  });
});
