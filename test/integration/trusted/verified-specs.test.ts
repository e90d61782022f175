// Verified specs in the real extension host: "Weave: audit specs" shows the change a weak spec misses as an
// information diagnostic at its location, and "Weave: draft specs" talks to the scripted OpenAI-protocol server,
// verifies the proposal and writes it into specs.json only when accepted.
import assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { AuditReport } from '../../../src/core/audit/types';
import { addSpec, applyTextEdits } from '../../../src/core/spec/edit';
import type { DraftOutcome } from '../../../src/extension/draft/draftController';
import { everyConversation, startScriptedServer } from '../../support/scriptedOpenAiServer';
import { fixtureFilesForSuite, readText, until, weaveApi, workspaceUri } from '../helpers';

const specsUri = workspaceUri('.weave', 'specs.json');

function untitledNow(): string[] {
  return vscode.workspace.textDocuments.filter((d) => d.isUntitled).map((d) => d.uri.toString());
}

/**
 * Runs `fn` with weave.agent pointed at a scripted model that proposes `proposal` (a propose_spec call's
 * arguments) in every conversation and then finishes; the settings are reset and the server closed after.
 */
async function withProposingModel(proposal: Record<string, unknown>, fn: () => Promise<void>): Promise<void> {
  const server = await startScriptedServer({
    scripts: [
      everyConversation([
        { kind: 'tools', calls: [{ name: 'propose_spec', arguments: proposal }] },
        { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'one spec' } }] },
      ]),
    ],
  });
  const config = vscode.workspace.getConfiguration('weave.agent');
  try {
    await config.update('baseUrl', server.baseURL, vscode.ConfigurationTarget.Workspace);
    await config.update('model', 'scripted-model', vscode.ConfigurationTarget.Workspace);
    await config.update('modelReview', false, vscode.ConfigurationTarget.Workspace);
    await fn();
  } finally {
    for (const key of ['baseUrl', 'model', 'modelReview'])
      await config.update(key, undefined, vscode.ConfigurationTarget.Workspace);
    await server.close();
  }
}

async function addWeakSpec(): Promise<void> {
  await vscode.workspace.fs.writeFile(
    workspaceUri('test', 'weak-add.test.js'),
    new TextEncoder().encode(
      "const test = require('node:test');\nconst assert = require('node:assert/strict');\nconst { add } = require('../src/math');\n" +
        "test('add is exported', () => assert.equal(typeof add, 'function'));\n",
    ),
  );
  const text = await readText(specsUri);
  const updated = applyTextEdits(
    text,
    addSpec(text, {
      id: 'weak-add',
      title: 'add is exported',
      kind: 'interface',
      statement: 'The math module shall export add.',
      test: { command: 'node --test test/weak-add.test.js', files: ['test/weak-add.test.js'] },
      anchors: ['src/math.js#add'],
    }),
  );
  await vscode.workspace.fs.writeFile(specsUri, new TextEncoder().encode(updated));
}

