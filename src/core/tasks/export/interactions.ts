// Potential interactions for the task: INTEL's static coupling (shared anchored symbols and files, shared
// test import cones), computed on the exported target tree so every path is workspace-relative.
import { createIndexer } from '../../index/index';
import { resolveAnchors } from '../../anchors/resolve';
import { staticCoupling } from '../../coupling/coupling';
import type { SpecFile } from '../../../shared/specSchema';

export interface TaskInteraction {
  specs: [string, string];
  reason: string;
  /** The author already declared this pair (interactsWith or dependsOn). */
  declared: boolean;
}

export interface InteractionsResult {
  interactions: TaskInteraction[];
  /** Why the list is empty when indexing was impossible (e.g. grammars not built). */
  problem?: string;
}

export async function potentialInteractions(
  treeDir: string,
  specFile: SpecFile,
): Promise<InteractionsResult> {
  const indexer = createIndexer({ workspaceDir: treeDir, useCache: false, workers: 0 });
  try {
    const index = await indexer.indexWorkspace();
    const { resolved } = resolveAnchors(specFile, index, { workspaceDir: treeDir });
    const coupling = staticCoupling({ specFile, index, resolved, workspaceDir: treeDir });
    return {
      interactions: coupling.potential.map((p) => ({
        specs: [p.a, p.b],
        reason: describeCoupling(p.sharedSymbols, p.sharedAnchorFiles, p.sharedConeFiles),
        declared: p.declared,
      })),
    };
  } catch (error) {
    return { interactions: [], problem: `static coupling unavailable: ${(error as Error).message}` };
  } finally {
    indexer.dispose();
  }
}

function describeCoupling(symbols: string[], anchorFiles: string[], coneFiles: string[]): string {
  const parts: string[] = [];
  if (symbols.length > 0) parts.push(`both anchor ${symbols.join(', ')}`);
  if (anchorFiles.length > 0) parts.push(`both anchor file ${anchorFiles.join(', ')}`);
  if (coneFiles.length > 0) parts.push(`both tests load ${coneFiles.join(', ')}`);
  return parts.join('; ');
}
