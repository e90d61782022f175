// What an agent must not be able to do, and how runs end when the model misbehaves: paths outside the
// worktree, protected test files, malformed or unknown tool calls, a model that never finishes (budgets),
// a model that fails, a user who cancels. Real HTTP, real worktrees, real spec runs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runAgent } from '../../../src/core/agent/runAgent';
import { readTrajectory, type TimedEvent } from '../../../src/core/agent/trajectory';
import { fingerprint, git } from '../../support/demoWorkspace';
import { agentScript, assertNothingLeftBehind, harness } from './harness';

const PROTECTED_TEST = 'test/no-secret-caching.test.js';

function toolEvents(file: string): Array<Extract<TimedEvent, { type: 'tool' }>> {
  return readTrajectory(file).flatMap((e) => (e.type === 'tool' ? [e] : []));
}

describe('agent safety', () => {
  test('refuses paths outside the worktree and protected files; bad calls become error results', async () => {
    const h = await harness([
      agentScript([
        {
          kind: 'tools',
          calls: [
            { name: 'read_file', arguments: { path: '../../etc/passwd' } },
            { name: 'read_file', arguments: { path: '/etc/passwd' } },
            { name: 'read_file', arguments: { path: 'escape/passwd' } },
            { name: 'list_files', arguments: { path: 'escape' } },
          ],
        },
        {
          kind: 'tools',
          calls: [
            { name: 'edit', arguments: '{"path": "src/client.js", "search": ' },
            { name: 'delete_everything', arguments: { path: '.' } },
            { name: 'edit', arguments: { path: 'src/client.js' } },
            { name: 'read_file', arguments: { path: 'src/client.js', startLine: 'one' } },
          ],
        },
        {
          kind: 'tools',
          calls: [
            {
              name: 'edit',
              arguments: {
                path: PROTECTED_TEST,
                search:
                  "assert.equal(client.cache.size, 0, 'the authorized response was stored in the cache');",
                replace: '',
              },
            },
            { name: 'create_file', arguments: { path: '.weave/specs.json', content: '{}' } },
            { name: 'create_file', arguments: { path: 'test/./no-secret-caching.test.js', content: '' } },
            {
              name: 'edit',
              arguments: { path: 'src/client.js', search: 'this.cache.get(uri)', replace: 'x' },
            },
            { name: 'edit', arguments: { path: 'src/client.js', search: 'const', replace: 'let' } },
            { name: 'create_file', arguments: { path: 'src/client.js', content: '' } },
          ],
        },
        { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'gave up' } }] },
      ]),
    ]);
    try {
      // A symlink committed in the repository that leads out of it.
      fs.symlinkSync('/etc', path.join(h.repo.workspace, 'escape'));
      git(h.repo.root, ['add', 'escape']);
      git(h.repo.root, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'symlink']);
      const userTreeBefore = fingerprint(h.repo.workspace);

      const result = await runAgent(h.options());
      assert.equal(result.stopReason, 'finished', result.error);
      assert.equal(result.patch, '', 'nothing changed');
      const events = toolEvents(result.trajectoryFile);
      assert.ok(
        events.every((e) => e.name === 'finish' || !e.ok),
        'every call but finish failed',
      );
      assert.deepEqual(
        events.map((e) => e.refused ?? null),
        [
          'outside',
          'outside',
          'outside',
          'outside',
          null,
          null,
          null,
          null,
          'protected',
          'protected',
          'protected',
          null,
          null,
          null,
          null,
        ],
      );
      for (const e of events)
        assert.ok(!e.result.includes('root:'), 'no byte of /etc/passwd reached the model');

      // The model was told what went wrong, call by call.
      const toolReplies = h.server
        .chatRequests()
        .at(-1)!
        .body!.messages!.filter((m) => m.role === 'tool')
        .map((m) => String(m.content));
      const expected = [
        /Refused: '\.\.\/\.\.\/etc\/passwd' contains '\.\.'/,
        /Refused: '\/etc\/passwd' is absolute/,
        /Refused: 'escape\/passwd' leads outside the workspace/,
        /Refused: 'escape' leads outside the workspace/,
        /The arguments of edit are not valid JSON/,
        /Unknown tool 'delete_everything'\. Available tools: list_files, read_file/,
        /Invalid arguments for edit: search: .*; replace: /,
        /Invalid arguments for read_file: startLine:/,
        /Refused: 'test\/no-secret-caching\.test\.js' is read-only: it is a spec’s test file/,
        /Refused: '\.weave\/specs\.json' is read-only: Weave’s own state/,
        /Refused: 'test\/no-secret-caching\.test\.js' is read-only/,
        /The search text was not found in src\/client\.js/,
        /The search text occurs \d+ times in src\/client\.js; include more surrounding lines/,
        /src\/client\.js already exists: use edit/,
      ];
      assert.equal(toolReplies.length, expected.length);
      expected.forEach((pattern, i) => assert.match(toolReplies[i]!, pattern));

      // The review flags the attempts.
      const attempted = result.findings.filter((f) => f.check === 'protected-edit-attempted');
      assert.deepEqual(
        attempted.map((f) => [f.file, f.specId ?? null]),
        [
          [PROTECTED_TEST, 'no-secret-caching'],
          ['.weave/specs.json', null],
        ],
        'one finding per file, however often it was tried',
      );
      assert.ok(
        result.findings.some(
          (f) => f.check === 'path-escape-attempted' && /\.\.\/\.\.\/etc\/passwd/.test(f.message),
        ),
      );
      assert.equal(fingerprint(h.repo.workspace), userTreeBefore);
      await assertNothingLeftBehind(h.repo);
    } finally {
      await h.close();
    }
  });

  test('a model that never calls finish is stopped by the step budget', async () => {
    const h = await harness([
      agentScript([], { kind: 'tools', calls: [{ name: 'read_file', arguments: { path: 'src/cache.js' } }] }),
    ]);
    try {
      const result = await runAgent(h.options({ budgets: { maxSteps: 3 } }));
      assert.equal(result.stopReason, 'step-budget');
      assert.match(result.error ?? '', /after 3 steps/);
      assert.equal(h.server.chatRequests().length, 3);
      assert.equal(result.after.length, h.specFile.specs.length, 'the specs still run after a budget stop');
      await assertNothingLeftBehind(h.repo);
    } finally {
      await h.close();
    }
  });

  test('the token budget stops a chatty model (text without tool calls is nudged, and counts)', async () => {
    const h = await harness([agentScript([], { kind: 'text', content: 'Thinking about caches…' })]);
    try {
      const result = await runAgent(h.options({ budgets: { maxTokens: 200 } }));
      assert.equal(result.stopReason, 'token-budget');
      assert.equal(result.usage.totalTokens, 240);
      const second = h.server.chatRequests()[1]!.body!.messages!;
      assert.match(String(second.at(-1)!.content), /Use the tools to make progress/);
      await assertNothingLeftBehind(h.repo);
    } finally {
      await h.close();
    }
  });

  test('the wall-time budget stops the run, killing the spec tests it was running', async () => {
    const h = await harness([
      agentScript([], { kind: 'tools', calls: [{ name: 'run_specs', arguments: {} }] }),
    ]);
    try {
      const started = Date.now();
      const result = await runAgent(h.options({ budgets: { timeoutSeconds: 1.5, maxSteps: 1000 } }));
      assert.equal(result.stopReason, 'time-budget');
      assert.ok(Date.now() - started < 30_000);
      await assertNothingLeftBehind(h.repo);
    } finally {
      await h.close();
    }
  });

  test('cancelling (AbortSignal) stops the run and removes the worktree', async () => {
    const h = await harness([
      agentScript([], { kind: 'tools', calls: [{ name: 'run_specs', arguments: {} }] }),
    ]);
    try {
      const controller = new AbortController();
      const result = await runAgent(
        h.options({
          signal: controller.signal,
          onProgress: (e) => {
            if (e.type === 'step' && e.step === 2) controller.abort();
          },
        }),
      );
      assert.equal(result.stopReason, 'cancelled');
      assert.deepEqual(result.after, [], 'no spec runs after a cancel');
      await assertNothingLeftBehind(h.repo);
    } finally {
      await h.close();
    }
  });

  test('a model error ends the run with its one clear message, and cleans up', async () => {
    const h = await harness([
      agentScript([{ kind: 'http', status: 404, body: { error: { message: 'no such model' } } }]),
    ]);
    try {
      const result = await runAgent(h.options());
      assert.equal(result.stopReason, 'model-error');
      assert.match(
        result.error ?? '',
        /The model 'scripted-model' was not found at http:\/\/127\.0\.0\.1:\d+\/v1 \(HTTP 404\)/,
      );
      assert.ok(readTrajectory(result.trajectoryFile).some((e) => e.type === 'error'));
      await assertNothingLeftBehind(h.repo);
    } finally {
      await h.close();
    }
  });
});
