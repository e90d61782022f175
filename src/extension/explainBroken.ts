// "Explain why this spec broke": the quick fix on a Weave diagnostic and the palette command
// `weave.explainBroken`. It runs blame (src/core/blame/blame.ts: delta debugging over the edits since the
// baseline, in throw-away worktrees) and puts a diagnostic on each breaking hunk, with related information
// pointing back at the spec's anchor and its entry in specs.json, then opens the first hunk.
import * as vscode from 'vscode';
import { blameSpec, BlameError, type BlameResult } from '../core/blame/blame';
import type { AnchorAnalyzer } from './anchors';
import type { CheckDiagnostics } from './diagnostics';
import { isBroken, isViolation, type SpecResult } from '../core/check';
import type { ResultsStore } from './results';
import { readSettings } from './settings';
import type { SpecStore } from './specStore';
import { explainUntrusted } from './trust';
import { plainText } from './plainText';
import { blameStatusText } from './views/resultText';

export const EXPLAIN_COMMAND = 'weave.explainBroken';

export interface ExplainDeps {
  store: SpecStore;
  results: ResultsStore;
  anchors: AnchorAnalyzer;
  diagnostics: CheckDiagnostics;
  log: vscode.LogOutputChannel;
}

/** Where the last blame is kept across a reload (the window's workspace state). */
const LAST_BLAME_KEY = 'weave.lastBlame';

/**
 * Shows blame's answers as diagnostics (one collection: each explanation replaces the previous one's). The last
 * answer is kept in the workspace state, so a reload shows it again while its spec is still broken.
 */
export class BlameDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('weave-blame');
  private shownFor: string | undefined;

  constructor(private readonly memory?: vscode.Memento) {}

  /**
   * Follows the verdicts: a restored run whose blamed spec is still broken brings the stored answer back; a check
   * that ran the blamed spec again and found it not broken clears it (and forgets it).
   */
  onResults(
    deps: ExplainDeps,
    update: { origin: string; outcome: { run: { results: SpecResult[] } } },
  ): void {
    const stored = this.memory?.get<BlameResult>(LAST_BLAME_KEY);
    if (update.origin === 'restored') {
      if (stored && this.stillBroken(deps, stored.specId)) this.draw(stored, deps);
      return;
    }
    const blamed = this.shownFor ?? stored?.specId;
    if (blamed === undefined || !update.outcome.run.results.some((r) => r.id === blamed)) return;
    if (this.stillBroken(deps, blamed)) return;
    this.collection.clear();
    this.shownFor = undefined;
    void this.memory?.update(LAST_BLAME_KEY, undefined);
  }

  private stillBroken(deps: ExplainDeps, specId: string): boolean {
    const known = deps.results.knownResults();
    const result = known.results.find((r) => r.id === specId);
    return result !== undefined && isBroken(result, known);
  }

  show(result: BlameResult, deps: ExplainDeps): vscode.Location | undefined {
    void this.memory?.update(LAST_BLAME_KEY, result);
    return this.draw(result, deps);
  }

  private draw(result: BlameResult, deps: ExplainDeps): vscode.Location | undefined {
    this.shownFor = result.specId;
    const folder = deps.store.folder.uri;
    const outcome = deps.results.last;
    const anchorLocations = outcome ? deps.diagnostics.locationsOf(result.specId, outcome) : [];
    const entry = deps.store.entryLocation(result.specId);
    const byFile = new Map<string, [vscode.Uri, vscode.Diagnostic[]]>();
    let first: vscode.Location | undefined;
    result.hunks.forEach((hunk, i) => {
      const uri = vscode.Uri.joinPath(folder, hunk.file);
      const start = new vscode.Position(hunk.line - 1, 0);
      const end = new vscode.Position(
        hunk.line - 1 + Math.max(0, hunk.lineCount - 1),
        Number.MAX_SAFE_INTEGER,
      );
      const range = new vscode.Range(start, end);
      const since = result.baseline.ref ?? result.baseline.commit.slice(0, 7);
      const d = new vscode.Diagnostic(
        range,
        plainText(
          `[${result.specId}] ${result.explanation[i] ?? `this edit breaks ${result.specId}`} (since ${since})`,
        ),
        vscode.DiagnosticSeverity.Error,
      );
      d.source = 'weave blame';
      d.code = result.specId;
      d.relatedInformation = [
        ...anchorLocations.map(
          (l) => new vscode.DiagnosticRelatedInformation(l, `anchor of ${result.specId}, which now fails`),
        ),
        ...(entry
          ? [new vscode.DiagnosticRelatedInformation(entry, `spec ${result.specId} in specs.json`)]
          : []),
      ];
      const key = uri.toString();
      const list = byFile.get(key) ?? [uri, []];
      list[1].push(d);
      byFile.set(key, list);
      first ??= new vscode.Location(uri, range);
    });
    this.collection.clear();
    this.collection.set([...byFile.values()]);
    return first;
  }

  dispose(): void {
    this.collection.dispose();
  }
}

