// Runs a plain-Node test layer (out/test/<layer>/**/*.test.js, built by `npm run build`) with node:test.
// `node scripts/run-node-tests.mjs [--layer unit|e2e] [filter…]`: the layer defaults to unit (in-process tests that
// run in seconds); e2e holds the CLI, agent, sandbox and export end-to-end tests (real processes, git, bwrap).
// Extra arguments filter test files by substring: `npm run test:unit -- spec runner`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { nodeVersionProblem } from './check-node.mjs';
import { projectNode, reexecUnder, toolsDir } from './toolchain.mjs';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
// Run directly (not only through `npm test`), a layer on an older Node would fail test by test with no word why:
// hand over to the tool cache's Node 24 when it is there, else say how to get it.
const versionProblem = nodeVersionProblem(
  process.versions.node,
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node,
);
if (versionProblem !== undefined) {
  const node = projectNode(toolsDir());
  if (fs.existsSync(node))
    process.exit(reexecUnder(node, new URL(import.meta.url).pathname, process.argv.slice(2)));
  console.error(
    `${versionProblem} \`npm run setup\` installs Node 24 into ${toolsDir()} (\`npm test\` does it too).`,
  );
  process.exit(1);
}
const args = process.argv.slice(2);
const layerAt = args.indexOf('--layer');
const layer = layerAt === -1 ? 'unit' : args.splice(layerAt, 2)[1];
if (layer !== 'unit' && layer !== 'e2e') {
  console.error(`--layer is unit or e2e, not ${String(layer)}`);
  process.exit(2);
}
const dir = path.join(root, 'out/test', layer);
const filters = args;
const files = fs
  .readdirSync(dir, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.js'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort()
  .map((f) => path.join(dir, f));
if (files.length === 0) {
  console.error(`no ${layer} test files found: run \`npm run build\` first`);
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=300000', ...files], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(r.status ?? 1);
