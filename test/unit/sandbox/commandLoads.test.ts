// What a spec's command loads, family by family (commandLoads/): each case is a real folder with one spec, and
// the loaded set must name the file the mechanism loads, with why, and nothing of the code under test. Commands
// the reader does not know, and words it cannot read where a file could be named, must leave a reason.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { specLoads, type LoadingSpec } from '../../../src/core/sandbox/commandLoads/specLoads';
import type { LoadedSet } from '../../../src/core/sandbox/commandLoads/loadedSet';

describe('specLoads: the files a spec command loads, by mechanism', () => {
  let dir: string;
  const write = (files: Record<string, string>): void => {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
  };
  const loads = (
    command: string,
    extra: Partial<LoadingSpec['test']> & { anchors?: string[] } = {},
  ): Promise<LoadedSet> => {
    const { anchors, ...test } = extra;
    const spec: LoadingSpec = {
      id: 's',
      test: { command, files: [], ...test },
      anchors: anchors ?? ['src/app.js'],
    };
    return specLoads(dir, [spec], {}, ['', 'src', 'tests']);
  };
  const files = (set: LoadedSet): string[] => [...set.files.keys()].sort();

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-loads-'));
    write({ 'src/app.js': 'module.exports = 1;\n' });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('make T: the Makefile, what it includes, and the files the target recipe (and prerequisites) run', async () => {
    write({
      Makefile:
        'include mk/common.mk\nPY := python3\n\nbuild:\n\techo build\n\ntest: prep\n\t@$(PY) tools/run_tests.py\n\nprep:\n\tsh scripts/prep.sh\n',
      'mk/common.mk': 'X = 1\n',
      'tools/run_tests.py': 'print(1)\n',
      'scripts/prep.sh': 'node scripts/gen.js\n',
      'scripts/gen.js': '',
    });
    const set = await loads('make test');
    assert.deepEqual(files(set), [
      'Makefile',
      'mk/common.mk',
      'scripts/gen.js',
      'scripts/prep.sh',
      'tools/run_tests.py',
    ]);
    assert.match(set.files.get('tools/run_tests.py')!, /spec s/);
    assert.deepEqual(files(await loads('make build')), ['Makefile', 'mk/common.mk']);
  });

  test('npm run S / npm test / pnpm S / yarn S: the scripts by key (pre and post too) and what they run', async () => {
    write({
      'package.json': JSON.stringify({
        scripts: { precheck: 'node tools/lint.js', check: 'sh scripts/check.sh', test: 'node --test' },
      }),
      'tools/lint.js': '',
      'scripts/check.sh': 'node --require ./setup.js test/all.js\n',
      'setup.js': '',
      'test/all.js': '',
    });
    for (const command of ['npm run check', 'pnpm check', 'yarn run check', 'npm run-script check -- -x']) {
      const set = await loads(command);
      assert.deepEqual(files(set), ['scripts/check.sh', 'setup.js', 'test/all.js', 'tools/lint.js'], command);
      assert.deepEqual([...(set.keys.get('package.json')?.keys() ?? [])].sort(), [
        'scripts.check',
        'scripts.postcheck',
        'scripts.precheck',
      ]);
    }
    const test = await loads('npm test');
    assert.ok(test.keys.get('package.json')?.has('scripts.test'));
  });

  test('sh F, bash -c, ./F and node F: the script, read on when it is shell', async () => {
    write({
      'scripts/test.sh': '#!/bin/sh\nset -e\npython3 tools/check.py "$@"\n',
      'tools/check.py': '',
      'run.sh': '#!/usr/bin/env bash\nnode bin/t.js\n',
      'bin/t.js': '',
    });
    assert.deepEqual(files(await loads('sh scripts/test.sh')), ['scripts/test.sh', 'tools/check.py']);
    assert.deepEqual(files(await loads('bash -c "sh scripts/test.sh"')), [
      'scripts/test.sh',
      'tools/check.py',
    ]);
    assert.deepEqual(files(await loads('./run.sh')), ['bin/t.js', 'run.sh']);
    assert.deepEqual(files(await loads('cd bin && node t')), ['bin/t.js']);
  });

  test('node --require/-r/--import and NODE_OPTIONS preloads', async () => {
    write({ 'setup.js': '', 'hooks/reg.mjs': '', 'pre.cjs': '' });
    assert.deepEqual(files(await loads('node --require ./setup.js --test test/x.test.js')), ['setup.js']);
    assert.deepEqual(files(await loads('node -r ./setup --import=./hooks/reg.mjs --test')), [
      'hooks/reg.mjs',
      'setup.js',
    ]);
    assert.deepEqual(files(await loads('NODE_OPTIONS="--require ./pre.cjs" node --test')), ['pre.cjs']);
    assert.deepEqual(files(await loads('node --test', { env: { NODE_OPTIONS: '-r ./pre.cjs' } })), [
      'pre.cjs',
    ]);
  });

  test('pytest -p PLUGIN, addopts plugins, PYTEST_PLUGINS: the plugin modules', async () => {
    write({
      'myplugin.py': '',
      'plugins/__init__.py': '',
      'plugins/extra.py': '',
      'pytest.ini': '[pytest]\naddopts = -q -p plugins.extra -p no:cacheprovider\n',
    });
    assert.deepEqual(files(await loads('/usr/bin/python3 -m pytest -p myplugin tests')), [
      'myplugin.py',
      'plugins/extra.py',
      'pytest.ini',
    ]);
    assert.deepEqual(files(await loads('timeout -s KILL 60 uv run pytest -p myplugin')), [
      'myplugin.py',
      'plugins/extra.py',
      'pytest.ini',
    ]);
    fs.rmSync(path.join(dir, 'pytest.ini'));
    write({ 'pyproject.toml': '[tool.pytest.ini_options]\naddopts = ["-p", "myplugin"]\n' });
    // pyproject.toml itself is judged by its test keys (manifestKeys.ts), never as a whole loaded file.
    assert.deepEqual(files(await loads('pytest')), ['myplugin.py']);
    assert.deepEqual(files(await loads('pytest', { env: { PYTEST_PLUGINS: 'plugins.extra' } })), [
      'myplugin.py',
      'plugins/extra.py',
    ]);
  });

  test('mocha: .mocharc.json / .mocharc.yml and the files its require, file and spec name', async () => {
    write({
      '.mocharc.json': JSON.stringify({
        require: ['./test/setup.js', 'ts-node/register'],
        spec: 'test/**/*.spec.js',
      }),
      'test/setup.js': '',
      'test/a.spec.js': '',
      'test/deep/b.spec.js': '',
    });
    assert.deepEqual(files(await loads('npx mocha')), [
      '.mocharc.json',
      'test/a.spec.js',
      'test/deep/b.spec.js',
      'test/setup.js',
    ]);
    fs.rmSync(path.join(dir, '.mocharc.json'));
    write({ '.mocharc.yml': 'require:\n  - ./test/setup.js\nfile: test/a.spec.js\n' });
    assert.deepEqual(files(await loads('mocha')), ['.mocharc.yml', 'test/a.spec.js', 'test/setup.js']);
  });

  test('jest setupFiles/globalSetup and vitest setupFiles, from JSON and from literal JS configs', async () => {
    write({
      'jest.config.js':
        "module.exports = { setupFilesAfterEnv: ['<rootDir>/jest.setup.js'], globalSetup: './gs.js' };\n",
      'jest.setup.js': '',
      'gs.js': '',
      'vitest.config.ts': "export default { test: { setupFiles: ['./vt.setup.ts'] } };\n",
      'vt.setup.ts': '',
    });
    assert.deepEqual(files(await loads('npx jest')), ['gs.js', 'jest.setup.js']);
    assert.deepEqual(files(await loads('npx vitest run')), ['vt.setup.ts']);
  });

  test('PYTHONPATH roots: sitecustomize and usercustomize there, module or package, existing or not', async () => {
    write({ 'sitecustomize/__init__.py': 'from . import patch\n', 'sitecustomize/patch.py': '' });
    const set = await loads('PYTHONPATH=. python3 -m pytest tests', { anchors: ['src/app.py'] });
    assert.deepEqual(files(set), [
      'sitecustomize.py',
      'sitecustomize/__init__.py',
      'sitecustomize/patch.py',
      'usercustomize.py',
      'usercustomize/__init__.py',
    ]);
  });

  test('helpers the spec tests import are loaded wherever they live; the code under test is not', async () => {
    write({
      't/basic.test.js': "const h = require('./helpers');\nconst app = require('../src/app');\n",
      't/helpers.js':
        "const fx = require('../fixtures/data.json');\nmodule.exports = require('../src/app');\n",
      'fixtures/data.json': '{}',
      'src/util.js': '',
      'test_slug.py': 'from testing_utils import check\nimport slug\n',
      'testing_utils.py': 'import json\n',
      'slug.py': 'import helpers_of_slug\n',
      'helpers_of_slug.py': '',
    });
    const set = await specLoads(
      dir,
      [
        {
          id: 'js',
          test: { command: 'node --test t/basic.test.js', files: ['t/basic.test.js'] },
          anchors: ['src/app.js'],
        },
        {
          id: 'py',
          test: { command: 'python3 -m pytest test_slug.py', files: ['test_slug.py'] },
          anchors: ['slug.py#slugify'],
        },
      ],
      {},
      ['', 'src'],
    );
    assert.deepEqual(files(set), ['fixtures/data.json', 't/helpers.js', 'testing_utils.py']);
    assert.match(set.files.get('t/helpers.js')!, /t\/basic\.test\.js imports it/);
  });

  test('a spec without anchors: only helpers beside its test, never the code it imports elsewhere', async () => {
    write({
      'tests/test_lib.py': 'import helpers\nfrom lib import core\n',
      'tests/helpers.py': '',
      'lib/core.py': '',
    });
    const set = await loads(`python3 -m pytest tests/test_lib.py`, {
      files: ['tests/test_lib.py'],
      anchors: [],
    });
    assert.deepEqual(files(set), ['tests/helpers.py']);
    assert.match(set.unknown.join('\n'), /spec s: no anchors/);
  });

  test('deny by default: an unknown command or an unreadable word leaves a reason', async () => {
    assert.match(
      (await loads('frobnicate --all')).unknown.join('\n'),
      /frobnicate is a command the reader does not know/,
    );
    assert.match((await loads('node $RUNNER')).unknown.join('\n'), /\$RUNNER cannot be read/);
    assert.match((await loads('python3 -c "import x"')).unknown.join('\n'), /inline code/);
    assert.deepEqual((await loads('go test ./... && echo ok')).unknown, []);
  });
});
