// Smaller editor messages (issue #25, item 13): a test command that does not exist is an error diagnostic whose
// message says "not found" once (the reason already quotes the shell), in plain text; "Check affected" says why it
// runs every spec while specs.json has uncommitted changes. specs.json still completes and explains its fields from
// the schema VS Code reads, which no longer validates (Weave's diagnostics are the one report of a schema error).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { addSpec, applyTextEdits } from '../../../src/core/spec/edit';
import type { CheckAttempt } from '../../../src/extension/checks';
import { fixtureFilesForSuite, readText, until, weaveApi, weaveDiagnostics, workspaceUri } from '../helpers';

suite('editor messages', () => {
  fixtureFilesForSuite('.weave/specs.json');
  const specsUri = workspaceUri('.weave', 'specs.json');

  test('a missing test command is one error, its shell message not repeated', async () => {
    const api = await weaveApi();
    const text = await readText(specsUri);
    await vscode.workspace.fs.writeFile(
      specsUri,
      new TextEncoder().encode(
        applyTextEdits(
          text,
          addSpec(text, {
            id: 'shop-lint',
            title: 'the shop lints clean',
            kind: 'reliability',
            statement: 'The shop shall lint clean.',
            test: { command: 'shoplint check', files: [] },
            anchors: ['src/math.js#add'],
          }),
        ),
      ),
    );
    // An open specs.json editor follows the file on disk a moment later: reload until the store has the spec.
    await until('the new spec to load', async () => {
      const loaded = await api.store.reload();
      return (
        (loaded.result.ok && loaded.result.specFile.specs.some((s) => s.id === 'shop-lint')) || undefined
      );
    });
    const result = await vscode.commands.executeCommand<CheckAttempt>('weave.check', { only: ['shop-lint'] });
    assert.ok(result.ran, result.ran ? '' : result.message);
    assert.equal(result.outcome.run.results[0]?.verdict, 'error');
    const math = workspaceUri('src', 'math.js');
    const diagnostic = await until('the shop-lint diagnostic', () =>
      weaveDiagnostics(math).find((d) => d.code === 'shop-lint'),
    );
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error, diagnostic.message);
    assert.equal(diagnostic.message.match(/shoplint: not found/g)?.length, 1, diagnostic.message);
    assert.match(
      diagnostic.message,
      /^\[shop-lint\] the shop lints clean — .*command not found \(exit 127\)/,
    );
  });

  test('specs.json completes a spec’s kind and explains its fields from the contributed schema', async () => {
    const document = await vscode.workspace.openTextDocument(specsUri);
    await vscode.window.showTextDocument(document);
    const kindValue = document.getText().indexOf('"kind": "') + '"kind": "'.length;
    assert.ok(kindValue > '"kind": "'.length, 'no kind in the fixture');
    // The JSON language server starts with the document: ask again until its schema answers.
    const labels = await until('kind completions from the schema', async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        document.uri,
        document.positionAt(kindValue),
      );
      const found = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      return found.includes('"security"') ? found : undefined;
    });
    for (const kind of ['functional', 'interface', 'performance', 'reliability', 'compatibility'])
      assert.ok(labels.includes(`"${kind}"`), `"${kind}" not offered: ${labels.join(', ')}`);
    const anchorsKey = document.getText().indexOf('"anchors"') + 2;
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      document.positionAt(anchorsKey),
    );
    const hoverText = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(hoverText, /Code this spec is about/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('"Check affected" with uncommitted changes to specs.json says why every spec runs', async () => {
    const text = await readText(specsUri);
    // A comment is a change git sees; the specs stay what they were.
    await vscode.workspace.fs.writeFile(specsUri, new TextEncoder().encode(`// reviewed\n${text}`));
    const result = await vscode.commands.executeCommand<CheckAttempt>('weave.checkAffected');
    assert.ok(result.ran, result.ran ? '' : result.message);
    assert.deepEqual(
      result.outcome.run.specIds,
      result.outcome.specFile.specs.map((s) => s.id),
    );
    assert.match(
      result.note ?? '',
      /^Check affected runs all \d+ specs: \.weave\/specs\.json has uncommitted changes: the specs themselves may have changed\.$/,
    );
  });
});
