// The code-intelligence verbs on a repository we did not write: a small Python package (src layout, pytest,
// conftest.py, relative imports inside the package).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { selectAffected } from '../../../src/core/selection/selectAffected';
import { blameSpec } from '../../../src/core/blame/blame';
import { indexWorkspace } from '../../../src/core/anchors/anchoredWorkspace';
import { copyWorkspace, initRepo, removeDir, slugkitFixture, writeFiles } from '../../support/repos';

let dir: string;
beforeEach(() => {
  dir = copyWorkspace(slugkitFixture);
  writeFiles(dir, { '.gitignore': '__pycache__/\n.pytest_cache/\n' });
  initRepo(dir);
});
afterEach(() => removeDir(dir));

const ids = (r: { affected: Array<{ id: string }> }) => r.affected.map((s) => s.id);

void test('affected: package modules reach every test through __init__; a test file only its spec', async () => {
  let result = await selectAffected({ workspaceDir: dir, files: ['src/slugkit/translit.py'] });
  assert.deepEqual(ids(result), ['ascii-slugs', 'transliteration', 'unique-slugs']);
  const ascii = result.affected[0]!;
  assert.ok(
    ascii.reasons.some((r) =>
      r.startsWith('src/slugkit/translit.py is in its import cone (tests/test_slugify.py → '),
    ),
    ascii.reasons.join('\n'),
  );
  result = await selectAffected({ workspaceDir: dir, files: ['tests/test_unique.py'] });
  assert.deepEqual(ids(result), ['unique-slugs']);
  // pytest loads conftest.py for every test below it, although nothing imports it.
  result = await selectAffected({ workspaceDir: dir, files: ['tests/conftest.py'] });
  assert.deepEqual(ids(result), ['ascii-slugs', 'transliteration', 'unique-slugs']);
  result = await selectAffected({ workspaceDir: dir, files: ['pyproject.toml'] });
  assert.equal(result.all, true);
});

void test('blame: a broken word-boundary cut is traced to Slugger._truncate, anchored by ascii-slugs', async () => {
  const core = path.join(dir, 'src/slugkit/core.py');
  const text = fs.readFileSync(core, 'utf8');
  // Two edits: a harmless docstring change and the breaking one.
  fs.writeFileSync(
    core,
    text
      .replace('"""Slug rules: lower case', '"""Slug rules (v2): lower case')
      .replace('cut = cut.rsplit(self.separator, 1)[0]', 'cut = cut.rstrip(self.separator)'),
  );
  const result = await blameSpec({
    workspaceDir: dir,
    specId: 'unique-slugs',
    baselineRef: 'HEAD',
    loadIndex: (d) => indexWorkspace(d, { useCache: false }),
  }).catch((e: unknown) => e);
  // unique-slugs does not exercise the cut: it is not broken.
  assert.ok(
    result instanceof Error && /not broken|passes with every change/.test(result.message),
    String(result),
  );

  // ascii-slugs depends on the cut.
  const blamed = await blameSpec({
    workspaceDir: dir,
    specId: 'ascii-slugs',
    baselineRef: 'HEAD',
    loadIndex: (d) => indexWorkspace(d, { useCache: false }),
  });
  assert.equal(blamed.totalHunks, 2);
  assert.deepEqual(
    blamed.hunks.map((h) => [h.file, h.symbols]),
    [['src/slugkit/core.py', ['Slugger._truncate']]],
  );
  assert.match(
    blamed.explanation[0]!,
    /^the edit to `Slugger\._truncate` \(src\/slugkit\/core\.py:\d+\) breaks `ascii-slugs`$/,
  );
});
