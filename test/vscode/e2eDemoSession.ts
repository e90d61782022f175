// The trusted session of the UI end-to-end test on its committed copy of examples/, as its scenarios see it: the
// files they edit or read back, what those held before any step ran, and the workbench's page objects.
import fs from 'node:fs';
import path from 'node:path';
import { specsOnDisk, type Session } from './e2eHarness';
import { Workbench } from './pages/workbench';

/** The demo's spec that fails until its fix is applied. */
export const FAILING_SPEC = 'no-secret-caching';

export interface DemoSession {
  workspace: string;
  cspViolations: string[];
  specsFile: string;
  cacheFile: string;
  originalCache: string;
  /** The comment lines of specs.json, which saving a spec must keep. */
  originalComments: string[];
  expectedIds: string[];
  ui: Workbench;
}

export function demoSession(trusted: Session): DemoSession {
  const { workspace, cspViolations } = trusted;
  const specsFile = path.join(workspace, '.weave/specs.json');
  const cacheFile = path.join(workspace, 'src/cache.js');
  const originalCache = fs.readFileSync(cacheFile, 'utf8');
  const originalComments = specsOnDisk(specsFile).text.match(/^\s*\/\/.*$/gm) ?? [];
  const expectedIds = specsOnDisk(specsFile).specs.map((s) => String(s['id']));
  const ui = new Workbench(trusted.page);
  return {
    workspace,
    cspViolations,
    specsFile,
    cacheFile,
    originalCache,
    originalComments,
    expectedIds,
    ui,
  };
}
