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
  // `weave`: a launcher that turns on the compile cache (src/cli/cliLauncher.ts), then the CLI bundle.
  ['src/cli/cliLauncher.ts', 'dist/cli.js'],
  ['src/cli/main.ts', 'dist/cli-program.js'],
  // The hook program alone: agents start it on every tool call (src/cli/guardMain.ts), through a launcher that
  // turns on the compile cache before the bundle loads (src/cli/guardLauncher.ts). What it loads on demand is
  // in a second bundle (guardParts below).
  ['src/cli/guardLauncher.ts', 'dist/guard.js'],
  ['src/cli/guardMain.ts', 'dist/guard-program.js'],
  ['src/core/index/parseWorker.ts', 'dist/parseWorker.js'],
].filter(([src]) => fs.existsSync(path.join(root, src)));

// The hook program's on-demand modules (every `import()` of a source file in its graph: the spec model, the
// session start, Stop's spec runner, the shell grammar, the verb's other uses) are left out of
// dist/guard-program.js and bundled in dist/guard-parts.js, each behind a function that loads it; the hook bundle
// reaches one through a small shim that requires that bundle and calls the function when the import runs. A hook
// process that needs none of them reads and compiles ~75 KB instead of ~1.7 MB and evaluates none of them. Shell
// reading has a bundle of its own, dist/guard-shell.js (the reader, plainShell.ts and the command tables): a Bash
// event loads that and not the rest; the bash grammar (web-tree-sitter) is one more, dist/guard-grammar.js, loaded
// only for a command plainShell.ts cannot read.
const guardPartsFileOf = (file) =>
  /src\/cli\/guard\/bashSyntax\.ts$/.test(file)
    ? 'guard-grammar.js'
    : /src\/cli\/guard\/shellVerdict\.ts$/.test(file)
      ? 'guard-shell.js'
      : 'guard-parts.js';
const guardParts = new Map();
const partName = (file) =>
  `part_${path
    .relative(root, file)
    .replace(/\.ts$/, '')
    .replace(/[^A-Za-z0-9]/g, '_')}`;
const guardPartsPlugin = {
  name: 'guard-parts',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData?.guardPart) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { guardPart: true },
      });
      if (resolved.errors.length > 0 || resolved.external) return undefined;
      if (!resolved.path.startsWith(path.join(root, 'src') + path.sep)) return undefined;
      const file = guardPartsFileOf(resolved.path);
      guardParts.set(file, new Set([...(guardParts.get(file) ?? []), resolved.path]));
      return { path: resolved.path, namespace: 'guard-part' };
    });
    build.onLoad({ filter: /.*/, namespace: 'guard-part' }, (args) => ({
      contents:
        `module.exports = require(require('node:path').join(__dirname, ${JSON.stringify(guardPartsFileOf(args.path))}))` +
        `.${partName(args.path)}();`,
      loader: 'js',
    }));
  },
};
const bundle = (src, out, options = {}) =>
  esbuild.build({
    ...nodeBundle,
    entryPoints: [path.join(root, src)],
    outfile: path.join(root, out),
    define: { WEAVE_VERSION: JSON.stringify(pkg.version) },
    ...(out === 'dist/cli.js' ? { banner: { js: '#!/usr/bin/env node' } } : {}),
    ...options,
  });
await Promise.all(
  entries.map(([src, out]) =>
    bundle(src, out, out === 'dist/guard-program.js' ? { plugins: [guardPartsPlugin] } : {}),
  ),
);
for (const [file, parts] of guardParts) {
  await esbuild.build({
    ...nodeBundle,
    // Each part is a function that loads its module when first called: requiring the bundle evaluates nothing.
    stdin: {
      contents: `module.exports = {\n${[...parts]
        .sort()
        .map((part) => `  ${partName(part)}: () => require(${JSON.stringify(part)}),`)
        .join('\n')}\n};`,
      resolveDir: root,
      sourcefile: file,
      loader: 'js',
    },
    outfile: path.join(root, 'dist', file),
    define: { WEAVE_VERSION: JSON.stringify(pkg.version) },
  });
}
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

// The evidence hook's HMAC module is also src/core/sha256.ts's SHA-256: beside the transpiled sources, the path
// out/src/core/sha256.js requires it by resolves as it does from src/.
fs.cpSync(path.join(root, 'resources/evidence'), path.join(root, 'out/resources/evidence'), {
  recursive: true,
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
console.log(`built ${entries.length + guardParts.size} bundles, ${sources.length} transpiled files`);
