// Which specs a change affects (for "check affected", check-on-save and the continuous test run), through the
// intel module's import-cone selection over the lazily built index.
import * as vscode from 'vscode';
import { affectedSpecs } from '../core/intel/affected';
import { changedFilesFromList, changedFilesSince, type ChangedFile } from '../core/intel/changes';
import type { AnchorLocator } from './anchors';
import { isValid, type SpecStore } from './specStore';

export class AffectedSelector {
  constructor(
    private readonly store: SpecStore,
    private readonly anchors: AnchorLocator,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Specs affected by the given (saved) files. */
  async specsAffectedBy(uris: readonly vscode.Uri[]): Promise<string[]> {
    const workspaceDir = this.store.folder.uri.fsPath;
    const files = uris.map((u) => vscode.workspace.asRelativePath(u, false));
    return this.select(changedFilesFromList(workspaceDir, files));
  }

  /** Specs affected by everything that differs from HEAD (staged, unstaged, untracked). */
  async affectedByWorkingTreeChanges(): Promise<{ files: string[]; specIds: string[] }> {
    const changes = await changedFilesSince(this.store.folder.uri.fsPath, 'HEAD');
    return { files: changes.map((c) => c.path), specIds: await this.select(changes) };
  }

  private async select(changes: ChangedFile[]): Promise<string[]> {
    if (changes.length === 0) return [];
    const loaded = await this.store.get();
    if (!isValid(loaded)) return [];
    const { index, resolved } = await this.anchors.analyze(loaded);
    const result = affectedSpecs({
      specFile: loaded.result.specFile,
      index,
      changes,
      resolved,
      workspaceDir: this.store.folder.uri.fsPath,
    });
    if (result.all) this.log.info(`every spec is affected: ${result.allReasons.join('; ')}`);
    return result.affected.map((a) => a.id);
  }
}
