// The one command table: every `weave.*` command the manifest contributes, and what it does. Commands return
// a value (e.g. the CheckAttempt) so the side panel and the in-host tests can drive them like a person would.
import type { AffectedResult } from '../core/selection/affected';
import * as vscode from 'vscode';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { AffectedSelector } from './affected';
import type { AuditArgs, AuditController } from './audit/auditController';
import type { DraftArgs, DraftController } from './draft/draftController';
import {
  APPLY_RESULT_COMMAND,
  DISCARD_RESULT_COMMAND,
  SHOW_CHANGES_COMMAND,
} from '../core/agent/agentResultHtml';
import type { AgentResultView } from './agent/agentResultView';
import type { CheckAttempt, CheckService } from './checks';
import { countResults, statusText } from '../core/check/resultText';
import { EXPLAIN_COMMAND } from './explainBroken';
import { detectTestRunner, starterSpecText } from '../core/spec/starter';
import { newSpecSnippet } from './specTemplates';
import type { ResultsStore } from './results';
import type { SpecStore } from './specStore';
import { explainUntrusted } from './trust';

export interface CommandContext {
  store: SpecStore;
  checks: CheckService;
  results: ResultsStore;
  affected: AffectedSelector;
  audit: AuditController;
  draft: DraftController;
  log: vscode.LogOutputChannel;
  /** Runs blame for a spec and shows the breaking edits (explainBroken.ts). */
  explain(specId: unknown): Promise<unknown>;
  agentResults: AgentResultView;
}

/** Commands contributed by the side panel (src/extension/panel), used when it is there. */
const PANEL_NEW_SPEC = 'weave.panel.newSpec';
const PANEL_SHOW_GRAPH = 'weave.panel.showGraph';

type CommandHandler = (ctx: CommandContext, ...args: unknown[]) => unknown;

export const commandTable: Readonly<Record<string, CommandHandler>> = {
  'weave.check': (ctx, args) => runCheck(ctx, { ...onlyFrom(args) }),
  'weave.checkAffected': checkAffected,
  'weave.newSpec': newSpec,
  'weave.showGraph': showGraph,
  'weave.init': initSpecs,
  'weave.showOutput': (ctx) => ctx.log.show(true),
  'weave.audit': (ctx, args) => ctx.audit.run(objectArg<AuditArgs>(args)),
  'weave.draft': (ctx, args) => ctx.draft.run(objectArg<DraftArgs>(args)),
  [EXPLAIN_COMMAND]: (ctx, specId) => ctx.explain(specId),
  [APPLY_RESULT_COMMAND]: (ctx) => ctx.agentResults.apply(),
  [DISCARD_RESULT_COMMAND]: (ctx) => ctx.agentResults.discard(),
  [SHOW_CHANGES_COMMAND]: (ctx, path) => ctx.agentResults.showChanges(path),
};

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return Object.entries(commandTable).map(([id, handler]) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => handler(ctx, ...args)),
  );
}

/** Scripts and tests may pass an options object; the palette passes nothing (or a URI from a menu). */
function objectArg<T>(args: unknown): T | undefined {
  return typeof args === 'object' && args !== null && !(args instanceof vscode.Uri) ? (args as T) : undefined;
}

/** `weave.check` accepts `{ only: ['spec-id', …] }` (the panel's "check one" button). */
function onlyFrom(args: unknown): { only?: string[] } {
  if (typeof args !== 'object' || args === null || !('only' in args)) return {};
  const only = (args as { only: unknown }).only;
  return Array.isArray(only) && only.every((x) => typeof x === 'string') ? { only } : {};
}

async function runCheck(
  ctx: CommandContext,
  request: { only?: string[]; label?: string },
): Promise<CheckAttempt> {
  if (!(await ctx.store.exists())) {
    void initOffer(ctx);
    return { ran: false, reason: 'nothing-to-run', message: 'This folder has no .weave/specs.json yet.' };
  }
  const result = await ctx.checks.check(request);
  if (!result.ran) {
    if (result.reason === 'untrusted') void explainUntrusted();
    else if (result.reason === 'invalid-specs') void showProblemsOffer(result.message);
    else if (result.reason === 'unsaved-specs') void saveSpecsOffer(ctx, result.message, request);
    else if (result.reason === 'failed') void showOutputOffer(ctx, result.message);
    return result;
  }
  const counts = countResults(result.outcome.run.results, result.outcome.report);
  const text = statusText(counts);
  // Routine results go to the status bar. A toast (never modal) only for news: a spec that passed in the
  // baseline and fails now, which was not broken at the previous check. A spec that was already failing
  // stays in Problems and the status bar without a new notification every time.
  if (result.newlyBroken.length > 0) void brokenOffer(ctx, result.newlyBroken);
  else
    vscode.window.setStatusBarMessage(
      counts.failing > 0 ? `${text} (see Problems)` : `${text} — all checked specs pass`,
      5000,
    );
  return result;
}

/** The one notification a check raises: specs that passed in the baseline and are broken now (and were not before). */
export async function brokenOffer(ctx: Pick<CommandContext, 'log'>, specIds: string[]): Promise<void> {
  const explain = 'Explain why';
  const problems = 'Show Problems';
  const names = specIds.map((id) => `'${id}'`).join(', ');
  const picked = await vscode.window.showWarningMessage(
    `Weave: ${names} ${specIds.length === 1 ? 'passed in the baseline and is broken now' : 'passed in the baseline and are broken now'}.`,
    explain,
    problems,
  );
  if (picked === explain) await vscode.commands.executeCommand(EXPLAIN_COMMAND, specIds[0]);
  if (picked === problems) await vscode.commands.executeCommand('workbench.actions.view.problems');
  ctx.log.info(`newly broken: ${specIds.join(', ')}`);
}

