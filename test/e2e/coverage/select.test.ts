// Affected-spec selection from recorded coverage: narrower than the import cones inside a single-module
// library, and safe (static fallback, or every spec, with the reason) wherever coverage cannot decide.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { loadCoverageView } from '../../../src/core/coverage/base';
import type { CoverageDecision } from '../../../src/core/coverage/select';
import { selectAffected, type SelectedAffected } from '../../../src/core/selection/selectAffected';
import { changedFilesSince } from '../../../src/core/git/changes';
import { loadAnchoredWorkspace } from '../../../src/core/anchors/anchoredWorkspace';
import { git, initRepo, removeDir, repoRoot, tempDir, writeFiles } from '../../support/repos';
import { LIBRARY, PYTHON_PACKAGE } from './fixtures';

const ids = (r: SelectedAffected): string[] => r.affected.map((s) => s.id);
const reasonsOf = (r: SelectedAffected, id: string): string =>
  r.affected.find((s) => s.id === id)?.reasons.join('\n') ?? '';

/** A workspace checked once (coverage recorded); each test edits it and puts HEAD back afterwards. */
function recordedWorkspace(files: Record<string, string>): { dir: () => string } {
  let dir = '';
  before(async () => {
    dir = tempDir('weave-coverage-select-');
    writeFiles(dir, files);
    initRepo(dir);
    const result = await checkWorkspace({ workspaceDir: dir, concurrency: 2 });
    assert.ok(
      result.run.results.every((r) => r.verdict === 'pass'),
      JSON.stringify(result.run.results),
    );
  });
  beforeEach(() => {
    git(dir, 'checkout', '-q', '--', '.');
    git(dir, 'clean', '-qfd', '--exclude=.weave');
  });
  after(() => removeDir(dir));
  return { dir: () => dir };
}

/** What coverage alone says about a spec for the changes since HEAD. */
async function decide(dir: string, specId: string): Promise<CoverageDecision> {
  const ws = await loadAnchoredWorkspace(dir);
  const view = await loadCoverageView({ workspaceDir: dir, index: ws.index, since: 'HEAD' });
  assert.ok(view, 'coverage is recorded');
  // Weave's own state (.weave/.gitignore) never reaches coverage: affectedSpecs sets it aside first.
  const changes = (await changedFilesSince(dir, 'HEAD')).filter((c) => !c.path.startsWith('.weave/'));
  return view.decide(specId, changes);
}

function edit(dir: string, file: string, from: string, to: string): void {
  const full = path.join(dir, file);
  const text = fs.readFileSync(full, 'utf8');
  assert.ok(text.includes(from), `${from} in ${file}`);
  fs.writeFileSync(full, text.replace(from, to));
}

