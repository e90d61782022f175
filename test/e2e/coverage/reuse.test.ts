// Coverage reuse on full checks: a spec whose recorded coverage no change since can reach runs without the
// coverage hook and keeps what it recorded; every other spec records again. Each test file prints whether the
// hook is in its process's NODE_OPTIONS, so the tests see which processes really ran instrumented.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { checkWorkspace, type CheckResult } from '../../../src/core/fullCheck/checkWorkspace';
import { readCoverageStore } from '../../../src/core/coverage/store';
import { runCli } from '../spec/cliRun';
import { git, initRepo, removeDir, tempDir, writeFiles } from '../../support/repos';
import { executed } from './fixtures';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

const testFile = (module: string, call: string, expected: number): string =>
  [
    "const assert = require('node:assert');",
    `const lib = require('../lib/${module}');`,
    "console.log('hook:', /weave-coverage-hook/.test(process.env.NODE_OPTIONS ?? ''));",
    `assert.equal(lib.${call}, ${expected});`,
    "console.log('1 passed, 0 failed');",
    '',
  ].join('\n');

const spec = (id: string, command: string) => ({
  id,
  title: id,
  kind: 'functional',
  statement: id,
  test: { command },
});

const FILES: Record<string, string> = {
  'lib/a.js': [
    'function a(x) {',
    '  return x + 1;',
    '}',
    'function notRun() {',
    '  return 0;',
    '}',
    'module.exports = { a, notRun };',
    '',
  ].join('\n'),
  'lib/b.js': ['function b(x) {', '  return x * 2;', '}', 'module.exports = { b };', ''].join('\n'),
  'test/a.js': testFile('a', 'a(1)', 2),
  'test/b.js': testFile('b', 'b(2)', 4),
  '.weave/specs.json': JSON.stringify({
    version: 1,
    specs: [spec('spec-a', 'node test/a.js'), spec('spec-b', 'node test/b.js')],
  }),
};

function workspace(inGit = true): string {
  const dir = tempDir('weave-coverage-reuse-');
  dirs.push(dir);
  writeFiles(dir, FILES);
  if (inGit) initRepo(dir);
  return dir;
}

/** Which specs ran with the coverage hook, as their own processes saw it. */
function instrumented(result: CheckResult): string[] {
  for (const r of result.run.results) assert.equal(r.verdict, 'pass', r.output);
  return result.run.results.filter((r) => r.output.includes('hook: true')).map((r) => r.id);
}

const check = (dir: string, options: { freshCoverage?: boolean } = {}) =>
  checkWorkspace({ workspaceDir: dir, concurrency: 2, ...options });

