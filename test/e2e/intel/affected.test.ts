import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { affectedSpecIds, selectAffected } from '../../../src/core/selection/selectAffected';
import { ChangeInputError } from '../../../src/core/git/changes';
import { git, initRepo, removeDir, tempDir, writeFiles } from '../../support/repos';

const spec = (id: string, testFile: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: id,
  kind: 'functional',
  statement: id,
  test: { command: `node --test ${testFile}`, files: [testFile] },
  ...extra,
});

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "tiny", "version": "1.0.0" }\n',
  'src/math.js':
    'function add(a, b) {\n  return a + b;\n}\n\nfunction mul(a, b) {\n  return a * b;\n}\n\nmodule.exports = { add, mul };\n',
  'src/format.js':
    "const { add } = require('./math');\nexports.total = (xs) => `total ${xs.reduce(add, 0)}`;\n",
  'src/lonely.js': 'exports.alone = () => 1;\n',
  'src/unused.js': 'exports.nothing = () => 0;\n',
  'test/math.test.js':
    "const test = require('node:test');\nconst { add } = require('../src/math');\ntest('add', () => { if (add(1, 2) !== 3) throw new Error('add'); });\n",
  'test/format.test.js':
    "const test = require('node:test');\nconst { total } = require('../src/format');\ntest('total', () => { if (total([1, 2]) !== 'total 3') throw new Error('total'); });\n",
  'test/lonely.test.js':
    "const test = require('node:test');\nconst { alone } = require('../src/lonely');\ntest('alone', () => { if (alone() !== 1) throw new Error('alone'); });\n",
  'test/report.test.js': "const test = require('node:test');\ntest('report', () => {});\n",
  '.weave/specs.json': JSON.stringify(
    {
      version: 1,
      specs: [
        spec('math', 'test/math.test.js', { anchors: ['src/math.js#add'] }),
        spec('format', 'test/format.test.js', { anchors: ['src/format.js'] }),
        spec('lonely', 'test/lonely.test.js'),
        spec('report', 'test/report.test.js', { dependsOn: ['lonely'] }),
      ],
    },
    null,
    2,
  ),
};

let dir: string;
beforeEach(() => {
  dir = tempDir();
  writeFiles(dir, PROJECT);
  initRepo(dir);
});
afterEach(() => removeDir(dir));

function ids(result: { affected: Array<{ id: string }> }): string[] {
  return result.affected.map((s) => s.id);
}

void test('--since HEAD: an uncommitted edit selects the specs whose tests import the file, with reasons', async () => {
  fs.writeFileSync(path.join(dir, 'src/math.js'), PROJECT['src/math.js']!.replace('a + b', 'b + a'));
  const result = await selectAffected({ workspaceDir: dir, since: 'HEAD' });
  assert.equal(result.all, false);
  assert.deepEqual(ids(result), ['math', 'format']);
  assert.deepEqual(result.unaffected, ['lonely', 'report']);
  const math = result.affected.find((s) => s.id === 'math')!;
  assert.ok(
    math.reasons.some((r) => r === 'its anchored symbol add changed (src/math.js)'),
    math.reasons.join('\n'),
  );
  const format = result.affected.find((s) => s.id === 'format')!;
  assert.ok(
    format.reasons.some((r) =>
      r.startsWith(
        'src/math.js (add) is in its import cone (test/format.test.js → src/format.js → src/math.js)',
      ),
    ),
    format.reasons.join('\n'),
  );
});

void test('--since REF covers committed changes; a dependent of an affected spec is selected too', async () => {
  const base = git(dir, 'rev-parse', 'HEAD').trim();
  fs.writeFileSync(path.join(dir, 'src/lonely.js'), 'exports.alone = () => 2;\n');
  git(dir, 'commit', '-qam', 'change lonely');
  assert.deepEqual(await affectedSpecIds({ workspaceDir: dir, since: 'HEAD' }), []);
  const result = await selectAffected({ workspaceDir: dir, since: base });
  assert.deepEqual(ids(result), ['lonely', 'report']);
  assert.ok(result.affected[1]!.reasons.includes('it depends on lonely, which is affected'));
});

