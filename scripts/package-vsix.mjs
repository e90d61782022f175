// Packages the extension: `node scripts/package-vsix.mjs [OUT.vsix]` (`npm run package`; the UI tests call it too,
// so what they install is what ships). The Extensions page shows README.extension.md — what the extension does,
// its commands and settings — not this repository's README, which is for developers. Its screenshot link stays
// relative (--no-rewrite-relative-links): vsce would otherwise need the package's https home (package.json's
// `repository`, still a placeholder) to rewrite it, which the Marketplace needs. VS Code's Extensions page loads
// README images only from https URLs, so an installed VSIX shows the screenshot's alt text until then. Nothing
// offline gets past that (code-server 1.139's workbench.js): the page sanitizes the README with media protocols
// [http, https] (the extension editor's renderMarkdown passes only link protocols, so sanitizeHtml's default
// holds) and no relative paths, which strips a `data:` PNG and a packaged file's path; its CSP
// (`img-src https: data:`) then refuses http. Tried: the screenshot inlined as a PNG data URI packaged (vsce
// accepts it only because this script skips its link rewriting; with rewriting it says "must come from an
// HTTPS source") and the installed page showed the <img> with an empty src and naturalWidth 0.
// The bundles in dist/ are self-contained (`--no-dependencies`); .vscodeignore lists what else the VSIX holds.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? path.join(root, 'weave.vsix');
execFileSync(
  process.execPath,
  [
    path.join(root, 'node_modules/@vscode/vsce/vsce'),
    'package',
    '--no-dependencies',
    '--allow-missing-repository',
    '--skip-license',
    '--readme-path',
    'README.extension.md',
    '--no-rewrite-relative-links',
    '-o',
    path.resolve(out),
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
