// The runner-evidence session on its own: hooks found from a folder whose path needs quoting, results read back
// and added up, files that are not what the hooks write ignored, the results folder removed afterwards.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { readEvidence, startEvidence } from '../../../src/core/check/evidence/session';
import { locateEvidenceResources } from '../../../src/core/check/evidence/resources';
import { runCommand } from '../../../src/core/process/runCommand';

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

describe('runner evidence session', () => {
  it('works from a hooks folder whose path has spaces and quotes, and cleans up', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'weave evidence "quoted" '));
    cleanup.push(root);
    const built = locateEvidenceResources();
    await fs.cp(path.dirname(built.nodeHook), path.join(root, 'evidence'), { recursive: true });
    const resources = locateEvidenceResources(root);
    assert.equal(resources.nodeHook, path.join(root, 'evidence', 'weave-node-hook.cjs'));
    await fs.writeFile(
      path.join(root, 'two.test.js'),
      "const test = require('node:test');\ntest('a', () => {});\ntest('b', () => { throw new Error('no'); });\n",
    );
    const session = await startEvidence({}, {}, resources);
    assert.equal(session.writableDirs.length, 1);
    const outcome = await runCommand({
      command: 'node --test two.test.js > /dev/null || true',
      cwd: root,
      env: session.env,
      timeoutMs: 60_000,
    });
    assert.equal(outcome.exitCode, 0, outcome.output);
    assert.deepEqual(await session.collect(), { runner: 'node:test', passed: 1, failed: 1, skipped: 0 });
    await session.dispose();
    await assert.rejects(fs.access(session.writableDirs[0] ?? ''), 'the results folder is removed');
  });

  it('adds up result files and ignores files the hooks did not write', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-evidence-read-'));
    cleanup.push(dir);
    const files: Record<string, string> = {
      'a.json': JSON.stringify({
        runs: [{ runner: 'pytest', passed: 2, failed: 1, skipped: 0, collectionErrors: 0 }],
      }),
      'b.json': JSON.stringify({
        runs: [{ runner: 'mocha', passed: 1, failed: 0, skipped: 3, listing: false }],
      }),
      'c.json': '{"runs": [',
      'd.json': JSON.stringify({
        runs: [{ runner: 'made-up', passed: 100, failed: 0, skipped: 0 }, null, 7],
      }),
      'e.json': JSON.stringify({ runs: [{ runner: 'pytest', passed: -5, failed: 1.5, skipped: 'x' }] }),
      'f.txt': JSON.stringify({ runs: [{ runner: 'pytest', passed: 9, failed: 0, skipped: 0 }] }),
    };
    for (const [name, text] of Object.entries(files)) await fs.writeFile(path.join(dir, name), text);
    assert.deepEqual(await readEvidence(dir), { runner: 'pytest', passed: 3, failed: 1, skipped: 3 });
    assert.equal(await readEvidence(path.join(dir, 'missing')), undefined);
  });

  it("reads jest's and vitest's runs; a file whose run was abandoned (a shape the hook did not know) says nothing", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-evidence-js-'));
    cleanup.push(dir);
    await fs.writeFile(path.join(dir, 'abandoned.json'), JSON.stringify({ runs: [] }));
    assert.equal(await readEvidence(dir), undefined);
    await fs.writeFile(
      path.join(dir, 'jest.json'),
      JSON.stringify({
        runs: [{ runner: 'jest', passed: 2, failed: 0, skipped: 1, collectionErrors: 1, listing: false }],
      }),
    );
    await fs.writeFile(
      path.join(dir, 'vitest.json'),
      JSON.stringify({ runs: [{ runner: 'vitest', passed: 0, failed: 0, skipped: 0 }] }),
    );
    assert.deepEqual(await readEvidence(dir), {
      runner: 'jest',
      passed: 2,
      failed: 0,
      skipped: 1,
      collectionErrors: 1,
    });
  });
});
