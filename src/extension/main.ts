// Extension entry point: wires the thin VS Code adapters around the core. Activation only creates objects and
// registers handlers; the spec file is read on first use and the workspace is indexed on the first check.
import type { AffectedResult } from '../core/selection/affected';
import * as vscode from 'vscode';
import { AffectedSelector } from './affected';
import { AgentResultView } from './agent/agentResultView';
import { CandidatesView } from './agent/candidatesView';
import { AnchorAnalyzer } from './anchors';
import { AuditController } from './audit/auditController';
import { DraftController } from './draft/draftController';
import { CheckService, type CheckOutcome, type CheckAttempt } from './checks';
import { brokenOffer, registerCommands } from './commands';
import { CheckDiagnostics } from './diagnostics';
import { BlameDiagnostics, ExplainCodeActions, explainBroken } from './explainBroken';
import { registerLanguageModelTools } from './lmTools';
import { registerMcpProvider } from './mcpProvider';
import type { PanelState, SpecsPanel } from './panel';
import { connectPanel } from './panelBridge';
import { ResultsStore } from './results';
import { restoreLastRun } from './restoreLastRun';
import { readSettings } from './settings';
import { SpecStore } from './specStore';
import { WeaveStatusBar } from './statusBar';
import { SpecTests } from './testing';
import type { DebugRecord } from './testDebug';
import type { TestState } from './testRunRecord';
import { WeaveDocuments } from './weaveDocuments';
import { chooseWeaveFolder } from './workspaceFolder';

/** What activate() returns: for the side panel, other extensions and the in-host tests. */
export interface WeaveApi {
  readonly folder: vscode.WorkspaceFolder;
  readonly store: SpecStore;
  readonly checks: CheckService;
  readonly results: ResultsStore;
  readonly testController: vscode.TestController;
  /** The Test Explorer's Run profile (the workbench asks for trust before it runs tests; this is the profile). */
  readonly runProfile: vscode.TestRunProfile;
  /** The Test Explorer's Coverage profile (per-spec coverage through the Testing API). */
  readonly coverageProfile: vscode.TestRunProfile;
  /** The Test Explorer's Debug profile, and what its latest run did per spec. */
  readonly debugProfile: vscode.TestRunProfile;
  lastDebug(): readonly DebugRecord[];
  /** The latest affected-spec selection (reasons per selected spec, the specs left out). */
  lastAffected(): AffectedResult | undefined;
  /** The side panel (and its large graph view). */
  readonly panel: SpecsPanel;
  /** The agent result tab (Apply / Discard). */
  readonly agentResults: AgentResultView;
  /** The comparison tab of "Run N agents" (the ranking, each candidate's diff, Apply). */
  readonly candidateResults: CandidatesView;
  /** The draft result tab (Accept / Reject). */
  readonly draftResults: DraftController;
  /** The latest completed check. */
  lastRun(): CheckOutcome | undefined;
  /** What the status bar item shows (text and tooltip). */
  statusBar(): { text: string; tooltip: string };
  /** The state last pushed to the side panel (what it shows). */
  panelState(): PanelState | undefined;
  /** Settles when the start-up restore of the last stored run is done: true when it was restored. */
  readonly restored: Promise<boolean>;
  /** Weave's diagnostics on a file (check results and spec-file problems). */
  diagnosticsFor(uri: vscode.Uri): vscode.Diagnostic[];
  /** What the latest finished Test Explorer run reported per spec (VS Code gives extensions no read access). */
  testResults(): {
    finishedRuns: number;
    states: ReadonlyMap<string, TestState>;
    coverage: readonly vscode.FileCoverage[];
    inProgress: ReadonlyMap<string, TestState>;
  };
  /** The `weave mcp` server VS Code starts for this folder (what the MCP server definition provider returns). */
  mcpServerDefinitions(): vscode.McpStdioServerDefinition[];
  /** Milliseconds activate() took (the activation benchmark reads it). */
  readonly activationMs: number;
}

const CHECK_ON_SAVE_DELAY_MS = 300;

