// The README's first command (after `npm ci`): builds Weave and checks the demo workspace in examples/.
// The demo ships with one failing spec on purpose (no-secret-caching), so `weave check` exiting 1 is the
// expected outcome here; anything else (a bad spec file, a crash) fails the demo.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status;

if (run([path.join(root, 'scripts/build.mjs')]) !== 0) process.exit(1);
console.log('\n$ weave check --workspace examples');
const status = run([path.join(root, 'dist/cli.js'), 'check', '--workspace', 'examples']);
if (status !== 0 && status !== 1) process.exit(status ?? 1);
console.log(`
The demo's no-secret-caching spec fails on purpose. Next steps (docs/demo.md):
  node dist/cli.js graph --workspace examples                  # declared + potential interactions
  (cd examples && git apply patches/break-staleness.patch)      # then check again: no-stale-read is broken
  node dist/cli.js blame no-stale-read --workspace examples     # which hunk broke it
  (cd examples && git apply -R patches/break-staleness.patch)`);
