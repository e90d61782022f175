// Where a workspace's spec file is and how big one may be: in the base, below core/spec, because `weave guard`
// finds the workspace and reads the spec file's bytes on every agent tool call without loading the spec model
// (its zod schema alone costs a hook process tens of milliseconds); core/spec re-exports both.
import path from 'node:path';

export const SPEC_FILE_RELATIVE_PATH = '.weave/specs.json';

/** Far beyond any hand-written spec file; refusing bigger ones keeps a mistake (a log, a dump) from eating memory. */
export const MAX_SPEC_FILE_BYTES = 5 * 1024 * 1024;

export function specFilePath(workspaceDir: string): string {
  return path.join(workspaceDir, SPEC_FILE_RELATIVE_PATH);
}