export function activate(context: vscode.ExtensionContext): WeaveApi | undefined {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Weave', { log: true });
  context.subscriptions.push(log);
  const folder = chooseWeaveFolder();
  if (!folder) {
    log.info('no workspace folder open: Weave commands will ask for one');
    context.subscriptions.push(...registerCommands({ log }));
    return undefined;
  }

  const services = createServices(context, folder, log);
  const views = createViews(context, folder, services, log);
  registerHandlers(context, services, views, log);
  const mcp = registerMcpProvider(context.extensionUri, folder);
  const { store, checks, affected } = services;
  context.subscriptions.push(
    ...registerLanguageModelTools({ store, checks, affected, log }),
    mcp.provider,
    mcp.registration,
  );
  // Validate an already open specs.json right away (cheap: one JSON file, not the workspace).
  if (vscode.workspace.textDocuments.some((d) => store.isSpecsDocument(d))) void store.reload();
  const restored = restoreWhenTrusted(context, services, log);

  const activationMs = performance.now() - started;
  log.info(
    `activated in ${activationMs.toFixed(1)} ms for ${folder.uri.fsPath}` +
      (vscode.workspace.isTrusted ? '' : ' (untrusted folder: specs are validated, nothing runs)'),
  );
  return weaveApi(folder, services, views, mcp, restored, activationMs);
}

/** The folder's services: spec store, index, checks, results and what shows them (disposed with the extension). */
interface Services {
  specProblems: vscode.DiagnosticCollection;
  store: SpecStore;
  anchors: AnchorAnalyzer;
  results: ResultsStore;
  checks: CheckService;
  diagnostics: CheckDiagnostics;
  affected: AffectedSelector;
  tests: SpecTests;
  statusBar: WeaveStatusBar;
  audit: AuditController;
  draft: DraftController;
}

/** Phase 1: the services, each created (none reads the workspace yet) and handed to context.subscriptions. */
function createServices(
  context: vscode.ExtensionContext,
  folder: vscode.WorkspaceFolder,
  log: vscode.LogOutputChannel,
): Services {
  const specProblems = vscode.languages.createDiagnosticCollection('weave-specs');
  const store = new SpecStore(folder, specProblems, log);
  const anchors = new AnchorAnalyzer(folder, log);
  const results = new ResultsStore();
  // Every surface counts the specs the file holds now (one added or removed on disk counts at once).
  const followSpecFile = store.onDidChange((loaded) => {
    if (loaded.result.ok) results.followSpecFile(loaded.result.specFile.specs.map((s) => s.id));
  });
  const checks = new CheckService(store, anchors, results, log);
  const diagnostics = new CheckDiagnostics(store, results);
  const affected = new AffectedSelector(store, anchors, log);
  const tests = new SpecTests(store, checks, results, diagnostics, affected, log);
  const statusBar = new WeaveStatusBar(store, checks, results);
  const audit = new AuditController(store, log);
  const draft = new DraftController(context, store, log);
  context.subscriptions.push(
    draft,
    followSpecFile,
    specProblems,
    store,
    anchors,
    results,
    checks,
    diagnostics,
    tests,
    statusBar,
    audit,
  );
  return {
    specProblems,
    store,
    anchors,
    results,
    checks,
    diagnostics,
    affected,
    tests,
    statusBar,
    audit,
    draft,
  };
}

/** The views over the services: the side panel, the agent result tab, blame diagnostics, weave: documents. */
interface Views {
  blameDiagnostics: BlameDiagnostics;
  documents: WeaveDocuments;
  agentResults: AgentResultView;
  candidateResults: CandidatesView;
  panel: SpecsPanel;
}

/** Phase 2: the views, handed to context.subscriptions (before the handlers, in this order). */
function createViews(
  context: vscode.ExtensionContext,
  folder: vscode.WorkspaceFolder,
  services: Services,
  log: vscode.LogOutputChannel,
): Views {
  const { store, checks, results, anchors, audit } = services;
  const blameDiagnostics = new BlameDiagnostics(context.workspaceState);
  const documents = new WeaveDocuments();
  const agentResults = new AgentResultView(
    folder,
    documents,
    () => vscode.commands.executeCommand<CheckAttempt | undefined>('weave.check'),
    log,
  );
  const candidateResults = new CandidatesView(folder, documents, agentResults, log);
  const { panel, subscription: panelSubscription } = connectPanel(
    context,
    store,
    checks,
    results,
    anchors,
    log,
    audit,
  );
  context.subscriptions.push(panelSubscription, blameDiagnostics, documents, agentResults, candidateResults);
  return { blameDiagnostics, documents, agentResults, candidateResults, panel };
}