void test('an untracked file that no test loads affects nothing; one a test file names is picked up', async () => {
  writeFiles(dir, { 'src/extra.js': 'exports.x = 1;\n' });
  let result = await selectAffected({ workspaceDir: dir, since: 'HEAD' });
  assert.deepEqual(result.changes, [{ path: 'src/extra.js', status: 'untracked' }]);
  assert.deepEqual(ids(result), []);
  writeFiles(dir, { 'test/lonely.test.js': `${PROJECT['test/lonely.test.js']!}require('../src/extra');\n` });
  result = await selectAffected({ workspaceDir: dir, since: 'HEAD' });
  assert.deepEqual(ids(result), ['lonely', 'report']);
});

void test('a deleted file selects every spec and says why', async () => {
  fs.rmSync(path.join(dir, 'src/unused.js'));
  const result = await selectAffected({ workspaceDir: dir, since: 'HEAD' });
  assert.equal(result.all, true);
  assert.deepEqual(ids(result), ['math', 'format', 'lonely', 'report']);
  assert.deepEqual(result.allReasons, [
    'src/unused.js was deleted: whatever loaded it can no longer be traced',
  ]);
});

void test('a config file, a file without a grammar, or the spec file selects every spec', async () => {
  for (const [file, content, reason] of [
    [
      'package.json',
      '{ "name": "tiny", "version": "1.0.1" }\n',
      /package\.json is a manifest, lockfile or tool configuration/,
    ],
    ['data/fixture.csv', 'a,b\n', /data\/fixture\.csv cannot be traced \(Weave has no grammar for it\)/],
    ['tsconfig.json', '{}\n', /tsconfig\.json is a manifest/],
  ] as const) {
    writeFiles(dir, { [file]: content });
    const after = await selectAffected({ workspaceDir: dir, since: 'HEAD' });
    assert.equal(after.all, true, file);
    assert.match(after.allReasons.join('\n'), reason);
    assert.equal(after.affected.length, 4);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', `add ${file}`);
  }
  const specs = JSON.parse(PROJECT['.weave/specs.json']!) as { specs: Array<{ title: string }> };
  specs.specs[0]!.title = 'renamed';
  writeFiles(dir, { '.weave/specs.json': JSON.stringify(specs) });
  const result = await selectAffected({ workspaceDir: dir, since: 'HEAD' });
  assert.equal(result.all, true);
  assert.match(result.allReasons[0]!, /\.weave\/specs\.json changed/);
});

void test('--files: listed files are the changes; a missing one counts as deleted', async () => {
  let result = await selectAffected({ workspaceDir: dir, files: ['src/format.js'] });
  assert.deepEqual(ids(result), ['format']);
  result = await selectAffected({ workspaceDir: dir, files: ['test/math.test.js', 'src/lonely.js'] });
  assert.deepEqual(ids(result), ['math', 'lonely', 'report']);
  result = await selectAffected({ workspaceDir: dir, files: ['src/nope.js'] });
  assert.equal(result.all, true);
  assert.match(result.allReasons[0]!, /src\/nope\.js was deleted/);
  await assert.rejects(selectAffected({ workspaceDir: dir, files: ['../outside.js'] }), ChangeInputError);
});

void test('an unresolved relative import makes the cone uncertain: that spec is selected for any change', async () => {
  writeFiles(dir, {
    'test/lonely.test.js': `${PROJECT['test/lonely.test.js']!}require('./helpers/' + 'gone');\nrequire('./missing-helper');\n`,
  });
  git(dir, 'commit', '-qam', 'missing helper');
  const result = await selectAffected({ workspaceDir: dir, files: ['src/math.js'] });
  assert.deepEqual(ids(result), ['math', 'format', 'lonely', 'report']);
  const lonely = result.affected.find((s) => s.id === 'lonely')!;
  assert.match(
    lonely.reasons[0]!,
    /import cone is incomplete \(test\/lonely\.test\.js imports '\.\/missing-helper'/,
  );
});

void test('bad refs and folders outside git are clear input errors', async () => {
  await assert.rejects(selectAffected({ workspaceDir: dir, since: 'no-such-branch' }), (e: unknown) => {
    assert.ok(e instanceof ChangeInputError);
    assert.match(e.message, /no-such-branch is not a commit/);
    return true;
  });
  const plain = tempDir();
  try {
    writeFiles(plain, { '.weave/specs.json': PROJECT['.weave/specs.json']!, 'test/math.test.js': '' });
    await assert.rejects(
      selectAffected({ workspaceDir: plain, since: 'HEAD' }),
      /not inside a git repository/,
    );
  } finally {
    removeDir(plain);
  }
});

void test('a workspace in a subfolder of its repository sees workspace-relative paths', async () => {
  const outer = tempDir();
  try {
    fs.cpSync(dir, path.join(outer, 'pkg'), {
      recursive: true,
      filter: (p) => !p.includes(`${path.sep}.git`),
    });
    writeFiles(outer, { 'README.md': 'outer\n' });
    initRepo(outer);
    writeFiles(outer, { 'README.md': 'changed outside the workspace\n' });
    fs.writeFileSync(path.join(outer, 'pkg/src/lonely.js'), 'exports.alone = () => 3;\n');
    const result = await selectAffected({ workspaceDir: path.join(outer, 'pkg'), since: 'HEAD' });
    assert.deepEqual(
      result.changes.map((c) => c.path),
      ['src/lonely.js'],
    );
    assert.deepEqual(ids(result), ['lonely', 'report']);
  } finally {
    removeDir(outer);
  }
});

void test('a test file without a grammar (a shell script) may load anything: its spec is selected for any change', async () => {
  const specs = JSON.parse(PROJECT['.weave/specs.json']!) as { specs: unknown[] };
  specs.specs.push(spec('shell', 'test/run.sh'));
  writeFiles(dir, {
    'test/run.sh': 'node -e "require(\'./src/lonely\')"\n',
    '.weave/specs.json': JSON.stringify(specs),
  });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'shell spec');
  const result = await selectAffected({ workspaceDir: dir, files: ['src/lonely.js'] });
  assert.deepEqual(ids(result), ['lonely', 'report', 'shell']);
  assert.match(result.affected[2]!.reasons[0]!, /its test file test\/run\.sh has no grammar/);
});

