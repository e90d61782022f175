// The agent's view of the tree-sitter index (INDEX's createIndexer) over its worktree: outline and
// find_symbol for the tools, re-indexed lazily after the agent edits files, and the specs' potential
// interactions (import cones that share code, INTEL's specCones) for the prompt.
import { createIndexer, type Indexer, type WorkspaceIndex } from '../index';
import { specCones } from '../selection/cones';
import type { SpecFile } from '../../shared/specSchema';
import type { SymbolLookup } from './toolContract';

export interface WorktreeIndex extends SymbolLookup {
  /** The files the agent changed since the last index: the next lookup re-indexes. */
  markChanged(): void;
  /** Spec id → ids of the specs whose import cones share a non-test file with it. */
  potentialInteractions(specFile: SpecFile): Promise<Map<string, string[]>>;
  dispose(): void;
}

export function createWorktreeIndex(workspaceDir: string): WorktreeIndex {
  // No on-disk cache: the worktree is thrown away, and a cache folder inside it would show up in the patch.
  const indexer: Indexer = createIndexer({ workspaceDir, useCache: false, workers: 0 });
  let current: Promise<WorkspaceIndex> | undefined;
  const index = (): Promise<WorkspaceIndex> => {
    current ??= indexer.indexWorkspace().catch((error: unknown) => {
      current = undefined;
      throw error;
    });
    return current;
  };
  return {
    async outline(file) {
      const found = (await index()).files.get(file);
      if (!found)
        throw new Error(`${file} is not indexed (no grammar for its language, or it does not exist)`);
      return found.symbols;
    },
    async findSymbol(name, file) {
      return (await index()).findSymbol(name, file);
    },
    markChanged() {
      current = undefined;
    },
    async potentialInteractions(specFile) {
      const cones = specCones(specFile, await index(), { workspaceDir });
      const testFiles = new Set(specFile.specs.flatMap((s) => s.test.files));
      const codeOf = new Map(
        [...cones].map(([id, cone]) => [
          id,
          new Set([...cone.parent.keys()].filter((f) => !testFiles.has(f))),
        ]),
      );
      const out = new Map<string, string[]>();
      for (const [a, filesA] of codeOf) {
        const partners: string[] = [];
        for (const [b, filesB] of codeOf) {
          if (a !== b && [...filesA].some((f) => filesB.has(f))) partners.push(b);
        }
        out.set(a, partners);
      }
      return out;
    },
    dispose() {
      indexer.dispose();
    },
  };
}
