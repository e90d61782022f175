// Checks of a valid spec file against the workspace on disk (parseSpecText itself never touches the disk): a
// `test.files` entry that does not exist protects nothing — the agent may still edit the real test file, and
// tamper checks hash a file that is not there — so it is a warning at that entry.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SpecLocations } from './locations';
import type { SpecProblem } from './problems';
import type { SpecFile } from '../../shared/specSchema';

export async function missingTestFileWarnings(
  workspaceDir: string,
  file: string,
  specFile: SpecFile,
  locations: SpecLocations,
): Promise<SpecProblem[]> {
  const problems: SpecProblem[] = [];
  for (const spec of specFile.specs) {
    for (const [i, rel] of spec.test.files.entries()) {
      const stat = await fs.stat(path.resolve(workspaceDir, rel)).catch(() => undefined);
      if (stat?.isFile()) continue;
      const at = locations.locateSpec(spec.id, ['test', 'files', i]) ?? { line: 1, column: 1 };
      problems.push({
        file,
        line: at.line,
        column: at.column,
        path: `specs[${locations.specIndex(spec.id) ?? 0}].test.files[${i}]`,
        message: stat
          ? `test file "${rel}" is a folder: list the test files themselves, or they stay unprotected`
          : `test file "${rel}" does not exist: the real test stays unprotected (fix the path)`,
        severity: 'warning',
      });
    }
  }
  return problems;
}
