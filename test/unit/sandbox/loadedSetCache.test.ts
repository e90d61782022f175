// The loaded set kept between guard events (core/sandbox/loadedSetCache.ts) must never be staler than the tree:
// after each kind of change to what the set was derived from — a file a reader read, a file it probed and did not
// find, a folder it listed, the specs themselves, the cache file — the answer equals a fresh computation.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadSpecFile } from '../../../src/core/spec';
import type { LoadedSet } from '../../../src/core/sandbox/commandLoads/loadedSet';
import { cachedLoadedSet } from '../../../src/core/sandbox/loadedSetCache';
import { protectionScopeOfSpecFile } from '../../../src/core/sandbox/protectedFiles';
import { sessionDir } from '../../../src/core/sandbox/sessionRecord';

describe('cachedLoadedSet: a cached loaded set is reused only while nothing it was derived from changed', () => {
  let ws: string;
  let state: string;
  let savedState: string | undefined;
  const write = (files: Record<string, string>): void => {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
      fs.writeFileSync(path.join(ws, rel), text);
    }
  };
  const specs = (command: string, testFile = 'tests/test_app.py'): void =>
    write({
      '.weave/specs.json': JSON.stringify({
        version: 1,
        specs: [
          {
            id: 'app',
            title: 'app',
            kind: 'functional',
            statement: 'The app shall work.',
            test: { command, files: [testFile] },
            anchors: ['src/app.py'],
          },
        ],
      }),
    });
  const plain = (set: LoadedSet): unknown => ({
    files: [...set.files].sort(),
    keys: [...set.keys].map(([k, v]) => [k, [...v].sort()]).sort(),
    unknown: [...set.unknown].sort(),
  });
  /** The cached answer (computed twice, so the second is read from the cache) against a fresh computation. */
  const sameAsFresh = async (): Promise<string[]> => {
    const loaded = await loadSpecFile(ws);
    assert.ok(loaded.ok, 'the spec file is valid');
    const first = await cachedLoadedSet(ws, loaded.specFile);
    const second = await cachedLoadedSet(ws, loaded.specFile);
    const fresh = (await protectionScopeOfSpecFile(ws, loaded.specFile)).loaded;
    assert.deepEqual(plain(first), plain(fresh));
    assert.deepEqual(plain(second), plain(fresh));
    return [...fresh.files.keys()].sort();
  };

  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'weave-loaded-cache-')));
    state = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-loaded-cache-state-'));
    savedState = process.env.WEAVE_STATE_DIR;
    process.env.WEAVE_STATE_DIR = state;
    write({
      'src/app.py': 'X = 1\n',
      'tests/test_app.py': 'from tests.helpers import h\nfrom src.app import X\n',
      'tests/helpers.py': 'h = 1\n',
      Makefile: 'test:\n\tpython3 -m pytest tests\n',
    });
    specs('make test');
  });
  afterEach(() => {
    if (savedState === undefined) delete process.env.WEAVE_STATE_DIR;
    else process.env.WEAVE_STATE_DIR = savedState;
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  });

  test('a file a reader read changes: a Makefile recipe that now runs a script', async () => {
    assert.ok(!(await sameAsFresh()).includes('scripts/prep.sh'));
    write({
      Makefile: 'test:\n\tsh scripts/prep.sh\n\tpython3 -m pytest tests\n',
      'scripts/prep.sh': 'true\n',
    });
    assert.ok((await sameAsFresh()).includes('scripts/prep.sh'));
  });

  test('a file a reader probed and did not find appears: conftest.py beside the tests, a pytest.ini', async () => {
    write({ 'tests/fixtures.py': 'f = 1\n', 'tests/plugin.py': 'p = 1\n' });
    const before = await sameAsFresh();
    assert.ok(!before.includes('tests/fixtures.py') && !before.includes('tests/plugin.py'));
    // pytest loads conftest.py by name; what it imports is then loaded too.
    write({ 'tests/conftest.py': 'from tests.fixtures import f\n' });
    assert.ok((await sameAsFresh()).includes('tests/fixtures.py'));
    write({ 'pytest.ini': '[pytest]\naddopts = -p tests.plugin\n' });
    assert.ok((await sameAsFresh()).includes('tests/plugin.py'));
  });

  test('a folder a reader listed gains a file: a second setup file matching the mocha require glob', async () => {
    write({
      '.mocharc.json': JSON.stringify({ require: ['tests/setup/*.js'] }),
      'tests/setup/a.js': '',
    });
    specs('npx mocha');
    assert.ok(!(await sameAsFresh()).includes('tests/setup/b.js'));
    write({ 'tests/setup/b.js': '' });
    assert.ok((await sameAsFresh()).includes('tests/setup/b.js'));
  });

  test('the specs change: another command, another test file', async () => {
    await sameAsFresh();
    write({ 'run.sh': 'python3 -m pytest\n', 'tests/test_other.py': 'from tests.helpers import h\n' });
    specs('sh run.sh', 'tests/test_other.py');
    assert.ok((await sameAsFresh()).includes('run.sh'));
  });

  test('a cache file that is not one (truncated, forged shape) is computed afresh, not trusted', async () => {
    await sameAsFresh();
    const file = path.join(sessionDir(ws), 'loaded-set.json');
    assert.ok(fs.existsSync(file), 'the set was cached in the session folder');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, 40));
    await sameAsFresh();
    fs.writeFileSync(file, JSON.stringify({ version: 1, observations: 'none' }));
    await sameAsFresh();
  });
});
