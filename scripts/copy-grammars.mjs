// Copies each language's .wasm and stock queries from its official grammar npm package into grammars/,
// and records where each came from (package name + version) in grammars/manifest.json.
// Our own queries (imports.scm) live in grammars/queries/<language>/ and are committed.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const require = createRequire(import.meta.url);
const grammars = [
  { language: 'typescript', pkg: 'tree-sitter-typescript', wasm: 'tree-sitter-typescript.wasm' },
  { language: 'tsx', pkg: 'tree-sitter-typescript', wasm: 'tree-sitter-tsx.wasm' },
  { language: 'javascript', pkg: 'tree-sitter-javascript', wasm: 'tree-sitter-javascript.wasm' },
  { language: 'python', pkg: 'tree-sitter-python', wasm: 'tree-sitter-python.wasm' },
  { language: 'go', pkg: 'tree-sitter-go', wasm: 'tree-sitter-go.wasm' },
  { language: 'rust', pkg: 'tree-sitter-rust', wasm: 'tree-sitter-rust.wasm' },
  { language: 'java', pkg: 'tree-sitter-java', wasm: 'tree-sitter-java.wasm' },
  // Not indexed: `weave guard` parses agents' shell commands with it (src/cli/guard/bashSyntax.ts).
  { language: 'bash', pkg: 'tree-sitter-bash', wasm: 'tree-sitter-bash.wasm' },
];
const manifest = {};
for (const g of grammars) {
  const pkgDir = path.dirname(require.resolve(`${g.pkg}/package.json`));
  const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
  fs.copyFileSync(path.join(pkgDir, g.wasm), path.join(root, 'grammars', `${g.language}.wasm`));
  const qdir = path.join(root, 'grammars', 'queries', g.language);
  fs.mkdirSync(qdir, { recursive: true });
  for (const q of ['tags.scm', 'highlights.scm', 'locals.scm']) {
    const src = path.join(pkgDir, 'queries', q);
    if (fs.existsSync(src)) fs.copyFileSync(src, path.join(qdir, q));
  }
  manifest[g.language] = { package: g.pkg, version, wasm: g.wasm };
}
fs.writeFileSync(path.join(root, 'grammars', 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
