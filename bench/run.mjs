// `npm run bench`: runs every compiled benchmark (out/bench/*.bench.js, built by `npm run build`) in turn; each
// prints its own table with its yardstick measured in the same run. Extra arguments filter by file name.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const dir = path.join(root, 'out/bench');
const filters = process.argv.slice(2);
const files = (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no benchmarks found in out/bench: run `npm run build` first');
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file.replace(/\.bench\.js$/, '')} ===`);
  const r = spawnSync(process.execPath, ['--expose-gc', path.join(dir, file)], {
    stdio: 'inherit',
    cwd: root,
  });
  if (r.status !== 0) {
    console.error(`${file} failed (exit ${r.status ?? r.signal})`);
    failed++;
  }
}
process.exit(failed === 0 ? 0 : 1);