const edit = (dir: string, rel: string, from: string, to: string): void => {
  const file = path.join(dir, rel);
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${rel} holds ${from}`);
  fs.writeFileSync(file, text.replace(from, to));
};

void test('a full check keeps the coverage of specs no change reaches, and records the others again', async () => {
  const dir = workspace();
  const first = await check(dir);
  assert.deepEqual(instrumented(first), ['spec-a', 'spec-b']);
  assert.deepEqual(first.coverage?.reused, []);
  const recordedIn = (await readCoverageStore(dir)).specs['spec-b']?.runId;
  assert.equal(recordedIn, first.run.id);

  // Nothing changed: neither spec is instrumented, and what they recorded stays.
  const second = await check(dir);
  assert.deepEqual(instrumented(second), []);
  assert.deepEqual(second.coverage?.reused, ['spec-a', 'spec-b']);
  assert.equal((await readCoverageStore(dir)).specs['spec-b']?.runId, recordedIn);
  assert.deepEqual(await executed(dir, 'spec-a'), ['lib/a.js#a']);

  // A change in a function spec-a did not run (in a file it ran) reaches neither. spec-b's entry, whose files
  // are all as they were, moves to the new snapshot; spec-a's stays where lib/a.js is the content it ran.
  const before = (await readCoverageStore(dir)).specs['spec-a']?.snapshot;
  edit(dir, 'lib/a.js', 'return 0;', 'return -1;');
  assert.deepEqual(instrumented(await check(dir)), []);
  const moved = await readCoverageStore(dir);
  assert.equal(moved.specs['spec-a']?.snapshot, before);
  assert.notEqual(moved.specs['spec-b']?.snapshot, before);
  assert.equal(moved.specs['spec-b']?.runId, recordedIn);

  // A change in a function spec-a ran: spec-a records again, and its coverage now holds the new helper.
  edit(
    dir,
    'lib/a.js',
    '  return x + 1;\n}',
    '  return helper(x);\n}\nfunction helper(x) {\n  return x + 1;\n}',
  );
  const changed = await check(dir);
  assert.deepEqual(instrumented(changed), ['spec-a']);
  assert.deepEqual(changed.coverage?.reused, ['spec-b']);
  assert.deepEqual(await executed(dir, 'spec-a'), ['lib/a.js#a', 'lib/a.js#helper']);
  assert.equal((await readCoverageStore(dir)).specs['spec-b']?.runId, recordedIn);

  // ...so a change in the helper, which only the new coverage knows spec-a runs, records spec-a again.
  edit(dir, 'lib/a.js', '  return x + 1;\n}\nfunction notRun', '  return 1 + x;\n}\nfunction notRun');
  assert.deepEqual(instrumented(await check(dir)), ['spec-a']);
});

void test('a change of unknown impact records every spec again and says why; an untracked file that stays the same does not', async () => {
  const dir = workspace();
  await check(dir);
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'a file Weave cannot trace\n');
  const afterNote = await check(dir);
  assert.deepEqual(instrumented(afterNote), ['spec-a', 'spec-b']);
  assert.match(afterNote.coverage?.recordedAgainBecause ?? '', /notes\.txt cannot be traced/);
  // The snapshot holds untracked files too: still untracked and unchanged, notes.txt is no change.
  const again = await check(dir);
  assert.deepEqual(instrumented(again), []);
  assert.equal(again.coverage?.recordedAgainBecause, undefined);

  edit(dir, '.weave/specs.json', '"statement":"spec-b"', '"statement":"b doubles"');
  const afterSpecs = await check(dir);
  assert.deepEqual(instrumented(afterSpecs), ['spec-a', 'spec-b']);
  assert.match(afterSpecs.coverage?.recordedAgainBecause ?? '', /specs\.json changed/);
});

/** `git status` but for Weave's own run state (.weave/.gitignore, written by every recorded run). */
const statusOutsideWeave = (dir: string): string =>
  git(dir, 'status', '--porcelain')
    .split('\n')
    .filter((line) => !line.includes(' .weave/'))
    .join('\n');

void test('the snapshot leaves the index as it was: what the user staged stays staged, and nothing else is', async () => {
  const dir = workspace();
  edit(dir, 'lib/b.js', 'return x * 2;', 'return x + x;');
  git(dir, 'add', 'lib/b.js');
  edit(dir, 'lib/a.js', 'return 0;', 'return -1;');
  fs.writeFileSync(path.join(dir, 'new.js'), 'module.exports = 1;\n');
  const before = {
    staged: git(dir, 'diff', '--cached'),
    unstaged: git(dir, 'diff'),
    status: statusOutsideWeave(dir),
  };
  await check(dir);
  await check(dir);
  assert.deepEqual(
    {
      staged: git(dir, 'diff', '--cached'),
      unstaged: git(dir, 'diff'),
      status: statusOutsideWeave(dir),
    },
    before,
  );
});

void test('everything records again with --fresh-coverage, outside git, and when git no longer has the snapshot', async () => {
  const dir = workspace();
  await check(dir);
  const fresh = await check(dir, { freshCoverage: true });
  assert.deepEqual(instrumented(fresh), ['spec-a', 'spec-b']);
  assert.equal(fresh.coverage?.recordedAgainBecause, '--fresh-coverage');

  // gc pruned the tree the coverage was recorded at.
  const storeFile = path.join(dir, '.weave/cache/coverage/coverage-v1.json');
  const store = JSON.parse(fs.readFileSync(storeFile, 'utf8')) as {
    specs: Record<string, { snapshot?: string }>;
  };
  for (const entry of Object.values(store.specs)) entry.snapshot = '0123456789abcdef0123456789abcdef01234567';
  fs.writeFileSync(storeFile, JSON.stringify(store));
  const pruned = await check(dir);
  assert.deepEqual(instrumented(pruned), ['spec-a', 'spec-b']);
  assert.match(pruned.coverage?.recordedAgainBecause ?? '', /git no longer has the snapshot 0123456789ab/);

  const plain = workspace(false);
  await check(plain);
  const outside = await check(plain);
  assert.deepEqual(instrumented(outside), ['spec-a', 'spec-b']);
  assert.match(outside.coverage?.recordedAgainBecause ?? '', /not in a git repository/);
});

void test('weave check prints which specs kept their coverage, and --fresh-coverage records them all', async () => {
  const dir = workspace();
  assert.equal((await runCli(['check'], dir)).code, 0);
  const kept = await runCli(['check'], dir);
  assert.equal(kept.code, 0, kept.stderr);
  assert.match(kept.stdout, /coverage kept: 2 specs ran uninstrumented/);
  const json = await runCli(['check', '--json'], dir);
  assert.equal(json.code, 0, json.stderr);
  const document = JSON.parse(json.stdout) as { coverage?: { specs: number; reused: string[] } };
  assert.deepEqual(document.coverage?.reused, ['spec-a', 'spec-b']);
  assert.equal(document.coverage?.specs, 0);
  const fresh = await runCli(['check', '--fresh-coverage'], dir);
  assert.equal(fresh.code, 0, fresh.stderr);
  assert.match(fresh.stdout, /coverage recorded: 2 specs/);
  assert.match(fresh.stdout, /coverage recorded again because --fresh-coverage/);
  assert.doesNotMatch(fresh.stdout, /coverage kept/);
});

void test('for the editor (coverageOfCurrentFiles), coverage recorded on other content of a file records again', async () => {
  const dir = workspace();
  await check(dir);
  // Changed only where spec-a did not run: kept for selection, but its line hits are of the old content.
  edit(dir, 'lib/a.js', 'return 0;', 'return -1;');
  const shown = await checkWorkspace({ workspaceDir: dir, concurrency: 2, coverageOfCurrentFiles: true });
  assert.deepEqual(instrumented(shown), ['spec-a']);
  assert.deepEqual(shown.coverage?.reused, ['spec-b']);
  const store = await readCoverageStore(dir);
  assert.equal(store.specs['spec-a']?.files['lib/a.js']?.hash, git(dir, 'hash-object', 'lib/a.js').trim());
});

void test('a spec that ran a file git ignores (a build output) records every time: its changes are not in the snapshot', async () => {
  const dir = workspace();
  writeFiles(dir, {
    '.gitignore': 'build/\n',
    'build/c.js': testFile('a', 'a(2)', 3),
    '.weave/specs.json': JSON.stringify({
      version: 1,
      specs: [spec('spec-a', 'node test/a.js'), spec('spec-c', 'node build/c.js')],
    }),
  });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'build output ignored');
  await check(dir);
  assert.ok((await executed(dir, 'spec-c')).includes('lib/a.js#a'));
  assert.deepEqual(instrumented(await check(dir)), ['spec-c']);
});
