// The Test Explorer's Debug profile (issue #25, item 14): a Node spec's own command runs under VS Code's JavaScript
// debugger and stops at a breakpoint in the code under test (src/math.js, loaded by the `node --test` child); a
// Python spec says clearly what is missing when debugpy is not installed.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { addSpec, applyTextEdits } from '../../../src/core/spec/edit';
import { fixtureFilesForSuite, lineOf, readText, until, weaveApi, workspaceUri } from '../helpers';

interface Stop {
  reason: string;
  path: string | undefined;
  line: number | undefined;
}

suite('Test Explorer: Debug profile', () => {
  fixtureFilesForSuite('src/math.js', '.weave/specs.json');
  const math = workspaceUri('src', 'math.js');

  test('a Node spec runs under the debugger and stops at a breakpoint in the code under test', async () => {
    const api = await weaveApi();
    await api.testController.resolveHandler?.(undefined);
    const item = api.testController.items.get('kind:functional')?.children.get('add-works');
    assert.ok(item, 'no Test Explorer item for add-works');
    const line = await lineOf(math, 'return a + b;');
    const breakpoint = new vscode.SourceBreakpoint(new vscode.Location(math, new vscode.Position(line, 0)));
    vscode.debug.addBreakpoints([breakpoint]);
    const stops: Stop[] = [];
    const tracker = vscode.debug.registerDebugAdapterTrackerFactory('*', {
      createDebugAdapterTracker: (session) => ({
        onDidSendMessage: (m: {
          type?: string;
          event?: string;
          body?: { reason?: string; threadId?: number };
        }) => {
          if (m.type !== 'event' || m.event !== 'stopped') return;
          const threadId = m.body?.threadId ?? 0;
          void (async () => {
            const trace = (await session.customRequest('stackTrace', { threadId, levels: 1 })) as {
              stackFrames: Array<{ source?: { path?: string }; line?: number }>;
            };
            const top = trace.stackFrames[0];
            stops.push({ reason: m.body?.reason ?? '', path: top?.source?.path, line: top?.line });
            await session.customRequest('continue', { threadId });
          })();
        },
      }),
    });
    try {
      const request = new vscode.TestRunRequest([item], undefined, api.debugProfile);
      await api.debugProfile.runHandler(request, new vscode.CancellationTokenSource().token);
      assert.deepEqual(api.lastDebug(), [
        { specId: 'add-works', plan: 'launch', session: 'Weave: debug add-works' },
      ]);
      const hit = await until('the breakpoint stop', () =>
        stops.find((s) => s.reason === 'breakpoint' && s.path?.endsWith('/src/math.js')),
      );
      assert.equal(hit.line, line + 1, JSON.stringify(stops));
    } finally {
      tracker.dispose();
      vscode.debug.removeBreakpoints([breakpoint]);
    }
  });

  test('a Python spec without debugpy says what is missing instead of running plainly', async () => {
    const api = await weaveApi();
    const specsUri = workspaceUri('.weave', 'specs.json');
    const text = await readText(specsUri);
    const updated = applyTextEdits(
      text,
      addSpec(text, {
        id: 'py-check',
        title: 'a Python check',
        kind: 'functional',
        statement: 'The Python check shall pass.',
        test: { command: 'python3 -m pytest test/test_py.py', files: [] },
        anchors: [],
      }),
    );
    await vscode.workspace.fs.writeFile(specsUri, new TextEncoder().encode(updated));
    await api.testController.refreshHandler?.(new vscode.CancellationTokenSource().token);
    const item = await until('the py-check item', () =>
      api.testController.items.get('kind:functional')?.children.get('py-check'),
    );
    const request = new vscode.TestRunRequest([item], undefined, api.debugProfile);
    await api.debugProfile.runHandler(request, new vscode.CancellationTokenSource().token);
    const [record] = api.lastDebug();
    assert.equal(record?.plan, 'unsupported');
    if (vscode.extensions.getExtension('ms-python.debugpy')) return; // a host with Python debugging: covered above
    assert.match(
      record?.message ?? '',
      /^Weave: debugging the Python spec py-check needs (the debugpy module \(python3 -m pip install debugpy\) and )?the Python Debugger extension \(ms-python\.debugpy\); not installed here\. Run it with the Run profile instead\.$/,
    );
  });
});
