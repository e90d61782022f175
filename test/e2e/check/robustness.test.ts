// Robustness gaps of issue #9.7, on real processes, files and git: a NUL byte in a command, malformed or
// foreign files in .weave/runs/, symlinks there, an unwritable --junit path, a tree that changes during a run,
// a test.files entry that does not exist.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { runSpecs } from '../../../src/core/check/runSpecs';
import { latestCleanRun, listRuns, MAX_STORED_RUNS, saveRun } from '../../../src/core/check/runStore';
import type { RunRecord } from '../../../src/core/check/types';
import { loadSpecFile } from '../../../src/core/spec/load';
import { specFileSchema } from '../../../src/shared/specSchema';
import { makeRepo } from '../../support/gitRepo';

const cli = path.resolve(__dirname, '../../../../dist/cli.js');
const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-robust-'));
  cleanup.push(dir);
  return dir;
}

function specsJson(specs: Array<{ id: string; command: string; files?: string[] }>): string {
  return JSON.stringify({
    version: 1,
    specs: specs.map((s) => ({
      id: s.id,
      title: s.id,
      kind: 'functional',
      statement: s.id,
      test: { command: s.command, ...(s.files ? { files: s.files } : {}) },
    })),
  });
}

function record(id: string, clean = true): RunRecord {
  return {
    id,
    startedAt: '2026-12-01T00:00:00.000Z',
    finishedAt: '2026-12-01T00:00:01.000Z',
    commit: null,
    clean,
    specIds: ['a'],
    results: [
      {
        id: 'a',
        kind: 'functional',
        verdict: 'pass',
        exitCode: 0,
        signal: null,
        durationMs: 1,
        evidence: 'runner',
        output: '',
        truncatedBytes: 0,
      },
    ],
  };
}

