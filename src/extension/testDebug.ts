// The Test Explorer's Debug profile: each requested spec's command under VS Code's debugger, one after the other
// (core/check/debugLaunch.ts says how: a `node` launch configuration, or debugpy for Python). A debug session
// gives no verdict (the user may stop anywhere), so the run shows the session's output and end, and the verdict
// stays the Run profile's.
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { debugPlanOf, debugRuntimeOf, type DebugPlan, type PythonDebugSupport } from '../core/check';
import type { SpecStore } from './specStore';
import type { SpecTestTree } from './testTree';
import { UNTRUSTED_REASON } from './trust';

/** What the last Debug profile run did for each spec (for the in-host tests: VS Code keeps no readable record). */
export interface DebugRecord {
  specId: string;
  plan: DebugPlan['kind'];
  /** The message shown when the spec could not be debugged. */
  message?: string;
  /** The debug session's name, when one started. */
  session?: string;
}

/** The Python Debugger extension's debug type, when installed; the interpreter's debugpy module, when importable. */
async function pythonDebugSupport(): Promise<PythonDebugSupport> {
  const debugpyModule = await new Promise<boolean>((resolve) => {
    execFile('python3', ['-c', 'import debugpy'], { timeout: 10_000 }, (error) => resolve(error === null));
  });
  const debugType = vscode.extensions.getExtension('ms-python.debugpy') ? 'debugpy' : undefined;
  return { debugpyModule, debugType };
}

export async function debugSpecs(
  request: vscode.TestRunRequest,
  token: vscode.CancellationToken,
  context: {
    controller: vscode.TestController;
    store: SpecStore;
    tree: SpecTestTree;
    log: vscode.LogOutputChannel;
  },
): Promise<DebugRecord[]> {
  const { controller, store, tree, log } = context;
  const run = controller.createTestRun(request, 'Weave: debug', false);
  const records: DebugRecord[] = [];
  try {
    const loaded = await store.get();
    const specFile = loaded?.result.ok ? loaded.result.specFile : undefined;
    if (!vscode.workspace.isTrusted || !specFile) {
      run.appendOutput(
        `${vscode.workspace.isTrusted ? 'Weave: the spec file is not valid.' : UNTRUSTED_REASON}\r\n`,
      );
      return records;
    }
    const specs = tree.specIdsOf(request).flatMap((id) => specFile.specs.filter((s) => s.id === id));
    const python = specs.some((s) => debugRuntimeOf(s.test.command) === 'python')
      ? await pythonDebugSupport()
      : { debugpyModule: false, debugType: undefined };
    for (const spec of specs) {
      if (token.isCancellationRequested) break;
      const item = tree.specItem(spec.id);
      const plan = debugPlanOf(spec, specFile.defaults, store.folder.uri.fsPath, python);
      if (plan.kind === 'unsupported') {
        log.warn(plan.message);
        if (item) run.errored(item, new vscode.TestMessage(plan.message));
        records.push({ specId: spec.id, plan: plan.kind, message: plan.message });
        void vscode.window.showWarningMessage(plan.message);
        continue;
      }
      if (item) run.started(item);
      const name = String(plan.configuration['name']);
      run.appendOutput(`Weave: debugging ${spec.id}: ${spec.test.command}\r\n`);
      log.info(`debug ${spec.id}: ${plan.runtime} launch of "${spec.test.command}"`);
      const ended = await debugOnce(
        store.folder,
        plan.configuration as vscode.DebugConfiguration,
        run,
        token,
      );
      records.push({ specId: spec.id, plan: plan.kind, ...(ended ? { session: name } : {}) });
      if (!ended) {
        const message = `Weave: the ${plan.runtime} debugger did not start for ${spec.id} (is VS Code's ${plan.runtime === 'node' ? 'JavaScript' : 'Python'} debugger enabled?).`;
        if (item) run.errored(item, new vscode.TestMessage(message));
        void vscode.window.showErrorMessage(message);
      } else {
        run.appendOutput(
          `Weave: the debug session of ${spec.id} ended; run the spec to record a verdict.\r\n`,
        );
      }
    }
    return records;
  } finally {
    run.end();
  }
}

/** Starts one debug session and resolves when it (the top session) ends: true, or false when it did not start. */
async function debugOnce(
  folder: vscode.WorkspaceFolder,
  configuration: vscode.DebugConfiguration,
  run: vscode.TestRun,
  token: vscode.CancellationToken,
): Promise<boolean> {
  let session: vscode.DebugSession | undefined;
  let onEnd: (() => void) | undefined;
  const ended = new Promise<void>((resolve) => (onEnd = resolve));
  const subscriptions = [
    vscode.debug.onDidStartDebugSession((s) => {
      if (!session && !s.parentSession && s.configuration.name === configuration.name) session = s;
    }),
    vscode.debug.onDidTerminateDebugSession((s) => {
      if (s === session) onEnd?.();
    }),
    token.onCancellationRequested(() => {
      if (session) void vscode.debug.stopDebugging(session);
      else onEnd?.();
    }),
  ];
  try {
    const started = await vscode.debug.startDebugging(folder, configuration, { testRun: run });
    if (!started) return false;
    await ended;
    return true;
  } finally {
    for (const s of subscriptions) s.dispose();
  }
}
