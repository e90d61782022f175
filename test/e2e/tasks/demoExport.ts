// The demo workspace exported as a task the way a user's workspace usually is: an uncommitted fix with secrets, an
// ignored file, an untracked helper and Weave's own cache around it. Shared by the export round trip (what the
// export wrote and left out) and the eval of predictions against the exported task.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportTask, type ExportResult } from '../../../src/core/tasks/export/exportTask';
import { applyPatch, makeDemoRepo, readPatch, treeFingerprint, type DemoRepo } from '../../support/demoRepo';

// Built by concatenation so the repository itself holds no secret-looking literal.
export const FAKE_OPENAI_KEY = ['sk-', 'proj-', 'abcdefghijklmnopqrstuvwxyz0123456789'].join('');
export const FAKE_AWS_KEY = ['AKIA', 'Z7QRSTUVWX2345YZ'].join('');
export const FAKE_GOOGLE_KEY = ['AI', 'za', 'Sy', 'B1x2C3v4N5m6Q7w8E9r0T_y-U1i2O3p4a'].join('');

export interface DemoExport {
  repo: DemoRepo;
  /** Holds the task folder and the dataset file; the eval adds its own files here. */
  scratch: string;
  taskDir: string;
  result: ExportResult;
  /** The user's repository before and after the export. */
  fingerprintBefore: Map<string, string>;
  fingerprintAfter: Map<string, string>;
  cleanup(): void;
}

export async function exportDemoWithSurroundings(): Promise<DemoExport> {
  const repo = makeDemoRepo();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-out-'));
  const taskDir = path.join(scratch, 'task');
  applyPatch(repo.workspace, readPatch('fix-secret-caching.patch'));
  // Around the change: secrets (never exported), an ignored file, an untracked helper (exported).
  fs.writeFileSync(path.join(repo.workspace, '.env'), `OPENAI_API_KEY=${FAKE_OPENAI_KEY}\n`);
  fs.writeFileSync(path.join(repo.workspace, 'server.key'), 'not really a key, but named like one\n');
  fs.writeFileSync(path.join(repo.workspace, '.envrc'), 'export DEPLOY_TOKEN=direnv-value\n');
  fs.writeFileSync(path.join(repo.workspace, 'env.local'), 'DEPLOY_TOKEN=local-value\n');
  fs.writeFileSync(path.join(repo.workspace, 'src', 'maps.js'), `module.exports = '${FAKE_GOOGLE_KEY}';\n`);
  fs.writeFileSync(path.join(repo.workspace, 'notes.txt'), `aws ${FAKE_AWS_KEY} for later\n`);
  fs.mkdirSync(path.join(repo.workspace, 'node_modules'));
  fs.writeFileSync(
    path.join(repo.workspace, 'node_modules', 'ignored.js'),
    'module.exports = "IGNORED_MARKER";\n',
  );
  fs.writeFileSync(
    path.join(repo.workspace, 'src', 'auth.js'),
    `// Lives in ${repo.workspace}\nmodule.exports = {};\n`,
  );
  fs.mkdirSync(path.join(repo.workspace, '.weave', 'cache'), { recursive: true });
  fs.writeFileSync(path.join(repo.workspace, '.weave', 'cache', 'index.json'), '"WEAVE_CACHE_MARKER"\n');
  const fingerprintBefore = treeFingerprint(repo.root);
  const result = await exportTask({
    workspaceDir: repo.workspace,
    outDir: taskDir,
    datasetFile: path.join(scratch, 'dataset.jsonl'),
    weaveVersion: 'test',
  });
  const fingerprintAfter = treeFingerprint(repo.root);
  return {
    repo,
    scratch,
    taskDir,
    result,
    fingerprintBefore,
    fingerprintAfter,
    cleanup: () => {
      repo.cleanup();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}
