// Which specs a change affects (for "check affected", check-on-save and the continuous test run), through the
// intel module's selection over the lazily built index: recorded per-spec coverage first, import cones after.
import * as vscode from 'vscode';
import { loadCoverageView } from '../core/coverage/base';
import { affectedSpecs, type AffectedResult } from '../core/selection/affected';
import { changedFilesFromList, changedFilesSince, type ChangedFile } from '../core/git/changes';
import type { AnchorAnalyzer } from './anchors';
import { isValid, type SpecStore } from './specStore';

export class AffectedSelector {
  /** The latest selection, with each selected spec's reasons and the specs left out. */
  last: AffectedResult | undefined;

  constructor(
    private readonly store: SpecStore,
    private readonly anchors: AnchorAnalyzer,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Specs affected by the given (saved) files. */
  async specsAffectedBy(uris: readonly vscode.Uri[]): Promise<string[]> {
    const workspaceDir = this.store.folder.uri.fsPath;
    const files = uris.map((u) => vscode.workspace.asRelativePath(u, false));
    const changes = changedFilesFromList(workspaceDir, files);
    return (await this.select(changes, { files: changes.map((c) => c.path) })).affected.map((a) => a.id);
  }

  /** Specs affected by everything that differs from HEAD (staged, unstaged, untracked). */
  async affectedByWorkingTreeChanges(): Promise<{
    files: string[];
    specIds: string[];
    selection: AffectedResult;
  }> {
    const changes = await changedFilesSince(this.store.folder.uri.fsPath, 'HEAD');
    const selection = await this.select(changes, { since: 'HEAD' });
    return { files: changes.map((c) => c.path), specIds: selection.affected.map((a) => a.id), selection };
  }

  private async select(
    changes: ChangedFile[],
    base: { since: string } | { files: string[] },
  ): Promise<AffectedResult> {
    const none: AffectedResult = {
      all: false,
      allReasons: [],
      affected: [],
      unaffected: [],
      notSelected: [],
      ignored: [],
      changes,
    };
    if (changes.length === 0) return none;
    const loaded = await this.store.get();
    if (!isValid(loaded)) return none;
    const { index, resolved } = await this.anchors.analyze(loaded);
    const workspaceDir = this.store.folder.uri.fsPath;
    const coverage = await loadCoverageView({ workspaceDir, index, ...base });
    const result = affectedSpecs({
      specFile: loaded.result.specFile,
      index,
      changes,
      resolved,
      workspaceDir,
      ...(coverage ? { coverage } : {}),
    });
    if (result.all) this.log.info(`every spec is affected: ${result.allReasons.join('; ')}`);
    this.last = result;
    return result;
  }
}
