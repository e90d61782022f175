// What "Weave: new spec" inserts into specs.json when the side panel's form is not there.
import * as vscode from 'vscode';

/** A snippet for one more spec, with tab stops in the order a person fills them in. */
export function newSpecSnippet(leadingComma: boolean): vscode.SnippetString {
  const snippet = new vscode.SnippetString(leadingComma ? ',\n' : '\n');
  snippet.appendText('    {\n      "id": "').appendPlaceholder('new-spec', 1);
  snippet.appendText('",\n      "title": "').appendPlaceholder('One line a person reads in lists', 2);
  snippet
    .appendText('",\n      "kind": "')
    .appendChoice(['functional', 'interface', 'security', 'performance', 'reliability', 'compatibility'], 3);
  snippet.appendText('",\n      "statement": "').appendPlaceholder('When …, the system shall …', 4);
  snippet.appendText('",\n      "test": { "command": "').appendPlaceholder('npm test', 5);
  snippet.appendText(
    '", "files": [] },\n      "anchors": [],\n      "dependsOn": [],\n      "interactsWith": []\n    }',
  );
  return snippet;
}
