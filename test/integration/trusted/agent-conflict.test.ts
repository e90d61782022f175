// A refused Apply keeps the agent's result (issue #25, item 7): the user edited the line the agent changed, so
// Apply is refused with the file named in words (no git stderr); the result stays pending in the tab and the
// palette, the file that still applies can be applied alone, the patch opens as a read-only document, and after
// the user reverts their edit, Retry applies the rest.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentRunOutcome } from '../../../src/extension/agent/agentCommands';
import { everyConversation, startScriptedServer, type ScriptStep } from '../../support/scriptedOpenAiServer';
import { fixtureFilesForSuite, readText, weaveApi, workspaceUri } from '../helpers';

const BUGGY = '  return Math.max(low, value);';
const FIXED = '  return Math.min(high, Math.max(low, value));';
const USER_EDIT = '  return value < low ? low : value;';
const COUNT_OLD = '    this.count = add(this.count, by);';
const COUNT_NEW = '    this.count = add(this.count, Number(by));';

const fixBoth: ScriptStep[] = [
  {
    kind: 'tools',
    calls: [
      { name: 'edit', arguments: { path: 'src/math.js', search: BUGGY, replace: FIXED } },
      { name: 'edit', arguments: { path: 'src/counter.js', search: COUNT_OLD, replace: COUNT_NEW } },
    ],
  },
  { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'clamp and counter.' } }] },
];

suite('agent: a refused Apply keeps the result', () => {
  fixtureFilesForSuite('src/math.js', 'src/counter.js', '.weave/specs.json');
  const math = workspaceUri('src', 'math.js');
  const counter = workspaceUri('src', 'counter.js');

  suiteTeardown(async () => {
    const config = vscode.workspace.getConfiguration('weave.agent');
    for (const key of ['baseUrl', 'model', 'modelReview'])
      await config.update(key, undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('conflict in words, Apply per file, Open patch, then Retry after the edit is reverted', async () => {
    const server = await startScriptedServer({ scripts: [everyConversation(fixBoth)] });
    const config = vscode.workspace.getConfiguration('weave.agent');
    let outcome: AgentRunOutcome | undefined;
    try {
      await config.update('baseUrl', server.baseURL, vscode.ConfigurationTarget.Workspace);
      await config.update('model', 'scripted-model', vscode.ConfigurationTarget.Workspace);
      await config.update('modelReview', false, vscode.ConfigurationTarget.Workspace);
      outcome = await vscode.commands.executeCommand<AgentRunOutcome>('weave.agent.runAll', {});
    } finally {
      await server.close();
    }
    assert.equal(outcome?.decision, 'pending', outcome?.result.error);
    assert.deepEqual([...(outcome?.result.changedFiles ?? [])].sort(), ['src/counter.js', 'src/math.js']);
    const api = await weaveApi();

    // The user edits the very line the agent changed, then presses Apply.
    const original = await readText(math);
    await vscode.workspace.fs.writeFile(math, new TextEncoder().encode(original.replace(BUGGY, USER_EDIT)));
    assert.equal(await vscode.commands.executeCommand('weave.agent.applyResult'), 'conflict');
    const refused = api.agentResults.current();
    assert.equal(refused?.state, 'conflict');
    assert.equal(
      refused?.conflict?.message,
      "The agent's change was not applied: src/math.js conflicts with your edits; nothing was changed. src/counter.js still applies on its own.",
    );
    assert.deepEqual(refused?.conflict?.applicable, ['src/counter.js']);
    assert.doesNotMatch(refused?.html ?? '', /error: patch failed|patch does not apply/);
    for (const label of ['Retry', 'Apply src/counter.js only', 'Open patch', 'Discard'])
      assert.ok(refused?.html.includes(`>${label}</a>`), `the tab offers no "${label}"`);
    assert.ok((await readText(math)).includes(USER_EDIT), "the user's edit was overwritten");
    assert.ok((await readText(counter)).includes(COUNT_OLD), 'a refused Apply changed counter.js');
    assert.ok(api.agentResults.pending, 'the result is no longer pending: Apply/Discard would vanish');

    // Open patch: a read-only diff document, not an Untitled one.
    const patchDoc = await vscode.commands.executeCommand<vscode.TextDocument>('weave.agent.openPatch');
    assert.ok(patchDoc, 'Open patch opened nothing');
    assert.equal(patchDoc.uri.scheme, 'weave');
    assert.ok(!patchDoc.isUntitled);
    assert.equal(patchDoc.languageId, 'diff');
    assert.equal(patchDoc.getText(), outcome?.result.patch);

    // Apply the file that still applies on its own; the other stays pending.
    assert.equal(
      await vscode.commands.executeCommand('weave.agent.applyResult', 'src/counter.js'),
      'applied',
    );
    assert.ok((await readText(counter)).includes(COUNT_NEW), 'counter.js was not applied alone');
    assert.ok((await readText(math)).includes(USER_EDIT));
    const rest = api.agentResults.current();
    assert.equal(rest?.state, 'pending');
    assert.deepEqual(
      rest?.files.map((f) => f.path),
      ['src/math.js'],
    );

    // Revert the edit and Retry: the rest applies, and the specs are re-checked.
    await vscode.workspace.fs.writeFile(math, new TextEncoder().encode(original));
    assert.equal(await vscode.commands.executeCommand('weave.agent.applyResult'), 'applied');
    assert.ok((await readText(math)).includes(FIXED));
    assert.equal(api.agentResults.current()?.state, 'applied');
    assert.equal(api.results.knownResults().results.find((r) => r.id === 'clamp-bounds')?.verdict, 'pass');
  });
});
