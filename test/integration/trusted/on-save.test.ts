// Re-checking on save: the Test Explorer's continuous run and the `weave.checkOnSave` setting both re-check
// only the specs the saved file affects (intel's import-cone selection).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  editAndSave,
  fixtureFilesForSuite,
  until,
  weaveApi,
  weaveDiagnostics,
  workspaceUri,
} from '../helpers';

const counter = workspaceUri('src', 'counter.js');
const math = workspaceUri('src', 'math.js');

suite('re-check on save', () => {
  fixtureFilesForSuite('src/math.js', 'src/counter.js');
  test('a continuous test run re-checks the specs affected by a saved file, and only those', async () => {
    const api = await weaveApi();
    const before = api.testResults().finishedRuns;
    const cancel = new vscode.CancellationTokenSource();
    const request = new vscode.TestRunRequest(undefined, undefined, api.runProfile, true);
    const continuous = api.runProfile.runHandler(request, cancel.token);
    try {
      await editAndSave(counter, 'this.count = 0;', 'this.count = 0; // start at zero');
      await until(
        'a continuous run',
        () => (api.testResults().finishedRuns > before ? true : undefined),
        60_000,
      );
      const states = api.testResults().states;
      assert.equal(states.get('counter-increments'), 'passed');
      assert.equal(states.has('clamp-bounds'), false, 'clamp-bounds does not load counter.js');
    } finally {
      cancel.cancel();
      await continuous;
      cancel.dispose();
      await editAndSave(counter, 'this.count = 0; // start at zero', 'this.count = 0;');
    }
  });

  test('with weave.checkOnSave, saving a file re-checks the affected specs and updates diagnostics', async () => {
    const api = await weaveApi();
    const config = vscode.workspace.getConfiguration('weave');
    await config.update('checkOnSave', true, vscode.ConfigurationTarget.Global);
    try {
      const previous = api.lastRun()?.run.id;
      await editAndSave(math, 'function add(a, b) {', 'function add(a, b) { // sums');
      const outcome = await until(
        'a check on save',
        () => (api.lastRun() && api.lastRun()?.run.id !== previous ? api.lastRun() : undefined),
        60_000,
      );
      assert.ok(outcome.run.specIds.includes('clamp-bounds'));
      assert.ok(weaveDiagnostics(math).some((d) => d.code === 'clamp-bounds'));
    } finally {
      await config.update('checkOnSave', undefined, vscode.ConfigurationTarget.Global);
      await editAndSave(math, 'function add(a, b) { // sums', 'function add(a, b) {');
    }
  });
});
