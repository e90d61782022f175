// The agent in the real extension host: `weave.agent.runAll` talks to the scripted OpenAI-protocol server on
// 127.0.0.1 (real HTTP, real SSE), edits the fixture in a throw-away git worktree through a real `edit` tool
// call, and leaves the user's file alone until the patch is applied.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { MatrixResult } from '../../../src/core/agent/matrix';
import type { AgentRunOutcome, RunAllArgs } from '../../../src/extension/agent/agentCommands';
import { everyConversation, startScriptedServer, type ScriptStep } from '../../support/scriptedOpenAiServer';
import { fixtureFilesForSuite, readText, until, weaveApi, workspaceUri } from '../helpers';

const BUGGY = '  return Math.max(low, value);';
const FIXED = '  return Math.min(high, Math.max(low, value));';

function fixClampSteps(): ScriptStep[] {
  return [
    { kind: 'tools', calls: [{ name: 'read_file', arguments: { path: 'src/math.js' } }] },
    {
      kind: 'tools',
      content: 'Clamp values above high too.',
      calls: [{ name: 'edit', arguments: { path: 'src/math.js', search: BUGGY, replace: FIXED } }],
    },
    { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'clamp honours both bounds.' } }] },
  ];
}

async function listNames(dir: vscode.Uri): Promise<string[]> {
  try {
    return (await vscode.workspace.fs.readDirectory(dir)).map(([name]) => name).sort();
  } catch {
    return [];
  }
}

function scratchEntries(): string[] {
  return fs
    .readdirSync(os.tmpdir())
    .filter((n) => n.startsWith('weave-checkout-') || n.startsWith('weave-agent-review-'));
}

function worktrees(): string[] {
  const out = execFileSync('git', ['worktree', 'list', '--porcelain'], {
    cwd: workspaceUri().fsPath,
    encoding: 'utf8',
  });
  return out.split('\n').filter((l) => l.startsWith('worktree '));
}

/** Runs `command` against a fresh scripted server (a server's conversations are not replayed twice). */
async function withScriptedModel<T>(
  command: string,
  args?: unknown,
  steps = fixClampSteps(),
  maxSteps?: number,
) {
  const server = await startScriptedServer({ scripts: [everyConversation(steps)] });
  const config = vscode.workspace.getConfiguration('weave.agent');
  try {
    await config.update('baseUrl', server.baseURL, vscode.ConfigurationTarget.Workspace);
    await config.update('model', 'scripted-model', vscode.ConfigurationTarget.Workspace);
    await config.update('modelReview', false, vscode.ConfigurationTarget.Workspace);
    await config.update('maxSteps', maxSteps, vscode.ConfigurationTarget.Workspace);
    const outcome = await vscode.commands.executeCommand<T | undefined>(command, args);
    return { outcome, chats: server.chatRequests() };
  } finally {
    await server.close();
  }
}

function runAgentAll(args: RunAllArgs) {
  return withScriptedModel<AgentRunOutcome>('weave.agent.runAll', args);
}

