// Per-spec coverage in the Testing API: after a run of the Coverage profile, one FileCoverage per workspace file
// the run's specs executed (statements from V8's line hits; declarations from the functions mapped to
// tree-sitter definitions; Python files have declarations only, so their statements are the executed
// functions' bodies). Each file lists the specs that executed it, so the editor can show one spec's lines
// (loadDetailedCoverageForTest) as well as everything the run covered.
import * as vscode from 'vscode';
import { readCoverageStore } from '../core/coverage/store';
import type { CoverageStore, FileCoverage, UnitRow } from '../core/coverage/types';

interface SpecShare {
  specId: string;
  covered: FileCoverage;
  units: readonly UnitRow[];
}

export class SpecFileCoverage extends vscode.FileCoverage {
  constructor(
    uri: vscode.Uri,
    readonly shares: readonly SpecShare[],
    includesTests: vscode.TestItem[],
  ) {
    const details = detailsOf(shares);
    super(
      uri,
      countOf(details.filter((d) => d instanceof vscode.StatementCoverage)),
      undefined,
      countOf(details.filter((d) => d instanceof vscode.DeclarationCoverage)),
      includesTests,
    );
  }

  /** Statements and declarations of the whole run, or of one spec's test. */
  details(specId?: string): vscode.FileCoverageDetail[] {
    return detailsOf(specId === undefined ? this.shares : this.shares.filter((s) => s.specId === specId));
  }
}

/**
 * The coverage the given specs recorded, one entry per file of code under test (`isCodeUnderTest`: test files
 * and test helpers are left out, core/coverage/codeUnderTest.ts).
 */
export async function coverageOfSpecs(
  folder: vscode.Uri,
  specIds: readonly string[],
  itemOf: (specId: string) => vscode.TestItem | undefined,
  isCodeUnderTest: (relativePath: string) => boolean,
): Promise<SpecFileCoverage[]> {
  const store: CoverageStore = await readCoverageStore(folder.fsPath);
  const byFile = new Map<string, SpecShare[]>();
  for (const specId of specIds) {
    for (const [file, covered] of Object.entries(store.specs[specId]?.files ?? {})) {
      if (!isCodeUnderTest(file)) continue;
      const units = store.units[covered.hash] ?? [];
      byFile.set(file, [...(byFile.get(file) ?? []), { specId, covered, units }]);
    }
  }
  return [...byFile]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([file, shares]) =>
        new SpecFileCoverage(
          vscode.Uri.joinPath(folder, file),
          shares,
          shares.map((s) => itemOf(s.specId)).filter((i): i is vscode.TestItem => i !== undefined),
        ),
    );
}

function detailsOf(shares: readonly SpecShare[]): vscode.FileCoverageDetail[] {
  const lineHit = new Map<number, boolean>();
  const declared = new Map<string, { row: UnitRow; executed: boolean }>();
  for (const { covered, units } of shares) {
    units.forEach((row, i) => {
      const key = `${row[0]}@${row[1]}`;
      const executed = covered.functions.includes(i);
      declared.set(key, { row, executed: executed || declared.get(key)?.executed === true });
    });
    for (const [first, last, hit] of covered.lines ?? []) {
      for (let line = first; line <= last; line++) lineHit.set(line, hit === 1 || lineHit.get(line) === true);
    }
  }
  const details: vscode.FileCoverageDetail[] = [];
  if (lineHit.size > 0) {
    for (const [line, hit] of [...lineHit].sort(([a], [b]) => a - b))
      details.push(new vscode.StatementCoverage(hit, new vscode.Range(line - 1, 0, line - 1, 0)));
  } else {
    // No line data (Python): the executed definitions' bodies stand for its statements.
    for (const { row, executed } of declared.values())
      details.push(new vscode.StatementCoverage(executed, new vscode.Range(row[1], 0, row[2], 0)));
  }
  for (const { row, executed } of declared.values())
    details.push(new vscode.DeclarationCoverage(row[0], executed, new vscode.Range(row[1], 0, row[2], 0)));
  return details;
}

function countOf(details: vscode.FileCoverageDetail[]): vscode.TestCoverageCount {
  const hit = details.filter((d) => (d as vscode.StatementCoverage | vscode.DeclarationCoverage).executed);
  return new vscode.TestCoverageCount(hit.length, details.length);
}