void test('a data fixture in test.files is protected but leaves the cone complete; data alone does not', async () => {
  const specs = JSON.parse(PROJECT['.weave/specs.json']!) as { specs: Array<Record<string, unknown>> };
  // Shaped like a URL library's spec that lists its test data to protect it.
  specs.specs.push(
    {
      ...spec('ascii', 'test/lonely.test.js'),
      test: {
        command: 'node --test test/lonely.test.js',
        files: ['test/lonely.test.js', 'test/fixture/toascii.json'],
      },
    },
    {
      ...spec('data-only', 'test/fixture/toascii.json'),
      test: { command: 'npm test', files: ['test/fixture/toascii.json'] },
    },
  );
  writeFiles(dir, {
    'test/fixture/toascii.json': '[{ "input": "a" }]\n',
    '.weave/specs.json': JSON.stringify(specs),
  });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'fixture specs');
  const math = await selectAffected({ workspaceDir: dir, files: ['src/math.js'] });
  assert.deepEqual(ids(math), ['math', 'format', 'data-only']);
  assert.match(
    math.affected.find((s) => s.id === 'data-only')!.reasons[0]!,
    /its test file test\/fixture\/toascii\.json has no grammar, so what it loads is unknown/,
  );
  // The cone still holds what the test file loads, and the fixture as a root (a change to the fixture itself,
  // which Weave cannot trace, selects every spec).
  const lonely = await selectAffected({ workspaceDir: dir, files: ['src/lonely.js'] });
  assert.deepEqual(ids(lonely), ['lonely', 'report', 'ascii', 'data-only']);
  assert.match(lonely.affected.find((s) => s.id === 'ascii')!.reasons.join('\n'), /src\/lonely\.js/);
  const fixture = await selectAffected({ workspaceDir: dir, files: ['test/fixture/toascii.json'] });
  assert.equal(fixture.all, true);
});

void test('a file only named as an argument of the test command is not called a test file', async () => {
  const specs = JSON.parse(PROJECT['.weave/specs.json']!) as { specs: Array<Record<string, unknown>> };
  specs.specs.push({
    ...spec('built', 'test/lonely.test.js'),
    test: {
      command: 'npx tsc -p tsconfig.test.json && node --test test/lonely.test.js',
      files: ['test/lonely.test.js'],
    },
  });
  writeFiles(dir, { 'tsconfig.test.json': '{}\n', '.weave/specs.json': JSON.stringify(specs) });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'tsc spec');
  const result = await selectAffected({ workspaceDir: dir, files: ['src/math.js'] });
  const built = result.affected.find((s) => s.id === 'built');
  assert.ok(built, JSON.stringify(result.affected));
  assert.match(
    built.reasons[0]!,
    /its test command names tsconfig\.test\.json, which Weave has no grammar for, so what the command loads is unknown/,
  );
  assert.ok(!built.reasons.some((r) => r.includes('test file tsconfig.test.json')), built.reasons.join('\n'));
});