/** The quick fix on a violated spec's diagnostic (its `code` is the spec id). */
export class ExplainCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  /** `results`: only a spec that is broken (passed in the baseline, fails now) has a "broke" to explain. */
  constructor(private readonly results: ResultsStore) {}

  provideCodeActions(
    _document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const ids = new Set<string>();
    for (const d of context.diagnostics) {
      if (d.source === 'weave' && typeof d.code === 'string') ids.add(d.code);
    }
    const known = this.results.knownResults();
    for (const id of [...ids]) {
      const result = known.results.find((r) => r.id === id);
      if (!result || !isBroken(result, known)) ids.delete(id);
    }
    return [...ids].map((id) => {
      const action = new vscode.CodeAction(`Explain why ${id} broke`, vscode.CodeActionKind.QuickFix);
      action.command = { command: EXPLAIN_COMMAND, title: 'Explain why this spec broke', arguments: [id] };
      action.diagnostics = context.diagnostics.filter((d) => d.code === id);
      return action;
    });
  }
}

/** Runs blame for `specId` (asks which when absent); returns the result, or undefined with a message shown. */
export async function explainBroken(
  deps: ExplainDeps,
  blameDiagnostics: BlameDiagnostics,
  specId: unknown,
): Promise<BlameResult | undefined> {
  if (!vscode.workspace.isTrusted) {
    void explainUntrusted();
    return undefined;
  }
  const id = typeof specId === 'string' ? specId : await pickSpec(deps);
  if (!id) return undefined;
  const settings = readSettings(deps.store.folder);
  try {
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Weave: finding the edit that broke ${id}`,
        cancellable: true,
      },
      async (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return blameSpec({
          workspaceDir: deps.store.folder.uri.fsPath,
          specId: id,
          signal: abort.signal,
          ...(settings.baseline ? { baselineRef: settings.baseline } : {}),
          index: await deps.anchors.index(),
          onProgress: (e) =>
            progress.report({
              message: `run ${e.run}/${e.maxRuns}: ${e.applied} of ${e.total} edits → ${e.verdict}`,
            }),
        });
      },
    );
    deps.log.info(`blame ${id}: ${result.explanation.join('; ') || 'no hunk'} (${result.runs} runs)`);
    const first = blameDiagnostics.show(result, deps);
    if (first) {
      await vscode.window.showTextDocument(first.uri, { selection: first.range, preview: false });
    }
    vscode.window.setStatusBarMessage(blameStatusText(result.explanation, id), 8000);
    return result;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    deps.log.warn(`blame ${id}: ${message}`);
    if (e instanceof BlameError && e.code === 'cancelled') return undefined;
    void vscode.window.showWarningMessage(`Weave: cannot explain ${id}: ${message}`);
    return undefined;
  }
}

async function pickSpec(deps: ExplainDeps): Promise<string | undefined> {
  const known = deps.results.knownResults();
  const candidates = known.results.filter((r) => isViolation(r, known));
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage('Weave: no spec fails at the last check; nothing to explain.');
    return undefined;
  }
  if (candidates.length === 1) return candidates[0]?.id;
  const picked = await vscode.window.showQuickPick(
    candidates.map((r) => ({
      label: r.id,
      description: known.changes[r.id] === 'broken' ? 'broken' : r.verdict,
    })),
    { title: 'Weave: explain which spec?' },
  );
  return picked?.label;
}