describe('single-module library whose tests require(..)', () => {
  const ws = recordedWorkspace(LIBRARY);

  test('a one-line change in a function selects exactly the specs that executed it', async () => {
    edit(ws.dir(), 'index.js', '  return a * b;', '  return a * b * 1;');
    const mul = await selectAffected({ workspaceDir: ws.dir(), since: 'HEAD' });
    assert.deepEqual(ids(mul), ['twice']);
    assert.match(reasonsOf(mul, 'twice'), /index\.js:10 is in mul, which its test executed/);
    assert.deepEqual(mul.unaffected, ['adds', 'counts']);
    assert.match(mul.coverage ?? '', /coverage of 3 spec/);

    git(ws.dir(), 'checkout', '-q', '--', '.');
    edit(ws.dir(), 'index.js', '  return a + b;', '  return b + a;');
    assert.deepEqual(ids(await selectAffected({ workspaceDir: ws.dir(), since: 'HEAD' })), [
      'adds',
      'counts',
    ]);
  });

  test('a change inside a class constructor selects the specs that constructed it, not every loader', async () => {
    edit(ws.dir(), 'index.js', '    this.n = 0;', '    this.n = 0 + 0;');
    const ctor = await selectAffected({ workspaceDir: ws.dir(), since: 'HEAD' });
    assert.deepEqual(ids(ctor), ['counts']);
    assert.match(
      reasonsOf(ctor, 'counts'),
      /index\.js:19 is in Counter\.constructor, which its test executed/,
    );
  });

  test('module top level, or a definition’s first line, selects every spec that loads the module', async () => {
    edit(ws.dir(), 'index.js', 'const DEFAULT_STEP = 1;', 'const DEFAULT_STEP = 2;');
    const top = await selectAffected({ workspaceDir: ws.dir(), since: 'HEAD' });
    assert.deepEqual(ids(top), ['adds', 'counts', 'twice']);
    assert.match(reasonsOf(top, 'twice'), /index\.js:3 changes module top level, which its test loads/);

    git(ws.dir(), 'checkout', '-q', '--', '.');
    edit(ws.dir(), 'index.js', 'function mul(a, b) {', 'function mul(a, b = 1) {');
    assert.deepEqual(ids(await selectAffected({ workspaceDir: ws.dir(), since: 'HEAD' })), [
      'adds',
      'counts',
      'twice',
    ]);
  });

  test('a file its run did not execute, or a new file, is left to the import cones, with why', async () => {
    // index.js requires lib/tool.js inside lazyTool, which no test called.
    edit(ws.dir(), 'lib/tool.js', "'tool'", "'TOOL'");
    const lazy = await decide(ws.dir(), 'adds');
    assert.deepEqual(lazy.reasons, []);
    assert.deepEqual(
      lazy.undecided.map((u) => [u.change.path, u.why]),
      [['lib/tool.js', 'its recorded run did not execute lib/tool.js']],
    );

    git(ws.dir(), 'checkout', '-q', '--', '.');
    edit(ws.dir(), 'index.js', 'const DEFAULT_STEP = 1;', "const DEFAULT_STEP = require('./lib/step');");
    writeFiles(ws.dir(), { 'lib/step.js': 'module.exports = 1;\n' });
    const added = await decide(ws.dir(), 'counts');
    assert.deepEqual(added.reasons, ['index.js:3 changes module top level, which its test loads']);
    assert.deepEqual(
      added.undecided.map((u) => u.why),
      ['lib/step.js is a new file'],
    );
  });

  test('manifests and untraceable files still select every spec, with the reason', async () => {
    edit(ws.dir(), 'package.json', '"1.0.0"', '"1.0.1"');
    const manifest = await selectAffected({ workspaceDir: ws.dir(), since: 'HEAD' });
    assert.equal(manifest.all, true);
    assert.match(manifest.allReasons.join('\n'), /package\.json is a manifest/);

    git(ws.dir(), 'checkout', '-q', '--', '.');
    writeFiles(ws.dir(), { 'tools/report.rb': 'puts 1\n' });
    const ruby = await selectAffected({ workspaceDir: ws.dir(), since: 'HEAD' });
    assert.equal(ruby.all, true);
    assert.match(ruby.allReasons.join('\n'), /tools\/report\.rb cannot be traced/);
  });

  test('--files: a listed file a spec executed selects it (lines unknown); others are left out', async () => {
    const r = await selectAffected({ workspaceDir: ws.dir(), files: ['test/print-twice.js'] });
    assert.deepEqual(ids(r), ['twice']);
    assert.match(reasonsOf(r, 'twice'), /executed test\/print-twice\.js in its recorded run/);
  });

  test('coverage recorded on other content than the change’s base is not trusted', async () => {
    edit(ws.dir(), 'index.js', '// A single-module library', '// One module');
    git(ws.dir(), 'commit', '-qam', 'comment');
    try {
      edit(ws.dir(), 'index.js', '  return a * b;', '  return a * b * 1;');
      const stale = await decide(ws.dir(), 'adds');
      assert.deepEqual(stale.reasons, []);
      assert.deepEqual(
        stale.undecided.map((u) => u.why),
        ['its coverage was recorded on other content of index.js'],
      );
    } finally {
      git(ws.dir(), 'reset', '-q', '--hard', 'HEAD~1');
    }
  });

  test('weave check --affected runs the covered specs and lists those it does not run', () => {
    edit(ws.dir(), 'index.js', '  return a * b;', '  return a * b * 1;');
    const r = spawnSync(
      process.execPath,
      [path.join(repoRoot, 'dist/cli.js'), 'check', '--affected', '--no-record', '--json'],
      { cwd: ws.dir(), encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { run: { specIds: string[] } }).run.specIds, ['twice']);
    // The CLI lists what it runs and what it skips, and why (the skip reason names coverage, not the cones).
    assert.match(r.stderr, /1 of 3 specs selected/);
    assert.match(r.stderr, /run {2}twice: index\.js:\d+ is in mul, which its test executed/);
    for (const id of ['adds', 'counts'])
      assert.match(
        r.stderr,
        new RegExp(`skip ${id}: its recorded test run executed none of the changed code`),
      );
  });
});

describe('Python package', () => {
  const ws = recordedWorkspace(PYTHON_PACKAGE);

  test('a change in a function selects the specs whose test ran it; a function none ran selects none', async () => {
    edit(ws.dir(), 'slugs/core.py', '        return 42', '        return 43');
    assert.deepEqual(ids(await selectAffected({ workspaceDir: ws.dir(), since: 'HEAD' })), ['box']);
    git(ws.dir(), 'checkout', '-q', '--', '.');
    edit(ws.dir(), 'slugs/core.py', "    return '-'.join", "    return '_'.join");
    assert.deepEqual(ids(await selectAffected({ workspaceDir: ws.dir(), since: 'HEAD' })), ['slug']);
    git(ws.dir(), 'checkout', '-q', '--', '.');
    edit(ws.dir(), 'slugs/core.py', '    return 1', '    return 2');
    assert.deepEqual(ids(await selectAffected({ workspaceDir: ws.dir(), since: 'HEAD' })), []);
  });
});
