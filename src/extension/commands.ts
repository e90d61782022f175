// Registers the command table (commandTable.ts: ids, titles, what each needs) and says what each command does.
// Before a handler runs, the entry's requirements are checked in order; a missing one is explained (open a
// folder; init specs; trust the folder) and the command returns what it returns when it did not run. Commands
// return a value (e.g. the CheckAttempt) so the side panel and the in-host tests can drive them like a person would.
import type { AffectedResult } from '../core/selection/affected';
import * as vscode from 'vscode';
import type { AffectedSelector } from './affected';
import {
  runAll,
  runCandidatesCommand,
  stopAgentRuns,
  setApiKey,
  showMatrix,
  type AgentCommandDeps,
  type RunAllArgs,
  type RunCandidatesArgs,
} from './agent/agentCommands';
import type { CandidatesView } from './agent/candidatesView';
import type { AuditArgs, AuditController } from './audit/auditController';
import type { DraftArgs, DraftController } from './draft/draftController';
import type { CheckAttempt, CheckService } from './checks';
import { COMMANDS, MISSING, type CommandId, type Requirement } from './commandTable';
import { exportCommand } from './exportTask';
import { countResults, hasFailures, statusText } from './views/resultText';
import { EXPLAIN_COMMAND } from './explainBroken';
import { detectTestRunner, starterSpecText } from '../core/spec';
import type { SpecsPanel } from './panel';
import type { ResultsStore } from './results';
import type { SpecStore } from './specStore';
import { explainUntrusted } from './trust';

/** What every command can use, with or without a folder. */
export interface FolderlessContext {
  log: vscode.LogOutputChannel;
}

/** What the commands use once activation chose a folder (workspaceFolder.ts). */
export interface CommandContext extends FolderlessContext {
  extension: vscode.ExtensionContext;
  store: SpecStore;
  checks: CheckService;
  results: ResultsStore;
  affected: AffectedSelector;
  audit: AuditController;
  draft: DraftController;
  panel: SpecsPanel;
  /** Runs blame for a spec and shows the breaking edits (explainBroken.ts). */
  explain(specId: unknown): Promise<unknown>;
  agentResults: AgentCommandDeps['results'];
  candidateResults: CandidatesView;
}

/** The commands whose table entry needs nothing, not even a folder. */
type FolderlessId = Extract<(typeof COMMANDS)[number], { needs: readonly [] }>['id'];

const folderless: Readonly<Record<FolderlessId, (ctx: FolderlessContext) => unknown>> = {
  'weave.showOutput': (ctx) => ctx.log.show(true),
};

function isFolderless(id: CommandId): id is FolderlessId {
  return Object.hasOwn(folderless, id);
}

/** What each command does when it may run. */
const handlers: Readonly<
  Record<Exclude<CommandId, FolderlessId>, (ctx: CommandContext, ...args: unknown[]) => unknown>
> = {
  'weave.check': (ctx, args) => runCheck(ctx, { ...onlyFrom(args) }),
  'weave.checkAffected': checkAffected,
  'weave.explainBroken': (ctx, specId) => ctx.explain(specId),
  'weave.newSpec': (ctx) => ctx.panel.showNewSpecForm(),
  'weave.showGraph': showGraph,
  'weave.init': initSpecs,
  'weave.audit': (ctx, args) => ctx.audit.run(objectArg<AuditArgs>(args)),
  'weave.draft': (ctx, args) => ctx.draft.run(objectArg<DraftArgs>(args)),
  'weave.draft.accept': (ctx, answer) => ctx.draft.accept(answer),
  'weave.draft.reject': (ctx) => ctx.draft.reject(),
  'weave.export': (ctx, args) => exportCommand({ folder: ctx.store.folder, log: ctx.log }, args),
  'weave.agent.runAll': (ctx, args) => runAll(ctx.extension, agentDeps(ctx), objectArg<RunAllArgs>(args)),
  'weave.agent.runCandidates': (ctx, args) =>
    runCandidatesCommand(
      ctx.extension,
      { ...agentDeps(ctx), candidates: ctx.candidateResults },
      objectArg<RunCandidatesArgs>(args),
    ),
  'weave.agent.applyCandidate': (ctx, candidate) => ctx.candidateResults.apply(candidate),
  'weave.agent.showCandidateChanges': (ctx, candidate) => ctx.candidateResults.showChanges(candidate),
  'weave.agent.stop': (ctx) => stopAgentRuns(ctx.log),
  'weave.agent.matrix': (ctx) => showMatrix(ctx.extension, agentDeps(ctx)),
  'weave.agent.applyResult': (ctx, onlyPath) => ctx.agentResults.apply(onlyPath),
  'weave.agent.openPatch': (ctx) => ctx.agentResults.openPatch(),
  'weave.agent.discardResult': (ctx) => ctx.agentResults.discard(),
  'weave.agent.showChanges': (ctx, path) => ctx.agentResults.showChanges(path),
  'weave.agent.setApiKey': (ctx) => setApiKey(ctx.extension),
};

