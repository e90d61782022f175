// Builds everything from source: bundles (esbuild), a plain-Node transpile of src/media/test/bench for the
// tests (out/), the grammars copied from the official grammar packages, and the JSON Schema of specs.json.
// tsc only type-checks (npm run typecheck).
import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const require = createRequire(import.meta.url);
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const production = process.argv.includes('--production');

function listTs(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .filter(
      (f) => !/(^|\/)(fixtures|work|node_modules)\//.test(path.relative(root, f).split(path.sep).join('/')),
    );
}

// web-tree-sitter's ESM build reads import.meta.url; bundling to CJS needs its .cjs build (ARCHITECTURE.md "Notes").
const webTreeSitterCjs = require.resolve('web-tree-sitter').replace(/\.js$/, '.cjs');
const jsoncParserEsm = path.join(
  path.dirname(require.resolve('jsonc-parser/package.json')),
  'lib/esm/main.js',
);
const nodeBundle = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  sourcemap: !production,
  minify: production,
  external: ['vscode'],
  // jsonc-parser's UMD entry loads its parts with a runtime require() esbuild cannot follow: bundle its ESM build.
  alias: { 'web-tree-sitter': webTreeSitterCjs, 'jsonc-parser': jsoncParserEsm },
  logLevel: 'warning',
};

// No clean step: several builds may run at once during development, and a fresh clone has no dist/ or out/.
fs.mkdirSync(path.join(root, 'dist'), { recursive: true });

// 1. grammars (.wasm + queries) from the grammar packages
execFileSync(process.execPath, [path.join(root, 'scripts', 'copy-grammars.mjs')], { stdio: 'inherit' });

// 2. bundles
const entries = [
  ['src/extension/main.ts', 'dist/extension.js'],
  ['src/cli/main.ts', 'dist/cli.js'],
  // The hook program alone: agents start it on every tool call (src/cli/guardMain.ts), through a launcher that
  // turns on the compile cache before the bundle loads (src/cli/guardLauncher.ts).
  ['src/cli/guardLauncher.ts', 'dist/guard.js'],
  ['src/cli/guardMain.ts', 'dist/guard-program.js'],
  ['src/core/index/parseWorker.ts', 'dist/parseWorker.js'],
].filter(([src]) => fs.existsSync(path.join(root, src)));
await Promise.all(
  entries.map(([src, out]) =>
    esbuild.build({
      ...nodeBundle,
      entryPoints: [path.join(root, src)],
      outfile: path.join(root, out),
      define: { WEAVE_VERSION: JSON.stringify(pkg.version) },
      ...(out === 'dist/cli.js' ? { banner: { js: '#!/usr/bin/env node' } } : {}),
    }),
  ),
);
if (fs.existsSync(path.join(root, 'dist/cli.js'))) fs.chmodSync(path.join(root, 'dist/cli.js'), 0o755);
fs.copyFileSync(
  require.resolve('web-tree-sitter/web-tree-sitter.wasm'),
  path.join(root, 'dist/web-tree-sitter.wasm'),
);

// webview front ends (browser bundles): the side panel and the large graph view. elkjs comes in as its
// synchronous elk.bundled.js (no web worker: the webviews' CSP admits only the nonce'd bundle).
for (const [src, out] of [
  ['media/src/main.ts', 'dist/webview.js'],
  ['media/src/graphView.ts', 'dist/graphView.js'],
].filter(([src]) => fs.existsSync(path.join(root, src)))) {
  await esbuild.build({
    entryPoints: [path.join(root, src)],
    outfile: path.join(root, out),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  });
}
// Runner hooks Weave injects into spec test commands (src/core/check/evidence), found at run time next to the
// bundles: the Node.js hook and the pytest plugin with the entry point pytest discovers it by.
fs.cpSync(path.join(root, 'resources/evidence'), path.join(root, 'dist/evidence'), { recursive: true });
const codicons = path.dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
fs.mkdirSync(path.join(root, 'dist/codicons'), { recursive: true });
for (const f of ['codicon.css', 'codicon.ttf'])
  fs.copyFileSync(path.join(codicons, f), path.join(root, 'dist/codicons', f));

// 3. plain-Node transpile (no bundling) for node --test and the in-host mocha suites; media/src too, whose
// DOM-free parts (graph layout, request bookkeeping) are unit-tested in plain Node.
const sources = [
  ...listTs(path.join(root, 'src')),
  ...listTs(path.join(root, 'media/src')),
  ...listTs(path.join(root, 'test')),
  ...listTs(path.join(root, 'bench')),
];
await esbuild.build({
  entryPoints: sources,
  outdir: path.join(root, 'out'),
  outbase: root,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  sourcemap: 'inline',
  define: { WEAVE_VERSION: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});

// 4. JSON Schemas of .weave/specs.json, generated from the zod schema: the whole one, and the one VS Code reads
// for completion (package.json jsonValidation; src/core/spec/jsonSchema.ts says why it does not validate)
const schemaModule = path.join(root, 'out/src/core/spec/jsonSchema.js');
if (fs.existsSync(schemaModule)) {
  const { specFileJsonSchema, specFileEditingSchema } = require(schemaModule);
  fs.writeFileSync(
    path.join(root, 'dist/specs.schema.json'),
    JSON.stringify(specFileJsonSchema(), null, 2) + '\n',
  );
  fs.writeFileSync(
    path.join(root, 'dist/specs.editing.schema.json'),
    JSON.stringify(specFileEditingSchema(), null, 2) + '\n',
  );
}
console.log(`built ${entries.length} bundles, ${sources.length} transpiled files`);
