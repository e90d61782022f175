// Loaded by the extension host when extensionTestsPath points here (test/vscode/runInHost.ts, or
// test/vscode/runElectron.ts). Runs the suite named by WEAVE_SUITE (a folder next to this file) with mocha and
// leaves {passed, failed} in WEAVE_TEST_RESULTS, which survives any problem forwarding the host's logs.
// WEAVE_TEST_FILES (lines, each part of a file name) runs only the matching files, WEAVE_TEST_GREP only the matching
// tests, WEAVE_TEST_REVERSE the files in reverse order: every file sets up what it needs and undoes its edits, so
// any file runs alone and in any order. activation.test.js alone asserts the state of a fresh host (nothing
// checked, nothing indexed yet), so it always runs first.
import fs from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const suite = process.env.WEAVE_SUITE ?? 'trusted';
  const dir = path.join(__dirname, suite);
  const grep = process.env.WEAVE_TEST_GREP;
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 120_000, ...(grep ? { grep } : {}) });
  for (const f of selectedFiles(dir)) mocha.addFile(path.join(dir, f));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const results = process.env.WEAVE_TEST_RESULTS;
      if (results) {
        // What ran: with a grep, the tests it left out are neither passed nor failed.
        const passed = runner.stats?.passes ?? 0;
        fs.writeFileSync(results, `${JSON.stringify({ suite, passed, failed: failures })}\n`);
      }
      if (failures > 0) reject(new Error(`${failures} test(s) failed in suite ${suite}`));
      else resolve();
    });
  });
}

function selectedFiles(dir: string): string[] {
  const wanted = (process.env.WEAVE_TEST_FILES ?? '').split('\n').filter((w) => w !== '');
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.js') && (wanted.length === 0 || wanted.some((w) => f.includes(w))))
    .sort();
  if (process.env.WEAVE_TEST_REVERSE) files.reverse();
  const fresh = files.filter((f) => f === 'activation.test.js');
  const rest = files.filter((f) => f !== 'activation.test.js');
  if (files.length === 0) throw new Error(`no test file in ${dir} matches ${wanted.join(', ')}`);
  return [...fresh, ...rest];
}
