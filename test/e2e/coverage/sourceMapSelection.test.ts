// Source-mapped coverage on real transpiled libraries (dependencies from the npm registry, see
// test/support/transpiledLibraries.ts): vitest over one src/index.ts (vite transforms it in memory, with inline
// maps) and tsc compiling lib/*.ts in `pretest` to a git-ignored build/ with source maps. A one-line change in one
// function selects exactly the spec whose test ran it; without source maps the fallback says why and how to
// enable them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { selectAffected } from '../../../src/core/selection/selectAffected';
import { git, initRepo, removeDir, tempDir } from '../../support/repos';
import {
  TRANSPILED_SPECS,
  writeTranspiledLibrary,
  type TranspiledKind,
} from '../../support/transpiledLibraries';

/** Replaces the first `from` in `file` (a one-line mutant). */
function mutate(dir: string, file: string, from: string, to: string): void {
  const full = path.join(dir, file);
  const text = fs.readFileSync(full, 'utf8');
  assert.ok(text.includes(from), `${file} has ${from}`);
  fs.writeFileSync(full, text.replace(from, to));
}

function library(kind: TranspiledKind): () => string {
  let dir = '';
  before(async () => {
    dir = tempDir(`weave-sourcemaps-${kind}-`);
    writeTranspiledLibrary(dir, kind);
    initRepo(dir);
    // One spec at a time: tsc in each spec's pretest rewrites build/, which another spec's test may be reading.
    const result = await checkWorkspace({ workspaceDir: dir, concurrency: kind === 'tsc' ? 1 : 2 });
    assert.deepEqual(
      result.run.results.filter((r) => r.verdict !== 'pass').map((r) => [r.id, r.verdict]),
      [],
    );
    assert.equal(result.coverage?.specs, TRANSPILED_SPECS.length);
  });
  after(() => removeDir(dir));
  return () => dir;
}

void describe('vitest over TypeScript: coverage maps through vite’s inline source maps', () => {
  const dir = library('vitest');

  void test('a change in one function selects only the specs that ran it', async () => {
    try {
      mutate(dir(), 'src/index.ts', 'return a * factor + b;', 'return a + factor + b;');
      const result = await selectAffected({ workspaceDir: dir(), since: 'HEAD' });
      assert.equal(result.all, false, result.allReasons.join('\n'));
      assert.deepEqual(
        result.affected.map((s) => s.id),
        ['scale'],
      );
      assert.match(
        result.affected[0]!.reasons.join('\n'),
        /src\/index\.ts:\d+ is in scale, which its test executed \(mapped through its source map\)/,
      );
      // sum is called by mean: a change in sum selects both specs, and only them.
      git(dir(), 'checkout', '-q', '--', '.');
      mutate(dir(), 'src/index.ts', 'for (const x of xs) total += x;', 'for (const x of xs) total -= x;');
      const inSum = await selectAffected({ workspaceDir: dir(), since: 'HEAD' });
      assert.deepEqual(
        inSum.affected.map((s) => s.id),
        ['sum', 'mean'],
      );
    } finally {
      git(dir(), 'checkout', '-q', '--', '.');
    }
  });
});

void describe('tsc to a git-ignored build/: coverage maps through the .js.map files next to the output', () => {
  const dir = library('tsc');

  void test('a change in one function of lib/ selects only the specs that ran it, through build/’s maps', async () => {
    try {
      mutate(dir(), 'lib/text.ts', "return key + '=' + shown;", "return key + ':' + shown;");
      const result = await selectAffected({ workspaceDir: dir(), since: 'HEAD' });
      assert.equal(result.all, false, result.allReasons.join('\n'));
      assert.deepEqual(
        result.affected.map((s) => s.id),
        ['key-value'],
      );
      assert.match(
        result.affected[0]!.reasons.join('\n'),
        /lib\/text\.ts:\d+ is in keyValue, which its test executed \(through the source map of build\/text\.js\)/,
      );
    } finally {
      git(dir(), 'checkout', '-q', '--', '.');
    }
  });

  void test('without source maps the fallback names build/ and the one-line change that enables them', async () => {
    mutate(dir(), 'tsconfig.test.json', '"sourceMap": true', '"sourceMap": false');
    git(dir(), 'commit', '-qam', 'no source maps');
    fs.rmSync(path.join(dir(), 'build'), { recursive: true, force: true });
    const recorded = await checkWorkspace({ workspaceDir: dir(), concurrency: 1 });
    assert.ok(recorded.run.results.every((r) => r.verdict === 'pass'));
    mutate(dir(), 'lib/text.ts', "return key + '=' + shown;", "return key + ':' + shown;");
    try {
      const result = await selectAffected({ workspaceDir: dir(), since: 'HEAD' });
      assert.equal(
        result.affected.length,
        TRANSPILED_SPECS.length,
        'every spec: the static cone cannot trace build/',
      );
      const reasons = result.affected.find((s) => s.id === 'key-value')!.reasons.join('\n');
      assert.match(
        reasons,
        /coverage of build\/\w+\.js \(which git does not track\) has no source map; kept per file/,
      );
      // One wording for the same advice wherever a file is kept per file for want of a map.
      assert.match(reasons, /\(to narrow it: compile with source maps: tsc `"sourceMap": true`/);
    } finally {
      git(dir(), 'checkout', '-q', '--', '.');
    }
  });
});
