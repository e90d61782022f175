// Read-only documents under the `weave:` scheme (a TextDocumentContentProvider): an agent's proposed version
// of a file for the review diff, reports. Named, never "Untitled-1", and never asking "save changes?".
import * as vscode from 'vscode';

export const WEAVE_SCHEME = 'weave';

export class WeaveDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(WEAVE_SCHEME, this);

  /** A `weave:` uri with the same path as `file` (so a diff against it is not shown as a rename). */
  static shadowOf(file: vscode.Uri, query: string): vscode.Uri {
    return vscode.Uri.from({ scheme: WEAVE_SCHEME, path: file.path, query });
  }

  set(uri: vscode.Uri, content: string): void {
    this.contents.set(uri.toString(), content);
    this.changed.fire(uri);
  }

  /** Forgets every document whose query is `query` (e.g. one agent run's). */
  forget(query: string): void {
    for (const key of [...this.contents.keys()]) {
      if (vscode.Uri.parse(key).query === query) this.contents.delete(key);
    }
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.contents.clear();
  }
}
