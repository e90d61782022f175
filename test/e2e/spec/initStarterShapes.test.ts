// `weave init` then `weave check` on the project shapes whose starters failed as written (issue #40): a
// `packageManager: pnpm` project whose test script calls pnpm (not on this machine: `npm test` exits 127), a
// composite test script that lints before it tests (the lint fails here), a suite of several folders (one spec
// for all of it cannot be selected alone, and its time-out was a guess), a test that measures wall-clock time.
// Each starter must pass its first check on seen test results, and say what it changed from the project's
// script. The vitest fixtures use the project's own vitest (node_modules linked, nothing downloads).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { onPath } from '../../../src/core/spec/starter';
import { CLI, FIXTURES, REPO_ROOT } from '../../support/paths';

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

function cli(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, timeout: 600_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

async function copyOf(fixture: string, linkNodeModules: boolean): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `weave-init-${fixture}-`));
  cleanup.push(dir);
  await fs.cp(path.join(FIXTURES, 'init', fixture), dir, { recursive: true });
  if (linkNodeModules) await fs.symlink(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

interface Checked {
  run: { results: Array<{ id: string; verdict: string; evidence: string; reason?: string; output: string }> };
}

async function initAndCheck(fixture: string, options: { link?: boolean; init?: string[] } = {}) {
  const dir = await copyOf(fixture, options.link === true);
  const init = await cli(['init', ...(options.init ?? [])], dir);
  assert.equal(init.code, 0, init.stderr);
  const text = await fs.readFile(path.join(dir, '.weave', 'specs.json'), 'utf8');
  const check = await cli(['check', '--json', '--no-record', '--concurrency', '2'], dir);
  const doc = JSON.parse(check.stdout) as Checked;
  for (const r of doc.run.results) {
    assert.equal(r.verdict, 'pass', `${fixture}/${r.id}: ${r.reason ?? ''}\n${text}\n${r.output}`);
    assert.equal(r.evidence, 'runner', `${fixture}/${r.id} passed on ${r.evidence} evidence`);
  }
  assert.equal(check.code, 0, check.stderr);
  const { specs } = JSON.parse(text.replace(/^\/\/.*$/gm, '')) as {
    specs: Array<{
      id: string;
      kind: string;
      test: { command: string; files: string[]; timeoutSeconds?: number };
    }>;
  };
  return { dir, text, specs, initOutput: init.stdout, results: doc.run.results };
}

describe('weave init starters that pass as written', () => {
  it('packageManager pnpm, a test script that calls pnpm, no pnpm here: the test step alone, and says why', async () => {
    assert.equal(
      onPath('pnpm'),
      false,
      'this shape needs a machine without pnpm (the starter would run pnpm test)',
    );
    const { specs, text } = await initAndCheck('js-pnpm');
    assert.deepEqual(
      specs.map((s) => s.test.command),
      ['node --test'],
    );
    assert.match(
      text,
      /declares pnpm \(packageManager: pnpm@9\.15\.0\), which is not installed on this machine/,
    );
    assert.match(text, /also runs `pnpm run build`: the spec runs only the tests/);
  });

  it('a composite test script (lint && vitest run): the runner’s focused command with the script’s options', async () => {
    const { specs, text, initOutput } = await initAndCheck('js-composite-vitest', { link: true });
    assert.deepEqual(
      specs.map((s) => s.test.command),
      ['npx vitest run --pool=threads'],
    );
    assert.match(text, /also runs `npm run lint`/);
    assert.match(initOutput, /also runs `npm run lint`/);
  });

  it('a suite in several folders: one spec per folder, time-outs from a measured first run', async () => {
    const { specs, initOutput } = await initAndCheck('js-slow-folders', { link: true, init: ['--measure'] });
    assert.deepEqual(
      specs.map((s) => [s.id, s.test.command, s.test.files]),
      [
        [
          'test-integration',
          'npx vitest run test/integration',
          ['test/integration/batch.test.js', 'test/integration/retry.test.js'],
        ],
        ['test-unit', 'npx vitest run test/unit', ['test/unit/drain.test.js', 'test/unit/order.test.js']],
      ],
    );
    for (const s of specs) {
      const line = new RegExp(`measured ${s.id}: ([\\d.]+) s \\(pass\\) → timeoutSeconds (\\d+)`).exec(
        initOutput,
      );
      assert.ok(line, initOutput);
      assert.equal(s.test.timeoutSeconds, Number(line[2]));
      assert.ok(Number(line[2]) >= Math.max(120, 3 * Number(line[1])), line[0]);
    }
  });

  it('a test that measures wall-clock time is flagged timing-sensitive and gets a performance spec', async () => {
    const { specs, text } = await initAndCheck('js-wall-clock');
    assert.deepEqual(
      specs.map((s) => [s.kind, s.test.command]),
      [
        ['reliability', 'node --test test/order.test.js'],
        ['reliability', 'node --test test/sort.test.js'],
        ['reliability', 'node --test test/unique.test.js'],
        ['performance', 'node --test test/speed.test.js'],
      ],
    );
    assert.match(text, /Timing-sensitive: test\/speed\.test\.js measures wall-clock time/);
  });
});
