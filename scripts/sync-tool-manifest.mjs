// Writes package.json's `contributes.languageModelTools` from the zod schemas of src/mcp/toolSchemas.ts (run after
// `npm run build`). test/unit/mcp/manifest.test.ts fails when the two drift apart.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const require = createRequire(import.meta.url);
const { languageModelToolContributions } = require(path.join(root, 'out/src/mcp/toolSchemas.js'));
const file = path.join(root, 'package.json');
const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
pkg.contributes.languageModelTools = languageModelToolContributions();
fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`package.json: ${pkg.contributes.languageModelTools.length} language model tools`);
