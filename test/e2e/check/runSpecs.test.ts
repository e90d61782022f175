// runSpecs on real commands in a temp workspace: parallelism, dependency blocking, --only, repeat/flaky,
// cancellation, per-spec cwd/env/timeout, and zero-test runs.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CheckInputError, runSpecs, type RunProgress } from '../../../src/core/check/runSpecs';
import { isProcessAlive } from '../../../src/core/process/processTree';
import { specFileSchema, type SpecFile, type SpecFileInput } from '../../../src/shared/specSchema';

let dir: string;
before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-specs-'));
  await fs.mkdir(path.join(dir, 'sub'));
  await fs.writeFile(
    path.join(dir, 'none.test.js'),
    "const test = require('node:test');\ntest('a', () => {});\ntest('b', () => {});\n",
  );
});
after(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

type SpecInput = SpecFileInput['specs'][number];
function spec(id: string, command: string, extra: Partial<SpecInput> = {}): SpecInput {
  return { id, title: id, kind: 'functional', statement: id, test: { command }, ...extra };
}
function specFile(specs: SpecInput[], defaults: SpecFileInput['defaults'] = undefined): SpecFile {
  return specFileSchema.parse({ version: 1, specs, ...(defaults ? { defaults } : {}) });
}

describe('runSpecs', () => {
  it('gives each spec its verdict, in file order, with cwd/env/timeout from spec over defaults', async () => {
    const file = specFile(
      [
        spec('passes', 'test "$A" = from-defaults && test "$B" = from-spec', {
          test: { command: 'test "$A" = from-defaults && test "$B" = from-spec', env: { B: 'from-spec' } },
        }),
        spec('fails', 'exit 1'),
        spec('in-sub', 'test "$(basename "$PWD")" = sub', {
          test: { command: 'test "$(basename "$PWD")" = sub', cwd: 'sub' },
        }),
        spec('slow', 'sleep 30', { test: { command: 'sleep 30', timeoutSeconds: 0.5 } }),
        spec('missing', 'weave-definitely-missing-tool run'),
      ],
      { cwd: '.', env: { A: 'from-defaults', B: 'overridden' }, timeoutSeconds: 60 },
    );
    const results = await runSpecs({ workspaceDir: dir, specFile: file, killGraceMs: 200 });
    assert.deepEqual(
      results.map((r) => [r.id, r.verdict]),
      [
        ['passes', 'pass'],
        ['fails', 'fail'],
        ['in-sub', 'pass'],
        ['slow', 'error'],
        ['missing', 'error'],
      ],
    );
    assert.equal(results[3]?.reason, 'timed out after 0.5 s');
    assert.match(
      results[4]?.reason ?? '',
      /^command not found \(exit 127\): .*weave-definitely-missing-tool/,
    );
  });

  it('makes exit 0 with zero tests an error "ran no test" (node:test, mocha-style, pytest-style)', async () => {
    const file = specFile([
      spec('node-filtered', 'node --test --test-name-pattern=nothing-matches none.test.js'),
      spec('mocha-style', "printf '\\n  0 passing (1ms)\\n'"),
      spec('pytest-style', "echo '==== no tests ran in 0.01s ===='"),
      spec('node-ran', 'node --test none.test.js'),
    ]);
    const results = await runSpecs({ workspaceDir: dir, specFile: file });
    assert.deepEqual(
      results.map((r) => r.verdict),
      ['error', 'error', 'error', 'pass'],
    );
    for (const r of results.slice(0, 3)) assert.match(r.reason ?? '', /^ran no test/);
    assert.deepEqual(results[3]?.summary, { runner: 'node:test', passed: 2, failed: 0, skipped: 0 });
  });

  it('blocks dependents of a failing spec without running them, naming the dependency', async () => {
    const marker = path.join(dir, 'dependent-ran');
    const file = specFile([
      spec('leaf', `touch ${marker}`, { dependsOn: ['middle'] }),
      spec('middle', 'true', { dependsOn: ['base'] }),
      spec('base', 'exit 2'),
      spec('independent', 'true'),
    ]);
    const results = await runSpecs({ workspaceDir: dir, specFile: file });
    const byId = new Map(results.map((r) => [r.id, r]));
    assert.equal(byId.get('base')?.verdict, 'fail');
    assert.equal(byId.get('middle')?.verdict, 'blocked');
    assert.equal(byId.get('middle')?.reason, 'blocked by base (base: fail)');
    assert.equal(byId.get('leaf')?.verdict, 'blocked');
    assert.equal(byId.get('leaf')?.reason, 'blocked by middle (middle: blocked)');
    assert.equal(byId.get('independent')?.verdict, 'pass');
    await assert.rejects(fs.access(marker), 'the blocked spec never ran');
  });

  it('runs a dependency before its dependent', async () => {
    const log = path.join(dir, 'order.log');
    const file = specFile([
      spec('second', `echo second >> ${log}`, { dependsOn: ['first'] }),
      spec('first', `sleep 0.3; echo first >> ${log}`),
    ]);
    await runSpecs({ workspaceDir: dir, specFile: file, concurrency: 4 });
    assert.equal(await fs.readFile(log, 'utf8'), 'first\nsecond\n');
  });

  it('with only, runs the selection and its dependencies, marking the dependencies', async () => {
    const file = specFile([spec('a', 'true'), spec('b', 'true', { dependsOn: ['a'] }), spec('c', 'true')]);
    const results = await runSpecs({ workspaceDir: dir, specFile: file, only: ['b'] });
    assert.deepEqual(
      results.map((r) => [r.id, r.verdict, r.ranAsDependency ?? false]),
      [
        ['a', 'pass', true],
        ['b', 'pass', false],
      ],
    );
    await assert.rejects(runSpecs({ workspaceDir: dir, specFile: file, only: ['nope'] }), CheckInputError);
    await assert.rejects(
      runSpecs({ workspaceDir: dir, specFile: file, concurrency: 0 }),
      /concurrency must be/,
    );
  });

  it('runs specs in parallel up to the concurrency', async () => {
    const file = specFile(['p1', 'p2', 'p3', 'p4'].map((id) => spec(id, 'sleep 0.4')));
    let running = 0;
    let peak = 0;
    const onProgress = (e: RunProgress): void => {
      running += e.type === 'started' ? 1 : -1;
      peak = Math.max(peak, running);
    };
    // Four running at once is the behaviour; how long that took is load's business (a timing bound here failed
    // under load without anything being wrong).
    await runSpecs({ workspaceDir: dir, specFile: file, concurrency: 4, onProgress });
    assert.equal(peak, 4);
    peak = 0;
    await runSpecs({ workspaceDir: dir, specFile: file, concurrency: 1, onProgress });
    assert.equal(peak, 1);
  });

  it('reports flaky when repeats disagree', async () => {
    const counter = path.join(dir, 'flaky-count');
    // Fails on every second run: pass, fail, pass.
    const command = `n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${counter}; test $((n % 2)) -eq 1`;
    const file = specFile([spec('flaky', command), spec('steady', 'true')]);
    const results = await runSpecs({ workspaceDir: dir, specFile: file, repeat: 3 });
    assert.equal(results[0]?.verdict, 'flaky');
    assert.deepEqual(results[0]?.repeats, ['pass', 'fail', 'pass']);
    assert.equal(results[0]?.reason, 'verdicts differed across 3 runs: pass, fail, pass');
    assert.equal(results[1]?.verdict, 'pass');
    assert.deepEqual(results[1]?.repeats, ['pass', 'pass', 'pass']);
  });

  it('cancels: running commands are killed, the rest is skipped', async () => {
    const pidFile = path.join(dir, 'cancel.pids');
    const file = specFile([
      spec('hangs', `sleep 1000 & echo $! >> ${pidFile}; echo $$ >> ${pidFile}; wait`),
      spec('later', 'true', { dependsOn: ['hangs'] }),
      spec('queued', 'true'),
    ]);
    const controller = new AbortController();
    const running = runSpecs({
      workspaceDir: dir,
      specFile: file,
      concurrency: 1,
      signal: controller.signal,
      killGraceMs: 200,
    });
    const deadline = Date.now() + 5000;
    let pids: number[] = [];
    while (pids.length < 2) {
      if (Date.now() > deadline) assert.fail('the hanging spec never started');
      pids = (await fs.readFile(pidFile, 'utf8').catch(() => '')).split(/\s+/).filter(Boolean).map(Number);
      await new Promise((r) => setTimeout(r, 20));
    }
    controller.abort();
    const results = await running;
    assert.deepEqual(
      results.map((r) => [r.id, r.verdict, r.reason]),
      [
        ['hangs', 'skipped', 'cancelled'],
        ['later', 'skipped', 'cancelled'],
        ['queued', 'skipped', 'cancelled'],
      ],
    );
    assert.deepEqual(pids.filter(isProcessAlive), []);
  });
});
