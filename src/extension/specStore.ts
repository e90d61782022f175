// The workspace's `.weave/specs.json`, parsed on demand (never at activation) and re-parsed when it changes on
// disk or in an editor. Invalid specs become located diagnostics on the file itself, updated as the user types.
import * as vscode from 'vscode';
import { plainText } from './plainText';
import { parseSpecText, SPEC_FILE_RELATIVE_PATH, type SpecLoadResult } from '../core/spec';
import type { Spec } from '../shared/specSchema';
const REPARSE_DELAY_MS = 250;

/** A parsed spec file plus what is needed to turn its offsets into editor ranges. */
export interface LoadedSpecs {
  readonly text: string;
  readonly result: SpecLoadResult;
  readonly lineStarts: readonly number[];
}

/** A parse that succeeded. */
export type ValidSpecs = LoadedSpecs & { readonly result: Extract<SpecLoadResult, { ok: true }> };

export function isValid(loaded: LoadedSpecs): loaded is ValidSpecs {
  return loaded.result.ok;
}

export class SpecStore implements vscode.Disposable {
  readonly specsUri: vscode.Uri;
  private loaded: LoadedSpecs | undefined;
  /** The last parse that succeeded: Test Explorer and diagnostics keep working while the file is mid-edit. */
  private lastValid: LoadedSpecs | undefined;
  private loading: Promise<LoadedSpecs> | undefined;
  private reparseTimer: NodeJS.Timeout | undefined;
  private readonly changed = new vscode.EventEmitter<LoadedSpecs>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private readonly problems: vscode.DiagnosticCollection,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.specsUri = vscode.Uri.joinPath(folder.uri, SPEC_FILE_RELATIVE_PATH);
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(folder, SPEC_FILE_RELATIVE_PATH),
    );
    const reloadIfUsed = (): void => {
      if (this.loaded) this.scheduleReparse(0);
    };
    this.disposables.push(
      watcher,
      watcher.onDidChange(reloadIfUsed),
      watcher.onDidCreate(reloadIfUsed),
      watcher.onDidDelete(reloadIfUsed),
      vscode.workspace.onDidOpenTextDocument((doc) => {
        if (this.isSpecsDocument(doc)) this.scheduleReparse(0);
      }),
      // Closing the file takes VS Code's own JSON syntax errors away: Weave's must come back (see publishProblems).
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (this.isSpecsDocument(doc)) this.scheduleReparse(0);
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.isSpecsDocument(e.document)) this.scheduleReparse(REPARSE_DELAY_MS);
      }),
      this.changed,
    );
  }

  isSpecsDocument(doc: vscode.TextDocument): boolean {
    return doc.uri.toString() === this.specsUri.toString();
  }

  /** The current parse, loading it the first time it is asked for. */
  async get(): Promise<LoadedSpecs> {
    return this.loaded ?? (await this.reload());
  }

  /** The latest parse, valid or not, if the file was read. */
  get current(): LoadedSpecs | undefined {
    return this.loaded;
  }

  /** The latest parse that was valid, if any. */
  get valid(): LoadedSpecs | undefined {
    return this.lastValid;
  }

  /** The current parse when it is valid; otherwise undefined, after telling the user to fix the file first. */
  async validOrExplain(): Promise<ValidSpecs | undefined> {
    const loaded = await this.get();
    if (isValid(loaded)) return loaded;
    void vscode.window.showErrorMessage(
      `Weave: fix the problems in ${SPEC_FILE_RELATIVE_PATH} first (see the Problems panel).`,
    );
    return undefined;
  }

  async exists(): Promise<boolean> {
    try {
      await vscode.workspace.fs.stat(this.specsUri);
      return true;
    } catch {
      return vscode.workspace.textDocuments.some((d) => this.isSpecsDocument(d));
    }
  }

  reload(): Promise<LoadedSpecs> {
    this.loading ??= this.readAndParse().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** The range of a spec's entry in specs.json, from the latest valid parse. */
  entryRange(specId: string): vscode.Range | undefined {
    const loaded = this.lastValid;
    if (!loaded?.result.ok) return undefined;
    const index = loaded.result.specFile.specs.findIndex((s) => s.id === specId);
    if (index < 0) return undefined;
    const span =
      loaded.result.locations.locate(['specs', index, 'id']) ??
      loaded.result.locations.locate(['specs', index]);
    if (!span) return undefined;
    return new vscode.Range(positionAt(loaded, span.offset), positionAt(loaded, span.offset + span.length));
  }

  entryLocation(specId: string): vscode.Location | undefined {
    const range = this.entryRange(specId);
    return range ? new vscode.Location(this.specsUri, range) : undefined;
  }

  spec(specId: string): Spec | undefined {
    const loaded = this.lastValid;
    return loaded?.result.ok ? loaded.result.specFile.specs.find((s) => s.id === specId) : undefined;
  }

  private scheduleReparse(delayMs: number): void {
    clearTimeout(this.reparseTimer);
    this.reparseTimer = setTimeout(() => {
      this.reload().catch((e: unknown) =>
        this.log.error(`reading ${SPEC_FILE_RELATIVE_PATH} failed: ${String(e)}`),
      );
    }, delayMs);
  }

  private async readAndParse(): Promise<LoadedSpecs> {
    const open = vscode.workspace.textDocuments.find((d) => this.isSpecsDocument(d));
    let text: string;
    if (open) {
      text = open.getText();
    } else {
      try {
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(this.specsUri));
      } catch {
        text = '';
      }
    }
    const result =
      text === ''
        ? ({
            ok: false,
            file: this.specsUri.fsPath,
            problems: [
              {
                file: this.specsUri.fsPath,
                line: 1,
                column: 1,
                path: '',
                message: `${SPEC_FILE_RELATIVE_PATH} is missing or empty: run "Weave: init specs"`,
                severity: 'error',
              },
            ],
          } satisfies SpecLoadResult)
        : parseSpecText(text, this.specsUri.fsPath);
    const loaded: LoadedSpecs = { text, result, lineStarts: lineStartsOf(text) };
    this.loaded = loaded;
    if (result.ok) this.lastValid = loaded;
    this.publishProblems(loaded);
    this.changed.fire(loaded);
    return loaded;
  }

  private publishProblems(loaded: LoadedSpecs): void {
    const all = loaded.text === '' ? [] : loaded.result.ok ? loaded.result.warnings : loaded.result.problems;
    // While the file is open, VS Code's JSON language features already underline its syntax errors and trailing
    // commas: showing Weave's too would list every one twice in Problems. Schema and reference problems are
    // Weave's alone (the schema VS Code reads does not validate: src/core/spec/jsonSchema.ts).
    const openAsJson = vscode.workspace.textDocuments.some(
      (d) => this.isSpecsDocument(d) && (d.languageId === 'jsonc' || d.languageId === 'json'),
    );
    const problems = openAsJson
      ? all.filter((p) => !/^(syntax error\b|\d+ more syntax errors|trailing comma\b)/.test(p.message))
      : all;
    const diagnostics = problems.map((p) => {
      const start = new vscode.Position(Math.max(0, p.line - 1), Math.max(0, p.column - 1));
      const lineText = loaded.text.slice(
        loaded.lineStarts[start.line] ?? 0,
        loaded.lineStarts[start.line + 1] ?? loaded.text.length,
      );
      // Underline the token at the problem (up to the end of the line), not a zero-width point.
      const tokenEnd = /^[^,\]}\r\n]*/.exec(lineText.slice(start.character))?.[0].trimEnd().length ?? 0;
      const range = new vscode.Range(start, start.translate(0, Math.max(1, tokenEnd)));
      const d = new vscode.Diagnostic(
        range,
        plainText(p.path ? `${p.path}: ${p.message}` : p.message),
        p.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error,
      );
      d.source = 'weave';
      return d;
    });
    this.problems.set(this.specsUri, diagnostics);
  }

  dispose(): void {
    clearTimeout(this.reparseTimer);
    for (const d of this.disposables) d.dispose();
  }
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function positionAt(loaded: LoadedSpecs, offset: number): vscode.Position {
  const starts = loaded.lineStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return new vscode.Position(lo, offset - (starts[lo] ?? 0));
}
