// Finds the grammars/ folder and web-tree-sitter's runtime .wasm relative to the running file, which is
// either a bundle in dist/ (dist/cli.js, dist/extension.js, dist/parseWorker.js) or a transpiled module in
// out/src/core/ (unit tests, benches). One resolver for both layouts. In the base, not in core/index: the guard
// (dist/guard.js, run on every tool call) finds the bash grammar without entering the indexer's barrel.
import fs from 'node:fs';
import path from 'node:path';

export interface GrammarLocation {
  /** Folder holding <language>.wasm and queries/<language>/*.scm. */
  grammarsDir: string;
  /** web-tree-sitter.wasm, the tree-sitter runtime compiled to WebAssembly. */
  runtimeWasm: string;
}

let cached: GrammarLocation | undefined;

export function locateGrammars(fromDir: string = __dirname): GrammarLocation {
  if (cached && fromDir === __dirname) return cached;
  let grammarsDir: string | undefined;
  let runtimeWasm: string | undefined;
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    runtimeWasm ??= [
      path.join(dir, 'web-tree-sitter.wasm'),
      path.join(dir, 'dist', 'web-tree-sitter.wasm'),
      path.join(dir, 'node_modules', 'web-tree-sitter', 'web-tree-sitter.wasm'),
    ].find((f) => fs.existsSync(f));
    if (!grammarsDir && fs.existsSync(path.join(dir, 'grammars', 'manifest.json')))
      grammarsDir = path.join(dir, 'grammars');
    if ((grammarsDir && runtimeWasm) || path.dirname(dir) === dir) break;
  }
  if (!grammarsDir || !runtimeWasm) {
    throw new Error(
      `tree-sitter grammars not found above ${fromDir} (grammars/manifest.json and web-tree-sitter.wasm): run \`npm run build\``,
    );
  }
  const location = { grammarsDir, runtimeWasm };
  if (fromDir === __dirname) cached = location;
  return location;
}
