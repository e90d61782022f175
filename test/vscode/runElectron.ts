// The same in-host suite under desktop VS Code, for people with internet access: @vscode/test-electron
// downloads VS Code (it cannot here: no route to update.code.visualstudio.com, see E2E.md; CI uses
// runInHost.ts with code-server instead). test-electron always passes --disable-workspace-trust, so only the
// trusted suite runs here; the untrusted one needs runInHost.ts.
// Usage: npm run test:electron   (prints "N passed, N failed" last)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { prepareWorkspace, REPO_ROOT } from './codeServer';

async function main(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-electron-'));
  const resultsFile = path.join(scratch, 'results.json');
  let outcome = { passed: 0, failed: 1 };
  try {
    const workspace = prepareWorkspace(
      path.join(REPO_ROOT, 'test/fixtures/vscode-ws'),
      path.join(scratch, 'ws'),
    );
    await runTests({
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: path.join(REPO_ROOT, 'out/test/integration/index.js'),
      launchArgs: [workspace, '--disable-extensions', `--user-data-dir=${path.join(scratch, 'user-data')}`],
      extensionTestsEnv: {
        WEAVE_SUITE: 'trusted',
        WEAVE_TEST_RESULTS: resultsFile,
        WEAVE_REPO_ROOT: REPO_ROOT,
      },
    }).catch((e: unknown) => console.error(e instanceof Error ? e.message : e));
    if (fs.existsSync(resultsFile))
      outcome = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as typeof outcome;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`${outcome.passed} passed, ${outcome.failed} failed`);
  process.exitCode = outcome.failed === 0 ? 0 : 1;
}

void main();
