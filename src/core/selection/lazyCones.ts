// Import cones over a partial index: before specCones walks the cones of some specs, the files those walks
// reach are parsed, layer by layer from the specs' roots, and nothing else. The cones are then the ones a full
// index gives: a root is found among the listed files with a grammar (so a glob or a folder finds every file
// it would), imports resolve against the whole listing, and an implicitly loaded file (`__init__.py`,
// `conftest.py`) is parsed before it is followed. A git submodule is not in the listing (it is no file, and
// never parsed): an import of one is untraceable, so the cone importing it is incomplete.
import { languageOfPath, type GrowingIndex } from '../index';
import type { SpecFile } from '../../shared/specSchema';
import { ConeImportResolver } from './coneImports';
import { coneRoots, knownFiles, specCones, type ConeOptions, type SpecCone } from './cones';

/** Parses what the cones of `specIds` reach into `growing`, then computes those cones. */
export async function lazySpecCones(
  specFile: SpecFile,
  growing: GrowingIndex,
  specIds: ReadonlySet<string>,
  options: Omit<ConeOptions, 'listed' | 'specIds'>,
): Promise<Map<string, SpecCone>> {
  const listed = [...growing.listed, ...growing.index.skipped.map((s) => s.path)];
  const withGrammar = growing.listed.filter((f) => languageOfPath(f) !== undefined);
  const indexable = new Set(withGrammar);
  const known = knownFiles(
    withGrammar,
    listed.filter((f) => !indexable.has(f)),
  );
  let frontier = new Set<string>();
  for (const spec of specFile.specs) {
    if (!specIds.has(spec.id)) continue;
    for (const root of coneRoots(spec, specFile, known, options).roots.keys()) frontier.add(root);
  }
  const resolver = new ConeImportResolver(growing.index, {
    workspaceDir: options.workspaceDir,
    listed,
    indexable: (f) => indexable.has(f),
    submodules: growing.submodules,
  });
  const walked = new Set<string>();
  while (frontier.size > 0) {
    await growing.add(frontier);
    const next = new Set<string>();
    for (const file of frontier) {
      walked.add(file);
      // Asked only once the file is parsed: the resolver keeps its answer.
      if (!growing.index.files.has(file)) continue;
      for (const dep of resolver.dependenciesOf(file).files) if (!walked.has(dep)) next.add(dep);
    }
    frontier = next;
  }
  return specCones(specFile, growing.index, {
    ...options,
    listed,
    submodules: growing.submodules,
    specIds,
  });
}
