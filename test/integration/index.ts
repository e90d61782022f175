// Loaded by the extension host when extensionTestsPath points here (test/vscode/runInHost.ts, or
// test/vscode/runElectron.ts). Runs the suite named by WEAVE_SUITE (a folder next to this file) with mocha and
// leaves {passed, failed} in WEAVE_TEST_RESULTS, which survives any problem forwarding the host's logs.
import fs from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const suite = process.env.WEAVE_SUITE ?? 'trusted';
  const dir = path.join(__dirname, suite);
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 120_000 });
  for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.test.js')) mocha.addFile(path.join(dir, f));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => {
      const stats = mocha.suite.total();
      const results = process.env.WEAVE_TEST_RESULTS;
      if (results) {
        const passed = Math.max(0, stats - failures);
        fs.writeFileSync(results, `${JSON.stringify({ suite, passed, failed: failures })}\n`);
      }
      if (failures > 0) reject(new Error(`${failures} test(s) failed in suite ${suite}`));
      else resolve();
    });
  });
}
