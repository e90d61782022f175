// Selection over a partial index (the changed and anchored files, then what the needed cones reach) selects
// exactly what selection over the full workspace index selects, with the same reasons, and parses no more than
// those cones: checked with a one-line edit of every source file of three fixtures in real project shapes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { loadAnchoredWorkspace } from '../../../src/core/anchors/anchoredWorkspace';
import { languageOfPath } from '../../../src/core/index/languages';
import { affectedSpecs } from '../../../src/core/selection/affected';
import { selectAffected } from '../../../src/core/selection/selectAffected';
import { changedFilesSince } from '../../../src/core/git/changes';
import { specCones } from '../../../src/core/selection/cones';
import {
  copyWorkspace,
  git,
  initRepo,
  pyslimFixture,
  removeDir,
  slugkitFixture,
  tinylibFixture,
  writeFiles,
} from '../../support/repos';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) removeDir(dir);
  dir = undefined;
});

/** A fixture plus a folder of modules no test loads (what a large workspace mostly is, seen from one spec). */
function workspace(fixture: string): string {
  dir = copyWorkspace(fixture);
  const unrelated: Record<string, string> = { '.gitignore': '__pycache__/\n.pytest_cache/\n' };
  for (let i = 0; i < 20; i++) unrelated[`vendor/other/mod${i}.js`] = `exports.f${i} = () => ${i};\n`;
  writeFiles(dir, unrelated);
  initRepo(dir);
  return dir;
}

async function fullIndexSelection(root: string) {
  const ws = await loadAnchoredWorkspace(root, { useCache: false });
  const changes = await changedFilesSince(root, 'HEAD');
  return affectedSpecs({
    specFile: ws.specFile,
    index: ws.index,
    changes,
    resolved: ws.resolved,
    workspaceDir: ws.workspaceDir,
    specFilePath: ws.specFilePath,
  });
}

for (const [name, fixture] of [
  ['tinylib (npm, require(..))', tinylibFixture],
  ['pyslim (src layout, __init__ re-exports)', pyslimFixture],
  ['slugkit (Python package)', slugkitFixture],
] as const) {
  void test(`${name}: every one-line edit selects as the full index does, parsing only the cones`, async () => {
    const root = workspace(fixture);
    const sources = git(root, 'ls-files')
      .split('\n')
      .filter((f) => f !== '' && languageOfPath(f) !== undefined && !f.startsWith('vendor/'));
    assert.ok(sources.length >= 4, sources.join(', '));
    const full = await loadAnchoredWorkspace(root, { useCache: false });
    const cones = specCones(full.specFile, full.index, { workspaceDir: root, resolved: full.resolved });
    const coneFiles = new Set([...cones.values()].flatMap((c) => [...c.parent.keys()]));
    for (const file of sources) {
      const abs = path.join(root, file);
      const before = fs.readFileSync(abs, 'utf8');
      fs.writeFileSync(abs, `${before}${file.endsWith('.py') ? '# edited' : '// edited'}\n`);
      try {
        const lazy = await selectAffected({ workspaceDir: root, since: 'HEAD', useCoverage: false });
        const expected = await fullIndexSelection(root);
        assert.deepEqual(
          { all: lazy.all, affected: lazy.affected, notSelected: lazy.notSelected },
          { all: expected.all, affected: expected.affected, notSelected: expected.notSelected },
          file,
        );
        // No coverage: every spec needs its cone. What was parsed is those cones, the anchored and the changed
        // files; none of the modules no test loads.
        const needed = new Set([
          ...coneFiles,
          file,
          ...[...full.resolved.values()].flat().map((a) => a.file),
        ]);
        const indexed = [...needed].filter((f) => full.index.files.has(f));
        assert.equal(lazy.parsed.files, indexed.length, file);
        assert.ok(
          lazy.parsed.files < full.index.files.size - 10,
          `${lazy.parsed.files} of ${full.index.files.size}`,
        );
      } finally {
        fs.writeFileSync(abs, before);
      }
    }
  });
}
