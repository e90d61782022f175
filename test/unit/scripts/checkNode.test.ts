// scripts/check-node.mjs, which `npm test` runs first: an older Node than package.json's engines is one clear
// line naming the versions to use, not a build followed by unexplained test failures.
import assert from 'node:assert/strict';
import fs from 'node:fs';
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

  it('reads the minimum from package.json and runs before the build', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
      scripts: { test: string };
    };
    const check = await nodeVersionProblem();
    assert.equal(check('22.0.0', pkg.engines.node), undefined);
    assert.notEqual(check('20.19.0', pkg.engines.node), undefined);
    assert.match(pkg.scripts.test, /^node scripts\/check-node\.mjs && npm run build/);
  });
});