describe('robustness', () => {
  it('a NUL byte in a command (spec file not validated) errors that spec; its sibling still runs', async () => {
    const dir = await tempDir();
    const specFile = specFileSchema.parse({
      version: 1,
      specs: [
        { id: 'nul', title: 'n', kind: 'functional', statement: 'n', test: { command: 'echo a\u0000b' } },
        { id: 'sibling', title: 's', kind: 'functional', statement: 's', test: { command: 'echo ok' } },
      ],
    });
    const results = await runSpecs({ workspaceDir: dir, specFile });
    assert.deepEqual(
      results.map((r) => [r.id, r.verdict]),
      [
        ['nul', 'error'],
        ['sibling', 'pass'],
      ],
    );
    assert.match(results[0]?.reason ?? '', /^could not start the command: .*null bytes/);
  });

  it('skips a malformed stored run with a warning naming it, and still finds the clean baseline', async () => {
    const dir = await tempDir();
    await saveRun(dir, record('2026-12-01T00-00-00-000Z-aaaa'));
    const runs = path.join(dir, '.weave', 'runs');
    const broken = path.join(runs, '2026-12-01T00-00-05-000Z-bbbb.json');
    await fs.writeFile(broken, JSON.stringify({ ...record('x'), results: [null] }));
    const notJson = path.join(runs, '2026-12-01T00-00-06-000Z-cccc.json');
    await fs.writeFile(notJson, '{"id": ');
    const warnings: string[] = [];
    const baseline = await latestCleanRun(dir, ['a'], (w) => warnings.push(w));
    assert.equal(baseline?.id, '2026-12-01T00-00-00-000Z-aaaa');
    assert.deepEqual(warnings, [
      `skipped stored run ${notJson}: not valid JSON`,
      `skipped stored run ${broken}: results[0] is not a spec result (an object with an id and a verdict)`,
    ]);
    assert.deepEqual(
      (await listRuns(dir)).map((r) => r.id),
      ['2026-12-01T00-00-00-000Z-aaaa'],
    );
  });

  it("prunes only Weave's own run files and never follows or deletes a symlink", async () => {
    const dir = await tempDir();
    const runs = path.join(dir, '.weave', 'runs');
    await fs.mkdir(runs, { recursive: true });
    for (let i = 0; i < MAX_STORED_RUNS + 5; i++) {
      const id = `2026-11-01T00-00-${String(i).padStart(2, '0')}-000Z-0000`;
      await fs.writeFile(path.join(runs, `${id}.json`), JSON.stringify(record(id)));
    }
    await fs.writeFile(path.join(runs, 'notes.json'), '{"mine": true}');
    const outside = path.join(dir, 'precious.json');
    await fs.writeFile(outside, '{"keep": true}');
    const link = path.join(runs, '2000-01-01T00-00-00-000Z-0000.json');
    await fs.symlink(outside, link);

    await saveRun(dir, record('2026-12-01T00-00-00-000Z-ffff'));
    const left = (await fs.readdir(runs)).sort();
    assert.ok(left.includes('notes.json'), 'a file Weave did not write is kept');
    assert.ok(left.includes(path.basename(link)), 'the symlink is not deleted');
    assert.equal(await fs.readFile(outside, 'utf8'), '{"keep": true}');
    const own = left.filter((n) => /^\d{4}-.*Z-[0-9a-f]{4}\.json$/.test(n) && n !== path.basename(link));
    assert.equal(own.length, MAX_STORED_RUNS);
    assert.ok(own.includes('2026-12-01T00-00-00-000Z-ffff.json'));
    assert.ok(!own.includes('2026-11-01T00-00-05-000Z-0000.json'), 'the oldest own runs were pruned');
  });

  it('--junit to a path that cannot be written fails with exit 2 before any test runs', async () => {
    const ws = await makeRepo({ '.weave/specs.json': specsJson([{ id: 'a', command: 'touch ran.txt' }]) });
    cleanup.push(ws);
    const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
    delete env.NODE_TEST_CONTEXT;
    for (const target of [path.join(ws, 'missing-folder', 'report.xml'), ws]) {
      const r = spawnSync(process.execPath, [cli, 'check', '--junit', target], {
        cwd: ws,
        encoding: 'utf8',
        env,
      });
      assert.equal(r.status, 2, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /^weave check: --junit .*: (folder .* does not exist|is a folder); nothing was run$/m,
      );
    }
    await assert.rejects(fs.access(path.join(ws, 'ran.txt')), 'the spec command never ran');
    await assert.rejects(fs.access(path.join(ws, '.weave', 'runs')), 'no run was recorded');
  });

  it('a run during which the tree changed is not recorded as clean', async () => {
    const ws = await makeRepo({
      '.weave/specs.json': specsJson([{ id: 'writes', command: 'echo changed >> state.txt' }]),
      'state.txt': 'start\n',
    });
    cleanup.push(ws);
    const result = await checkWorkspace({ workspaceDir: ws, record: false });
    assert.equal(result.run.results[0]?.verdict, 'pass');
    assert.equal(result.run.clean, false);
    const untouched = await makeRepo({ '.weave/specs.json': specsJson([{ id: 'reads', command: 'true' }]) });
    cleanup.push(untouched);
    assert.equal((await checkWorkspace({ workspaceDir: untouched, record: false })).run.clean, true);
  });

  it('a test.files entry that does not exist is a located warning', async () => {
    const dir = await tempDir();
    await fs.mkdir(path.join(dir, '.weave'));
    await fs.mkdir(path.join(dir, 'test'));
    await fs.writeFile(path.join(dir, 'test', 'real.test.js'), '');
    await fs.writeFile(
      path.join(dir, '.weave', 'specs.json'),
      specsJson([{ id: 'a', command: 'true', files: ['test/real.test.js', 'test/typo.test.js', 'test'] }]),
    );
    const loaded = await loadSpecFile(dir);
    assert.ok(loaded.ok);
    assert.deepEqual(
      loaded.warnings.map((w) => [w.path, w.severity, w.message]),
      [
        [
          'specs[0].test.files[1]',
          'warning',
          'test file "test/typo.test.js" does not exist: the real test stays unprotected (fix the path)',
        ],
        [
          'specs[0].test.files[2]',
          'warning',
          'test file "test" is a folder: list the test files themselves, or they stay unprotected',
        ],
      ],
    );
    const text = await fs.readFile(path.join(dir, '.weave', 'specs.json'), 'utf8');
    const warning = loaded.warnings[0];
    assert.equal(
      text
        .split('\n')[0]
        ?.slice((warning?.column ?? 1) - 1)
        .startsWith('"test/typo.test.js"'),
      true,
    );
  });
});