async function initOffer(ctx: CommandContext): Promise<void> {
  const init = 'Init specs';
  const picked = await vscode.window.showInformationMessage(
    'Weave: this folder has no .weave/specs.json yet. Create one (the test runner is detected)?',
    init,
  );
  if (picked === init) await initSpecs(ctx);
}

async function checkAffected(ctx: CommandContext): Promise<CheckAttempt> {
  if (!vscode.workspace.isTrusted) return runCheck(ctx, {});
  let files: string[];
  let specIds: string[];
  let selection: AffectedResult;
  try {
    ({ files, specIds, selection } = await ctx.affected.affectedByWorkingTreeChanges());
  } catch (e) {
    // Typically: the folder is not in a git repository, so there is no "changed since HEAD".
    const message = `Weave: cannot tell which specs are affected: ${e instanceof Error ? e.message : String(e)}`;
    ctx.log.warn(message);
    void showOutputOffer(ctx, message);
    return { ran: false, reason: 'failed', message };
  }
  // A spec failing at the last check is re-checked too: the change that broke it may just have been
  // reverted, and then no changed file points at it any more (its verdict would stay stale).
  const violated = ctx.results.violatedIds().filter((id) => !specIds.includes(id));
  ctx.log.info(
    `affected by ${files.length} changed file${files.length === 1 ? '' : 's'}: ${specIds.join(', ') || 'no spec'}` +
      (violated.length > 0 ? `; failing at the last check: ${violated.join(', ')}` : ''),
  );
  // Which changed functions selected which spec (coverage first, import cones after), and what is skipped.
  for (const spec of selection.affected) ctx.log.info(`  ${spec.id}: ${spec.reasons.join('; ')}`);
  if (selection.unaffected.length > 0)
    ctx.log.info(`  not run (no change reaches them): ${selection.unaffected.join(', ')}`);
  const toCheck = [...specIds, ...violated];
  if (toCheck.length === 0) {
    vscode.window.setStatusBarMessage(
      `Weave: no spec is affected by the ${files.length} changed file${files.length === 1 ? '' : 's'}`,
      5000,
    );
    return { ran: false, reason: 'nothing-to-run', message: 'No spec is affected by the changed files.' };
  }
  const skipped = selection.unaffected.length > 0 ? `, ${selection.unaffected.length} skipped` : '';
  return runCheck(ctx, {
    only: toCheck,
    label: `${toCheck.length} affected spec${toCheck.length === 1 ? '' : 's'}${skipped}`,
  });
}

async function showProblemsOffer(message: string): Promise<void> {
  const show = 'Show Problems';
  if ((await vscode.window.showWarningMessage(message, show)) === show) {
    await vscode.commands.executeCommand('workbench.actions.view.problems');
  }
}

async function saveSpecsOffer(
  ctx: CommandContext,
  message: string,
  request: { only?: string[]; label?: string },
): Promise<void> {
  const save = 'Save and Check';
  if ((await vscode.window.showWarningMessage(`Weave: ${message}`, save)) !== save) return;
  const doc = vscode.workspace.textDocuments.find((d) => ctx.store.isSpecsDocument(d));
  if (doc && (await doc.save())) await runCheck(ctx, request);
}

async function showOutputOffer(ctx: CommandContext, message: string): Promise<void> {
  const show = 'Show Output';
  if ((await vscode.window.showErrorMessage(message, show)) === show) ctx.log.show(true);
}

async function panelCommand(id: string): Promise<boolean> {
  return (await vscode.commands.getCommands(true)).includes(id);
}

async function newSpec(ctx: CommandContext): Promise<void> {
  if (await panelCommand(PANEL_NEW_SPEC)) {
    await vscode.commands.executeCommand(PANEL_NEW_SPEC);
    return;
  }
  if (!(await ctx.store.exists())) await initSpecs(ctx);
  const doc = await vscode.workspace.openTextDocument(ctx.store.specsUri);
  const editor = await vscode.window.showTextDocument(doc);
  const specs = findNodeAtLocation(parseTree(doc.getText()) ?? { type: 'null', offset: 0, length: 0 }, [
    'specs',
  ]);
  if (specs?.type !== 'array') {
    void vscode.window.showWarningMessage('Weave: .weave/specs.json has no "specs" array to add to.');
    return;
  }
  const last = specs.children?.at(-1);
  const insertAt = last ? last.offset + last.length : specs.offset + 1;
  await editor.insertSnippet(newSpecSnippet(last !== undefined), doc.positionAt(insertAt));
}

/** Opens the spec graph in an editor tab (the same ELK layout as the side panel's, as large as the editor). */
async function showGraph(ctx: CommandContext): Promise<vscode.WebviewPanel | undefined> {
  if (!(await ctx.store.exists())) {
    void initOffer(ctx);
    return undefined;
  }
  const loaded = await ctx.store.get();
  if (!loaded.result.ok && !ctx.store.valid) {
    void showProblemsOffer('Weave: .weave/specs.json has problems; fix them to see the graph.');
    return undefined;
  }
  return vscode.commands.executeCommand<vscode.WebviewPanel>(PANEL_SHOW_GRAPH);
}

async function initSpecs(ctx: CommandContext): Promise<void> {
  if (await ctx.store.exists()) {
    await vscode.window.showTextDocument(ctx.store.specsUri);
    vscode.window.setStatusBarMessage('Weave: .weave/specs.json already exists', 5000);
    return;
  }
  const runner = await detectTestRunner(ctx.store.folder.uri.fsPath);
  await vscode.workspace.fs.writeFile(ctx.store.specsUri, new TextEncoder().encode(starterSpecText(runner)));
  ctx.log.info(`created ${ctx.store.specsUri.fsPath}`);
  await vscode.window.showTextDocument(ctx.store.specsUri);
}
