// The protected set's observed part (sandbox/observedLoads.ts): what a reference run saw each spec's test process
// load joins the loaded set minus the code under test (anchors, their folder, what they import) and the spec
// tests; an unanchored spec keeps only files beside its test; the store forgets a spec whose command changed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { specLoads, type LoadingSpec } from '../../../src/core/sandbox/commandLoads/specLoads';
import {
  observedLoadsOf,
  recordObservedLoads,
  workspaceLoads,
} from '../../../src/core/sandbox/observedLoads';
import { isolateWeaveState } from '../../support/weaveState';

isolateWeaveState();

describe('observed loads', () => {
  let dir: string;
  const write = (files: Record<string, string>): void => {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
  };
  const spec = (anchors: string[]): LoadingSpec => ({
    id: 's',
    test: { command: 'node --test t/gate.test.js', files: ['t/gate.test.js'] },
    anchors,
  });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-observed-unit-'));
    write({
      'src/gate.js': "module.exports = require('./parts');\n",
      'src/parts.js': '',
      'lib/used.js': '',
      'support/helpers.js': '',
      't/gate.test.js': '',
      't/fixtures/data.js': '',
    });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('observed files join the set, the code under test and the spec tests do not', async () => {
    const observed = new Map([
      [
        's',
        [
          'support/helpers.js',
          'src/gate.js',
          'src/parts.js',
          't/gate.test.js',
          't/fixtures/data.js',
          'gone.js',
        ],
      ],
    ]);
    const set = await specLoads(dir, [spec(['src/gate.js'])], {}, [''], observed);
    assert.deepEqual([...set.files.keys()].sort(), ['support/helpers.js', 't/fixtures/data.js']);
    assert.match(set.files.get('support/helpers.js')!, /loaded it before the first test .*\(spec s\)/);
    assert.deepEqual([...(await specLoads(dir, [spec(['src/gate.js'])], {}, [''])).files.keys()], []);
  });

  test('a spec without anchors keeps only what sits beside its test', async () => {
    const observed = new Map([['s', ['support/helpers.js', 't/fixtures/data.js']]]);
    const set = await specLoads(dir, [spec([])], {}, [''], observed);
    assert.deepEqual([...set.files.keys()], ['t/fixtures/data.js']);
  });

  test('the store keeps workspace files only, per spec, and forgets a spec whose command changed', async () => {
    assert.deepEqual(
      workspaceLoads(dir, [
        path.join(dir, 'support/helpers.js'),
        path.join(dir, 'node_modules/x/index.js'),
        path.join(dir, '.venv/lib/python3.12/site-packages/p.py'),
        '/usr/lib/python3/json/__init__.py',
        'relative.js',
      ]),
      ['support/helpers.js'],
    );
    const s = spec(['src/gate.js']);
    await recordObservedLoads(dir, dir, [s], {}, new Map([['s', [path.join(dir, 'support/helpers.js')]]]));
    assert.deepEqual([...(await observedLoadsOf(dir, [s]))], [['s', ['support/helpers.js']]]);
    const changed = { ...s, test: { ...s.test, command: 'node --test t/other.test.js' } };
    assert.deepEqual([...(await observedLoadsOf(dir, [changed]))], []);
    assert.deepEqual([...(await observedLoadsOf(dir, [s], { env: { X: '1' } }))], []);
  });
});