suite('verified specs: audit and draft', () => {
  fixtureFilesForSuite('src/math.js', '.weave/specs.json', 'test/weak-add.test.js', 'test/drafts');
  test('the audit marks a weak spec vacuous and shows the hole where the code is', async () => {
    await addWeakSpec();
    const report = await vscode.commands.executeCommand<AuditReport | undefined>('weave.audit', {
      only: ['weak-add'],
      maxMutants: 10,
    });
    assert.ok(report, 'weave.audit returned nothing');
    assert.equal(report.specs.length, 1);
    assert.equal(report.specs[0]!.vacuous, true, JSON.stringify(report.specs[0]));
    const math = workspaceUri('src', 'math.js');
    const line = (await readText(math)).split('\n').findIndex((l) => l.includes('return a + b;'));
    const hole = await until('the hole diagnostic', () =>
      vscode.languages
        .getDiagnostics(math)
        .find(
          (d) =>
            d.source === 'weave audit' && d.range.start.line === line && /‘\+’ becomes ‘-’/.test(d.message),
        ),
    );
    assert.equal(hole.severity, vscode.DiagnosticSeverity.Information);
    assert.match(hole.message, /^No spec notices if ‘\+’ becomes ‘-’ here/);
    assert.doesNotMatch(hole.message, /`/, 'raw Markdown backticks in a plain-text diagnostic');
  });

  test('draft verifies a proposal with the scripted model and writes it only when accepted', async () => {
    const testFile = 'test/drafts/add-sums.test.js';
    const content =
      "const test = require('node:test');\nconst assert = require('node:assert/strict');\nconst { add } = require('../../src/math');\n" +
      "test('2 + 3 is 5', () => assert.equal(add(2, 3), 5));\n";
    await withProposingModel(
      {
        spec: {
          id: 'add-sums-two',
          title: 'add sums two numbers',
          kind: 'functional',
          statement: 'Given 2 and 3, add shall return 5.',
          test: { command: `node --test ${testFile}`, files: [testFile] },
          anchors: ['src/math.js#add'],
        },
        testFiles: [{ path: testFile, content }],
      },
      async () => {
        const before = await readText(specsUri);
        const untitledBefore = untitledNow();
        const rejected = await vscode.commands.executeCommand<DraftOutcome>('weave.draft', {
          accept: 'none',
        });
        assert.ok(rejected, 'weave.draft returned nothing');
        assert.deepEqual(
          rejected.result.kept.map((k) => k.spec.id),
          ['add-sums-two'],
          JSON.stringify(rejected.result.rejected),
        );
        assert.equal(await readText(specsUri), before, 'specs.json changed without accept');
        await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(workspaceUri(testFile))));
        // The review is a result tab like the agent's, not an Untitled document that asks to be saved on close.
        assert.deepEqual(untitledBefore, untitledNow(), 'weave.draft opened an Untitled document');
        assert.equal(rejected.state, 'rejected');
        const shown = (await weaveApi()).draftResults.current();
        assert.ok(shown?.open, 'no draft result tab');
        assert.match(shown.html, /Rejected: <code>\.weave\/specs\.json<\/code> and your files are unchanged/);
        const tab = vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find(
            (t) =>
              t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('weave.draft.result'),
          );
        assert.ok(tab, 'the draft result tab is not among the editor tabs');
        assert.match(tab.label, /^Weave: drafted specs /);
      },
    );
  });

  test('accepting a draft appends it to specs.json and writes its test file', async () => {
    await withProposingModel(
      {
        spec: {
          id: 'add-negative',
          title: 'add handles negatives',
          kind: 'functional',
          statement: 'Given -2 and 5, add shall return 3.',
          test: {
            command: 'node --test test/drafts/add-negative.test.js',
            files: ['test/drafts/add-negative.test.js'],
          },
          anchors: ['src/math.js#add'],
        },
        testFiles: [
          {
            path: 'test/drafts/add-negative.test.js',
            content:
              "const test = require('node:test');\nconst assert = require('node:assert/strict');\nconst { add } = require('../../src/math');\n" +
              "test('-2 + 5 is 3', () => assert.equal(add(-2, 5), 3));\n",
          },
        ],
      },
      async () => {
        // Left in the tab (as when the QuickPick is dismissed), then accepted from it.
        const outcome = await vscode.commands.executeCommand<DraftOutcome>('weave.draft', {
          accept: 'later',
        });
        assert.equal(outcome.state, 'pending', JSON.stringify(outcome.result.rejected));
        assert.deepEqual(outcome.accepted, []);
        const api = await weaveApi();
        assert.match(api.draftResults.current()?.html ?? '', />Accept all \(1\)<\/a>/);
        const accepted = await vscode.commands.executeCommand<string[]>('weave.draft.accept', [
          'add-negative',
        ]);
        assert.deepEqual(accepted, ['add-negative']);
        assert.equal(api.draftResults.current()?.state, 'accepted');
        const ids = (parse(await readText(specsUri)) as { specs: Array<{ id: string }> }).specs.map(
          (s) => s.id,
        );
        assert.ok(ids.includes('add-negative'), ids.join(', '));
        assert.match(await readText(workspaceUri('test', 'drafts', 'add-negative.test.js')), /-2 \+ 5 is 3/);
      },
    );
  });
});