/** Phase 3: the commands, the code actions, check on save and the trust notice. */
function registerHandlers(
  context: vscode.ExtensionContext,
  services: Services,
  views: Views,
  log: vscode.LogOutputChannel,
): void {
  const { store, checks, results, anchors, diagnostics, affected, audit, draft } = services;
  const { blameDiagnostics, agentResults, candidateResults, panel } = views;
  const explainDeps = { store, results, anchors, diagnostics, log };
  context.subscriptions.push(
    results.onDidChange((update) => blameDiagnostics.onResults(explainDeps, update)),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new ExplainCodeActions(results), {
      providedCodeActionKinds: ExplainCodeActions.kinds,
    }),
    ...registerCommands({
      extension: context,
      store,
      checks,
      results,
      affected,
      audit,
      draft,
      panel,
      log,
      explain: (specId) => explainBroken(explainDeps, blameDiagnostics, specId),
      agentResults,
      candidateResults,
    }),
    checkOnSave(store, checks, affected, log),
    vscode.workspace.onDidGrantWorkspaceTrust(() => log.info('folder trusted: checks can run')),
  );
}

/** Phase 4: restore the last stored run now in a trusted folder, or once the folder is trusted. */
function restoreWhenTrusted(
  context: vscode.ExtensionContext,
  services: Services,
  log: vscode.LogOutputChannel,
): Promise<boolean> {
  const { store, anchors, results } = services;
  const restore = (): Promise<boolean> =>
    restoreLastRun({ store, anchors, results, log }).catch((e: unknown) => {
      log.error(`could not restore the last run: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    });
  return vscode.workspace.isTrusted
    ? restore()
    : new Promise<boolean>((resolve) => {
        const once = vscode.workspace.onDidGrantWorkspaceTrust(() => {
          once.dispose();
          void restore().then(resolve);
        });
        context.subscriptions.push(once);
      });
}

/** Phase 5: what activate() returns, read live from the services and views. */
function weaveApi(
  folder: vscode.WorkspaceFolder,
  services: Services,
  views: Views,
  mcp: ReturnType<typeof registerMcpProvider>,
  restored: Promise<boolean>,
  activationMs: number,
): WeaveApi {
  const { store, checks, results, tests, affected, draft, statusBar, diagnostics, specProblems, audit } =
    services;
  const { panel, agentResults, candidateResults } = views;
  return {
    folder,
    store,
    checks,
    results,
    testController: tests.controller,
    runProfile: tests.runProfile,
    coverageProfile: tests.coverageProfile,
    debugProfile: tests.debugProfile,
    lastDebug: () => tests.lastDebug,
    lastAffected: () => affected.last,
    panel,
    agentResults,
    candidateResults,
    draftResults: draft,
    lastRun: () => results.last,
    statusBar: () => statusBar.shown,
    panelState: () => panel.shown,
    restored,
    testResults: () => tests.lastReported,
    mcpServerDefinitions: () => mcp.provider.provideMcpServerDefinitions(),
    diagnosticsFor: (uri) => [
      ...(diagnostics.collection.get(uri) ?? []),
      ...(specProblems.get(uri) ?? []),
      ...(audit.diagnostics.get(uri) ?? []),
    ],
    activationMs,
  };
}

export function deactivate(): void {
  // Everything is in context.subscriptions; the indexer's workers stop with AnchorAnalyzer.dispose().
}

/** `weave.checkOnSave`: re-check the specs a saved file affects, in the background. */
function checkOnSave(
  store: SpecStore,
  checks: CheckService,
  affected: AffectedSelector,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  const pending = new Map<string, vscode.Uri>();
  let timer: NodeJS.Timeout | undefined;
  const flush = async (): Promise<void> => {
    const uris = [...pending.values()];
    pending.clear();
    const specIds = await affected.specsAffectedBy(uris);
    log.info(
      `check on save: ${uris.length} file${uris.length === 1 ? '' : 's'} saved, affected: ${specIds.join(', ') || 'none'}`,
    );
    if (specIds.length === 0) return;
    const result = await checks.check({ only: specIds, label: 'affected specs (on save)', quiet: true });
    if (result.ran && result.newlyBroken.length > 0) void brokenOffer({ log }, result.newlyBroken);
  };
  const subscription = vscode.workspace.onDidSaveTextDocument((doc) => {
    if (!readSettings(store.folder).checkOnSave || !vscode.workspace.isTrusted) return;
    if (vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.toString() !== store.folder.uri.toString()) return;
    pending.set(doc.uri.toString(), doc.uri);
    clearTimeout(timer);
    timer = setTimeout(() => {
      flush().catch((e: unknown) => log.error(`check on save failed: ${String(e)}`));
    }, CHECK_ON_SAVE_DELAY_MS);
  });
  return new vscode.Disposable(() => {
    clearTimeout(timer);
    subscription.dispose();
  });
}
