// The side panel's spec edits in the real extension host: messages shaped exactly as the webview posts them
// pass the protocol's validation and land in .weave/specs.json as WorkspaceEdits — saved, comments kept,
// undoable — and the extension's spec store picks them up. (The UI path through the webview itself is
// covered by test/vscode/e2e.ts.)
import assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import { SpecEditError } from '../../../src/core/spec/specEdits';
import { applySpecEditMessage, type SpecEditMessage } from '../../../src/extension/panel/specFileEdits';
import { parseToExtension } from '../../../src/shared/protocol';
import { editAndSave, fixtureFilesForSuite, readText, until, weaveApi, workspaceUri } from '../helpers';

const COMMENT = '// This comment must survive the panel’s edits.';
const NEW_SPEC = {
  id: 'panel-added',
  title: 'Added from the panel',
  kind: 'functional',
  statement: 'When the panel adds a spec, it shall be in specs.json.',
  test: { command: 'node --test test/add.test.js', files: ['test/add.test.js'] },
  anchors: ['src/math.js#add'],
  dependsOn: ['add-works'],
  interactsWith: [],
};

function message(raw: unknown): SpecEditMessage {
  const parsed = parseToExtension(raw);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  const m = parsed.message;
  assert.ok(m.type === 'addSpec' || m.type === 'updateSpec' || m.type === 'removeSpec', m.type);
  return m;
}

async function specsOnDisk(): Promise<Array<{ id: string; dependsOn: string[]; interactsWith: string[] }>> {
  const root = parse(await readText(workspaceUri('.weave', 'specs.json'))) as { specs: [] };
  return root.specs;
}

suite('side panel edits of specs.json', () => {
  fixtureFilesForSuite('.weave/specs.json');
  suiteSetup(async () => {
    await editAndSave(workspaceUri('.weave', 'specs.json'), '"version": 1,', `${COMMENT}\n  "version": 1,`);
  });

  test('adding a spec saves it to disk with the comments kept, and the spec store reloads it', async () => {
    const api = await weaveApi();
    const file = workspaceUri('.weave', 'specs.json');
    await applySpecEditMessage(message({ type: 'addSpec', requestId: 1, spec: NEW_SPEC }), file);
    const text = await readText(file);
    assert.ok(text.includes(COMMENT), 'the comment was lost');
    assert.deepEqual(
      (await specsOnDisk()).find((s) => s.id === NEW_SPEC.id),
      NEW_SPEC,
    );
    const document = await vscode.workspace.openTextDocument(file);
    assert.equal(document.isDirty, false, 'specs.json was not saved');
    await until('the store to load the new spec', () =>
      api.store.valid?.result.ok && api.store.valid.result.specFile.specs.some((s) => s.id === NEW_SPEC.id)
        ? true
        : undefined,
    );
  });

  test('the edit is undoable like any other edit of the document', async () => {
    const file = workspaceUri('.weave', 'specs.json');
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
    const before = document.getText();
    await applySpecEditMessage(message({ type: 'removeSpec', requestId: 2, id: NEW_SPEC.id }), file);
    assert.equal(document.getText().includes(`"${NEW_SPEC.id}"`), false);
    await vscode.commands.executeCommand('undo');
    await until('undo to bring the spec back', () => (document.getText() === before ? true : undefined));
    assert.ok(await document.save());
  });

  test('renaming a spec renames the references to it; removing it removes them', async () => {
    const file = workspaceUri('.weave', 'specs.json');
    const renamed = { ...NEW_SPEC, id: 'add-works-renamed', dependsOn: [] };
    const original = (await specsOnDisk()).find((s) => s.id === 'add-works');
    assert.ok(original);
    await applySpecEditMessage(
      message({ type: 'updateSpec', requestId: 3, id: 'add-works', spec: { ...original, id: renamed.id } }),
      file,
    );
    let specs = await specsOnDisk();
    assert.equal(
      specs.some((s) => s.id === 'add-works'),
      false,
    );
    assert.ok(specs.find((s) => s.id === NEW_SPEC.id)?.dependsOn.includes(renamed.id));
    await applySpecEditMessage(message({ type: 'removeSpec', requestId: 4, id: renamed.id }), file);
    specs = await specsOnDisk();
    assert.equal(
      specs.some((s) => s.id === renamed.id),
      false,
    );
    for (const spec of specs) {
      assert.equal([...spec.dependsOn, ...spec.interactsWith].includes(renamed.id), false, spec.id);
    }
    assert.ok((await readText(file)).includes(COMMENT));
  });

  test('an edit that would break the file is refused and leaves it untouched', async () => {
    const file = workspaceUri('.weave', 'specs.json');
    const before = await readText(file);
    await assert.rejects(
      applySpecEditMessage(
        message({ type: 'addSpec', requestId: 5, spec: { ...NEW_SPEC, dependsOn: ['nope'] } }),
        file,
      ),
      (e: unknown) => e instanceof SpecEditError && /unknown spec id "nope"/.test(e.message),
    );
    await assert.rejects(
      applySpecEditMessage(message({ type: 'addSpec', requestId: 6, spec: NEW_SPEC }), file),
      (e: unknown) => e instanceof SpecEditError && /already has the id/.test(e.message),
    );
    assert.equal(await readText(file), before);
  });
});
