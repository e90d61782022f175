// Every section of a README that was split into docs/ must have landed somewhere: each `##` / `###` heading of the
// old README (a file, e.g. `git show REV:README.md > old.md`) must be a heading of README.md or of a docs/ page.
// `node scripts/check-doc-headings.mjs OLD_README`: prints each heading and where it is; exit 1 if one is missing.
import fs from 'node:fs';
import path from 'node:path';
import { headings } from './markdownLinks.mjs';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const old = process.argv[2];
if (old === undefined) {
  console.error('usage: node scripts/check-doc-headings.mjs OLD_README');
  process.exit(2);
}
const pages = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);
const where = new Map();
for (const page of pages)
  for (const h of headings(fs.readFileSync(path.join(root, page), 'utf8')))
    if (!where.has(h.text)) where.set(h.text, page);
let missing = 0;
for (const h of headings(fs.readFileSync(old, 'utf8')).filter((x) => x.level === 2 || x.level === 3)) {
  const page = where.get(h.text);
  if (page === undefined) missing++;
  console.log(
    `${page === undefined ? 'MISSING' : 'ok     '} ${'#'.repeat(h.level)} ${h.text}${page ? `  → ${page}` : ''}`,
  );
}
console.log(missing === 0 ? 'every section has a home' : `${missing} section(s) missing`);
process.exit(missing === 0 ? 0 : 1);
