// Where in the code each spec lives: its anchors resolved through the tree-sitter index (built lazily on the
// first check, never at activation), as editor locations.
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { createIndexer, type Indexer, type WorkspaceIndex } from '../core/index';
import { resolveAnchors, type AnchorResolution } from '../core/anchors/resolve';
import { readCoverageStore } from '../core/coverage/store';
import { staticCoupling } from '../core/coupling/coupling';
import { SPEC_FILE_RELATIVE_PATH, type SpecProblem } from '../core/spec';
import type { SpecFile } from '../shared/specSchema';
import type { ValidSpecs } from './specStore';

export interface AnchorLocations {
  /** Resolved anchors per spec id; a spec without resolvable anchors is absent. */
  bySpec: Map<string, vscode.Location[]>;
  /** Anchors that did not resolve (unknown file or symbol), located in specs.json. */
  problems: SpecProblem[];
  /** Pairs of specs that can interact (shared anchors or import cones), found before anything runs. */
  potential: Array<{ a: string; b: string; reason: string }>;
}

export class AnchorAnalyzer implements vscode.Disposable {
  private indexer: Indexer | undefined;

  constructor(
    private readonly folder: vscode.WorkspaceFolder,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Indexes the workspace (incrementally, from the index cache) and resolves every spec's anchors. */
  async analyze(
    specs: ValidSpecs,
    signal?: AbortSignal,
  ): Promise<{ index: WorkspaceIndex; indexMs: number; resolveMs: number } & AnchorResolution> {
    this.indexer ??= createIndexer({ workspaceDir: this.folder.uri.fsPath });
    const started = performance.now();
    const index = await this.indexer.indexWorkspace(signal ? { signal } : {});
    const indexed = performance.now();
    const specFile: SpecFile = specs.result.specFile;
    const resolution = resolveAnchors(specFile, index, {
      workspaceDir: this.folder.uri.fsPath,
      locations: specs.result.locations,
      specFilePath: SPEC_FILE_RELATIVE_PATH,
    });
    return { index, indexMs: indexed - started, resolveMs: performance.now() - indexed, ...resolution };
  }

  /** The workspace index, built on first use (the panel's symbol picker). */
  async index(): Promise<WorkspaceIndex> {
    this.indexer ??= createIndexer({ workspaceDir: this.folder.uri.fsPath });
    return this.indexer.current ?? (await this.indexer.indexWorkspace());
  }

  async locate(specs: ValidSpecs, signal?: AbortSignal): Promise<AnchorLocations> {
    const { index, indexMs, resolveMs, resolved, problems } = await this.analyze(specs, signal);
    const coupled = performance.now();
    const coupling = staticCoupling({
      specFile: specs.result.specFile,
      index,
      resolved,
      workspaceDir: this.folder.uri.fsPath,
      coverage: await readCoverageStore(this.folder.uri.fsPath),
    });
    const potential = coupling.potential
      .filter((p) => !p.declared)
      .map((p) => ({ a: p.a, b: p.b, reason: couplingReason(p) }));
    const located = performance.now();
    const bySpec = new Map<string, vscode.Location[]>();
    const lineLengths = new Map<string, Promise<number[]>>();
    for (const [specId, anchors] of resolved) {
      const locations: vscode.Location[] = [];
      for (const a of anchors) {
        const uri = vscode.Uri.joinPath(this.folder.uri, a.file);
        let endColumn = a.range.end.column;
        if (a.range.end.line !== a.range.start.line) {
          // A definition can span a whole class: underline its first line, where a reader looks.
          if (!lineLengths.has(a.file)) lineLengths.set(a.file, lineLengthsOf(uri));
          endColumn = (await lineLengths.get(a.file))?.[a.range.start.line] ?? a.range.start.column + 1;
        }
        locations.push(
          new vscode.Location(
            uri,
            new vscode.Range(a.range.start.line, a.range.start.column, a.range.start.line, endColumn),
          ),
        );
      }
      if (locations.length > 0) bySpec.set(specId, locations);
    }
    // Where the time goes, phase by phase (issue #39 saw "anchors 77058 ms" and no way to tell why).
    const { stats } = index;
    this.log.info(
      `anchors: index ${Math.round(indexMs)} ms (${stats.files} files, ${stats.cacheHits} from the cache, parser ` +
        `${stats.parser?.ran ?? 'none'}), resolve ${Math.round(resolveMs)} ms, coupling ` +
        `${Math.round(located - coupled)} ms, locations ${Math.round(performance.now() - located)} ms`,
    );
    return { bySpec, problems, potential };
  }

  dispose(): void {
    this.indexer?.dispose();
    this.indexer = undefined;
  }
}

/**
 * Each line's length in a file, read from disk directly: through vscode.workspace.fs every read is a round trip over
 * the workbench's connection, which in code-server under load took 0.7-7 s for the demo's few files (the
 * "locations" phase of the anchors log line) — the cause of anchor phases measured in tens of seconds.
 */
async function lineLengthsOf(uri: vscode.Uri): Promise<number[]> {
  try {
    const bytes =
      uri.scheme === 'file' ? await fs.readFile(uri.fsPath) : await vscode.workspace.fs.readFile(uri);
    const text = new TextDecoder().decode(bytes);
    return text.split('\n').map((l) => l.replace(/\r$/, '').length);
  } catch {
    return [];
  }
}

function couplingReason(p: {
  sharedSymbols: string[];
  sharedAnchorFiles: string[];
  sharedConeFiles: string[];
  sharedFunctions?: string[];
  coverageWeight?: number;
}): string {
  if (p.sharedFunctions !== undefined)
    return `both tests execute ${p.sharedFunctions.slice(0, 3).join(', ')}${p.sharedFunctions.length > 3 ? ` and ${p.sharedFunctions.length - 3} more` : ''} (Jaccard ${(p.coverageWeight ?? 0).toFixed(2)})`;
  if (p.sharedSymbols.length > 0) return `both anchored at ${p.sharedSymbols.join(', ')}`;
  if (p.sharedAnchorFiles.length > 0) return `both anchored in ${p.sharedAnchorFiles.join(', ')}`;
  return `both tests load ${p.sharedConeFiles.slice(0, 3).join(', ')}`;
}