/** What a command returns when a requirement is missing: the checks say why in a CheckAttempt, others nothing. */
function notRun(id: CommandId, missing: Requirement): CheckAttempt | undefined {
  if (id !== 'weave.check' && id !== 'weave.checkAffected') return undefined;
  return missing === 'trust'
    ? { ran: false, reason: 'untrusted', message: MISSING.trust }
    : { ran: false, reason: 'nothing-to-run', message: 'This folder has no .weave/specs.json yet.' };
}

/** Registers every command of the table; `ctx` is a FolderlessContext when no folder is open. */
export function registerCommands(ctx: CommandContext | FolderlessContext): vscode.Disposable[] {
  return COMMANDS.map(({ id, needs }) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      if (isFolderless(id)) return folderless[id](ctx);
      // Every other entry needs a folder first (the table test holds the table to that).
      if (!('store' in ctx)) return refuse(id, 'folder', ctx);
      for (const need of needs) if (!(await holds(need, ctx))) return refuse(id, need, ctx);
      return handlers[id](ctx, ...args);
    }),
  );
}

async function holds(need: Requirement, ctx: CommandContext): Promise<boolean> {
  if (need === 'trust') return vscode.workspace.isTrusted;
  return need === 'folder' || (await ctx.store.exists());
}

/** Says why the command does not run (with a way out where there is one) and returns what it returns then. */
function refuse(
  id: CommandId,
  missing: Requirement,
  ctx: CommandContext | FolderlessContext,
): CheckAttempt | undefined {
  ctx.log.info(`${id} not run: ${MISSING[missing]}`);
  if (missing === 'folder') void vscode.window.showInformationMessage(MISSING.folder);
  if (missing === 'specFile' && 'store' in ctx) void initOffer(ctx);
  if (missing === 'trust') void explainUntrusted();
  return notRun(id, missing);
}

function agentDeps(ctx: CommandContext): AgentCommandDeps {
  return { store: ctx.store, log: ctx.log, results: ctx.agentResults };
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
      hasFailures(counts) ? `${text} (see Problems)` : `${text} — all checked specs pass`,
      5000,
    );
  return result;
}

/** The one notification a check raises: specs that passed in the baseline and are broken now (and were not before). */
export async function brokenOffer(ctx: FolderlessContext, specIds: string[]): Promise<void> {
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
  const picked = await vscode.window.showInformationMessage(MISSING.specFile, init);
  if (picked === init) await initSpecs(ctx);
}

async function checkAffected(ctx: CommandContext): Promise<CheckAttempt> {
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
  if (selection.all) {
    // Every spec runs: say why, or "affected" looks broken (typically: specs.json has uncommitted changes).
    // The changes are the working tree's against HEAD: name the uncommitted spec file plainly.
    const reasons = selection.allReasons.map((r) =>
      r.replace(/^(\S*specs\.json) changed:/, '$1 has uncommitted changes:'),
    );
    const note = `Check affected runs all ${toCheck.length} specs: ${reasons.join('; ')}.`;
    ctx.log.info(note);
    vscode.window.setStatusBarMessage(`Weave: ${note}`, 8000);
    const attempt = await runCheck(ctx, {
      only: toCheck,
      label: `all ${toCheck.length} specs (${reasons[0] ?? 'every spec is affected'})`,
    });
    return attempt.ran ? { ...attempt, note } : attempt;
  }
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

/** Opens the spec graph in an editor tab (the same ELK layout as the side panel's, as large as the editor). */
async function showGraph(ctx: CommandContext): Promise<vscode.WebviewPanel | undefined> {
  const loaded = await ctx.store.get();
  if (!loaded.result.ok && !ctx.store.valid) {
    void showProblemsOffer('Weave: .weave/specs.json has problems; fix them to see the graph.');
    return undefined;
  }
  return ctx.panel.showGraph();
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
