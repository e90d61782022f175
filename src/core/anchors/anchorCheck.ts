// Anchor resolution for `weave validate` and `weave check`: only the anchored files are parsed (not the whole
// workspace), so validating stays about as fast as reading the spec file.
import { indexSomeFiles } from '../index';
import type { SpecLocations, SpecProblem } from '../spec';
import type { SpecFile } from '../../shared/specSchema';
import { resolveAnchors } from './resolve';
import { anchoredFiles } from './anchoredWorkspace';

export interface AnchorCheck {
  /** Missing files and symbols (errors), ambiguous or unresolvable symbols (warnings), at the anchor string. */
  problems: SpecProblem[];
  /** How many files were parsed to resolve them. */
  parsedFiles: number;
}

export async function checkAnchors(
  workspaceDir: string,
  specFile: SpecFile,
  options: { locations?: Pick<SpecLocations, 'locate'>; specFilePath?: string } = {},
): Promise<AnchorCheck> {
  const anchored = anchoredFiles(specFile);
  if (anchored.length === 0) return { problems: [], parsedFiles: 0 };
  const { index, listed } = await indexSomeFiles(workspaceDir, anchored);
  const { problems } = resolveAnchors(specFile, index, {
    workspaceDir,
    knownFiles: listed,
    ...(options.locations ? { locations: options.locations } : {}),
    ...(options.specFilePath !== undefined ? { specFilePath: options.specFilePath } : {}),
  });
  return { problems, parsedFiles: index.files.size };
}
