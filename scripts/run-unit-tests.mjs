// Runs every plain-Node unit test (out/test/unit/**/*.test.js, built by `npm run build`) with node:test.
// Extra arguments filter test files by substring: `npm run test:unit -- spec runner`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const dir = path.join(root, 'out/test/unit');
const filters = process.argv.slice(2);
const files = fs
  .readdirSync(dir, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.js'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort()
  .map((f) => path.join(dir, f));
if (files.length === 0) {
  console.error('no unit test files found: run `npm run build` first');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=300000', ...files], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(r.status ?? 1);