suite('agent: run on all constraints', () => {
  fixtureFilesForSuite('src/math.js', '.weave/specs.json');
  const math = workspaceUri('src', 'math.js');
  let scratchBefore: string[];
  let mathBefore: Uint8Array;

  suiteSetup(async () => {
    scratchBefore = scratchEntries();
    mathBefore = await vscode.workspace.fs.readFile(math);
  });

  teardown(async () => {
    // Every test, and the later suites, start from the fixture's bug again.
    await vscode.workspace.fs.writeFile(math, mathBefore);
  });

  suiteTeardown(async () => {
    const config = vscode.workspace.getConfiguration('weave.agent');
    for (const key of ['baseUrl', 'model', 'modelReview', 'maxSteps'])
      await config.update(key, undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('runAll fixes the failing spec in a worktree; the user file is unchanged when discarded', async () => {
    // The spec ids as the fixture's specs.json on disk has them.
    const specIds = (
      parse(await readText(workspaceUri('.weave', 'specs.json'))) as { specs: Array<{ id: string }> }
    ).specs.map((s) => s.id);
    assert.ok(specIds.includes('clamp-bounds') && specIds.length >= 2, specIds.join(', '));
    const original = await readText(math);
    assert.ok(original.includes(BUGGY), 'the fixture no longer has the clamp bug');
    const { outcome, chats } = await runAgentAll({ autoApply: 'discard' });
    assert.ok(outcome, 'runAll returned nothing');

    assert.ok(chats.length >= 3, `the model was asked ${chats.length} time(s)`);
    const prompt = (chats[0]?.body?.messages ?? [])
      .map((m) => (typeof m.content === 'string' ? m.content : ''))
      .join('\n');
    for (const id of specIds) assert.ok(prompt.includes(id), `spec ${id} is not in the prompt`);
    assert.equal(chats[0]?.body?.model, 'scripted-model');

    const { result } = outcome;
    assert.equal(result.stopReason, 'finished', result.error);
    assert.deepEqual(result.changedFiles, ['src/math.js']);
    assert.match(result.patch, /^\+ {2}return Math\.min\(high, Math\.max\(low, value\)\);$/m);
    const clamp = result.verdicts.find((v) => v.id === 'clamp-bounds');
    assert.deepEqual(clamp, { id: 'clamp-bounds', before: 'fail', after: 'pass' });
    assert.deepEqual(
      result.verdicts.map((v) => v.id),
      specIds,
    );
    for (const v of result.verdicts.filter((v) => v.id !== 'clamp-bounds'))
      assert.equal(v.after, v.before, `${v.id} changed verdict`);

    assert.equal(outcome.decision, 'discarded');
    assert.equal(await readText(math), original, 'the user file changed without Apply');
    // The result stays in a tab of its own; the diff shows the file under its own path, not a temp copy.
    const shown = (await weaveApi()).agentResults.current();
    assert.ok(shown?.open, 'no agent result tab');
    assert.equal(shown.state, 'discarded');
    assert.match(shown.ending, /^Finished after 3 steps: clamp honours both bounds\./);
    assert.deepEqual(
      shown.files.map((f) => [f.path, f.status]),
      [['src/math.js', 'modified']],
    );
    const [label, left, right] = shown.files[0]?.resource ?? [];
    assert.equal(label?.toString(), math.toString());
    assert.equal(left?.toString(), math.toString(), 'the left side is the user file itself');
    assert.equal(right?.scheme, 'weave');
    assert.equal(right?.path, math.path, 'the proposal has the same path as the file (no rename)');
    const proposed = await vscode.workspace.openTextDocument(right as vscode.Uri);
    assert.ok(proposed.getText().includes(FIXED), 'the weave: document is not the patched file');
    assert.ok(!proposed.isUntitled);
    const tab = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find(
        (t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('weave.agent.result'),
      );
    assert.ok(tab, 'the result tab is not among the editor tabs');
    // A human heading (goal and start time), not the raw run id.
    assert.match(tab.label, /^Weave: Make every spec pass · \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    assert.equal(worktrees().length, 1, `worktrees left: ${worktrees().join(', ')}`);
    assert.deepEqual(scratchEntries(), scratchBefore);
  });

  test('with Apply the patch lands in the user file, and nothing is left behind', async () => {
    const api = await weaveApi();
    const checkBefore = api.lastRun()?.run.id;
    const { outcome } = await runAgentAll({ autoApply: 'apply' });
    assert.ok(outcome, 'runAll returned nothing');
    assert.equal(outcome.decision, 'applied');
    const after = await readText(math);
    assert.ok(after.includes(FIXED), 'the fix is not on disk');
    assert.ok(!after.includes(BUGGY));
    // Apply confirms itself: the specs are re-checked and every view follows the new verdict.
    assert.notEqual(api.lastRun()?.run.id, checkBefore, 'Apply did not re-check');
    const known = api.results.knownResults();
    assert.equal(known.results.find((r) => r.id === 'clamp-bounds')?.verdict, 'pass');
    assert.equal(api.testResults().states.get('clamp-bounds'), 'passed');
    assert.equal(worktrees().length, 1, `worktrees left: ${worktrees().join(', ')}`);
    assert.deepEqual(scratchEntries(), scratchBefore);
  });

  test('without autoApply the change waits in the result tab until "Apply the agent\'s change"', async () => {
    const api = await weaveApi();
    const { outcome } = await runAgentAll({});
    assert.equal(outcome?.decision, 'pending');
    assert.equal(api.agentResults.current()?.state, 'pending');
    assert.ok((await readText(math)).includes(BUGGY), 'the file changed before Apply');
    const decision = await vscode.commands.executeCommand('weave.agent.applyResult');
    assert.equal(decision, 'applied');
    assert.ok((await readText(math)).includes(FIXED));
    assert.equal(api.agentResults.current()?.state, 'applied');
    // Nothing is pending any more: a second Apply does nothing.
    assert.equal(await vscode.commands.executeCommand('weave.agent.applyResult'), undefined);
  });

  test('a run that spends every step on a rejected finish says why it did not finish', async () => {
    const rejectedFinish: ScriptStep[] = [
      {
        kind: 'tools',
        // An empty summary is refused (extra keys alone would only be ignored with a note).
        calls: [{ name: 'finish', arguments: { summary: '' } }],
      },
    ];
    const { outcome } = await withScriptedModel<AgentRunOutcome>('weave.agent.runAll', {}, rejectedFinish, 3);
    assert.equal(outcome?.result.stopReason, 'step-budget');
    assert.equal(outcome?.decision, 'nothing-to-apply');
    const ending = (await weaveApi()).agentResults.current()?.ending ?? '';
    assert.match(
      ending,
      /^Did not finish: used all 3 steps of its step budget \(setting weave\.agent\.maxSteps\)\./,
    );
    assert.match(ending, /3 tool calls failed, 3× the same one: finish — /);
  });

  test('an unreachable model server fails before any spec runs (the endpoint is probed first)', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const agentRuns = workspaceUri('.weave', 'runs', 'agent');
    const runsBefore = await listNames(agentRuns);
    const config = vscode.workspace.getConfiguration('weave.agent');
    try {
      await config.update('baseUrl', `http://127.0.0.1:${port}/v1`, vscode.ConfigurationTarget.Workspace);
      await config.update('model', 'scripted-model', vscode.ConfigurationTarget.Workspace);
      const outcome = await vscode.commands.executeCommand('weave.agent.runAll', {});
      assert.equal(outcome, undefined);
    } finally {
      await config.update('baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('model', undefined, vscode.ConfigurationTarget.Workspace);
    }
    // No agent run was started: no run folder, so no checkout and no check of the specs.
    assert.deepEqual(await listNames(agentRuns), runsBefore);
  });

  test('the matrix command runs every spec alone and all together and opens the heatmap tab', async () => {
    const original = await readText(math);
    const { outcome: matrix, chats } = await withScriptedModel<MatrixResult>('weave.agent.matrix');
    assert.ok(matrix, 'the matrix command returned nothing');
    const ids = matrix.specIds;
    assert.ok(ids.includes('clamp-bounds'));
    // One conversation per spec alone plus one for all together, each read, edit, finish.
    assert.equal(matrix.runs.length, ids.length + 1);
    assert.equal(chats.length, 3 * (ids.length + 1));
    assert.deepEqual(
      matrix.runs.map((r) => r.stopReason),
      matrix.runs.map(() => 'finished'),
    );
    assert.equal(matrix.before['clamp-bounds'], 'fail');
    for (const i of ids) assert.equal(matrix.alone[i]?.['clamp-bounds'], 'pass', `row ${i}`);
    assert.equal(matrix.together['clamp-bounds'], 'pass');
    assert.deepEqual(matrix.brokeBy, []);

    const tab = await until('the heatmap tab', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find(
          (t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('weave.agent.matrix'),
        ),
    );
    assert.equal(tab.label, 'Weave: interaction matrix');
    assert.equal(await readText(math), original, 'the matrix changed the user file');
    assert.equal(worktrees().length, 1, `worktrees left: ${worktrees().join(', ')}`);
    assert.deepEqual(scratchEntries(), scratchBefore);
  });
});
