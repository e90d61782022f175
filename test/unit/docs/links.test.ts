// The documentation's links resolve: every relative link in README.md, README.extension.md, ARCHITECTURE.md and
// docs/**/*.md names a file or folder of the repository, and every #anchor a heading of the page it points to.
// The README stays a five-minute read that leads to every reference page.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../../support/paths';

interface Markdown {
  headings: (text: string) => Array<{ level: number; text: string; anchor: string; line: number }>;
  links: (text: string) => Array<{ target: string; line: number }>;
}

async function markdown(): Promise<Markdown> {
  return (await import(pathToFileURL(path.join(REPO_ROOT, 'scripts/markdownLinks.mjs')).href)) as Markdown;
}

function docPages(): string[] {
  const docs = fs
    .readdirSync(path.join(REPO_ROOT, 'docs'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f));
  return ['README.md', 'README.extension.md', 'ARCHITECTURE.md', ...docs];
}

/** Each broken link of `page` as `page:line: target (why)`. */
function brokenLinks(md: Markdown, page: string): string[] {
  const text = fs.readFileSync(path.join(REPO_ROOT, page), 'utf8');
  const broken: string[] = [];
  for (const { target, line } of md.links(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …: not this test's to resolve
    const [file = '', anchor] = target.split('#');
    const resolved =
      file === ''
        ? path.join(REPO_ROOT, page)
        : path.resolve(path.dirname(path.join(REPO_ROOT, page)), decodeURI(file));
    const where = `${page}:${line}: ${target}`;
    if (!resolved.startsWith(REPO_ROOT + path.sep) || !fs.existsSync(resolved)) {
      broken.push(`${where} (no such file)`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!resolved.endsWith('.md')) {
      broken.push(`${where} (an anchor into a file that is not Markdown)`);
      continue;
    }
    const anchors = md.headings(fs.readFileSync(resolved, 'utf8')).map((h) => h.anchor);
    if (!anchors.includes(anchor)) broken.push(`${where} (no heading with that anchor)`);
  }
  return broken;
}

describe('the documentation', () => {
  test('every relative link and anchor in README.md, ARCHITECTURE.md and docs/ resolves', async () => {
    const md = await markdown();
    const pages = docPages();
    assert.ok(pages.length > 10, `docs/ has its pages: ${pages.join(', ')}`);
    assert.deepEqual(
      pages.flatMap((page) => brokenLinks(md, page)),
      [],
    );
  });

  test('a link to a missing page or heading is reported with its line', async () => {
    const md = await markdown();
    const dir = fs.mkdtempSync(path.join(REPO_ROOT, 'out', 'links-'));
    try {
      const page = path.relative(REPO_ROOT, path.join(dir, 'page.md'));
      fs.writeFileSync(
        path.join(dir, 'page.md'),
        '# Page\n\n## A heading: `code`\n\n[ok](#a-heading-code) [gone](nowhere.md)\n```sh\n[skipped](in-code.md)\n```\n[bad](#not-here) [file](../../package.json#x)\n',
      );
      assert.deepEqual(brokenLinks(md, page), [
        `${page}:5: nowhere.md (no such file)`,
        `${page}:9: #not-here (no heading with that anchor)`,
        `${page}:9: ../../package.json#x (an anchor into a file that is not Markdown)`,
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the README is a five-minute read (at most 300 lines) that links every docs/ page', () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const lines = readme.split('\n').length;
    assert.ok(lines <= 300, `README.md has ${lines} lines`);
    const unlinked = fs
      .readdirSync(path.join(REPO_ROOT, 'docs'))
      .filter((f) => f.endsWith('.md') && !readme.includes(`](docs/${f})`));
    assert.deepEqual(unlinked, [], 'docs/ pages the README does not link');
  });
});
