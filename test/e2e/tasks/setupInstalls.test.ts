// What an export's set-up installs, on repository shapes that broke it (issue #40): a tox.ini whose deps list
// tools no spec uses (pytest-cov, a package no index here has) — installed only for the tox environments a spec
// runs, so the set-up neither installs nor fails on them; an npm dependency whose install script builds (or
// downloads) what it loads — skipped by default, named with the way to allow it when a spec then fails to load,
// and run with --allow-install-scripts; every set-up step timed in the output. And a unittest suite through
// export and `weave eval --gold`: resolved on unittest's own signed results (Weave's unittest hook).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportTask } from '../../../src/core/tasks/export/exportTask';
import { evaluate } from '../../../src/core/tasks/eval/evalTasks';
import { taskSchema } from '../../../src/core/tasks/taskFormat';
import { CLI, type DemoRepo } from '../../support/demoRepo';
import {
  makeInstallScriptRepo,
  makeToxUnusedDepsRepo,
  makeUnittestRepo,
} from '../../support/verifierFixtures';

const EXPORT_TIMEOUT_MS = 300_000;

interface ExportRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function weaveExport(cwd: string, out: string, ...extra: string[]): Promise<ExportRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'export', '--out', out, ...extra],
      { cwd, timeout: EXPORT_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('export set-up installs what the specs need', () => {
  const cleanups: Array<() => void> = [];
  after(() => {
    for (const cleanup of cleanups) cleanup();
  });
  const fresh = (make: () => DemoRepo): { repo: DemoRepo; out: string } => {
    const repo = make();
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-setup-installs-'));
    cleanups.push(repo.cleanup, () => fs.rmSync(out, { recursive: true, force: true }));
    return { repo, out };
  };

  it('tox deps no spec uses are neither installed nor fatal: the task verifies with no set-up', async () => {
    const { repo, out } = fresh(makeToxUnusedDepsRepo);
    const result = await exportTask({
      workspaceDir: repo.root,
      outDir: path.join(out, 'task'),
      weaveVersion: 'test',
    });
    assert.equal(result.verified, true, JSON.stringify(result.reasons));
    assert.deepEqual(result.failToPass, ['spaces']);
    assert.deepEqual(result.task.environment_setup, []);
    const dockerfile = fs.readFileSync(
      path.join(result.harborDir as string, 'environment/Dockerfile'),
      'utf8',
    );
    assert.doesNotMatch(dockerfile, /pytest-cov|weave-no-such-package|sphinx/);
  });

  it('skips a dependency’s install script by default and names it when the spec then fails to load', async () => {
    const { repo, out } = fresh(makeInstallScriptRepo);
    const run = await weaveExport(repo.root, path.join(out, 'task'));
    assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /did not verify/);
    assert.match(
      run.stdout,
      /skipped dependencies' install scripts \(--ignore-scripts; not run: built-pad\).*--allow-install-scripts/,
    );
    // Each set-up step timed in the output.
    assert.match(run.stderr, /set-up `npm ci --ignore-scripts` took \d+ s/);
  });

  it('--allow-install-scripts runs it: the task verifies, in eval.sh and the Dockerfile alike', async () => {
    const { repo, out } = fresh(makeInstallScriptRepo);
    const taskDir = path.join(out, 'task');
    const run = await weaveExport(repo.root, taskDir, '--allow-install-scripts');
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    const task = taskSchema.parse(JSON.parse(fs.readFileSync(path.join(taskDir, 'task.json'), 'utf8')));
    assert.deepEqual(task.environment_setup, ['npm ci']);
    const dockerfile = fs.readFileSync(path.join(taskDir, 'harbor/environment/Dockerfile'), 'utf8');
    assert.match(dockerfile, /^RUN npm ci$/m);
    assert.match(run.stderr, /set-up `npm ci` took \d+ s/);
  });

  it('"setup": { "allowInstallScripts": true } in .weave/specs.json does what the flag does', async () => {
    const { repo, out } = fresh(makeInstallScriptRepo);
    const specFile = path.join(repo.root, '.weave/specs.json');
    const specs = JSON.parse(fs.readFileSync(specFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(
      specFile,
      `${JSON.stringify({ ...specs, setup: { allowInstallScripts: true } }, null, 2)}\n`,
    );
    // Part of the base: the setting is the project's, not the change's.
    execFileSync('git', ['commit', '-q', '-m', 'allow install scripts', '--', '.weave/specs.json'], {
      cwd: repo.root,
    });
    const taskDir = path.join(out, 'task');
    const run = await weaveExport(repo.root, taskDir);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    const task = taskSchema.parse(JSON.parse(fs.readFileSync(path.join(taskDir, 'task.json'), 'utf8')));
    assert.deepEqual(task.environment_setup, ['npm ci']);
    assert.match(fs.readFileSync(path.join(taskDir, 'eval.sh'), 'utf8'), /\( npm ci \) <\/dev\/null/);
    const dockerfile = fs.readFileSync(path.join(taskDir, 'harbor/environment/Dockerfile'), 'utf8');
    assert.match(dockerfile, /^RUN npm ci$/m);
  });

  it("a unittest task: eval --gold resolves on the runner's signed results, every spec a verified pass", async () => {
    const { repo, out } = fresh(makeUnittestRepo);
    const taskDir = path.join(out, 'task');
    const exported = await exportTask({ workspaceDir: repo.root, outDir: taskDir, weaveVersion: 'test' });
    assert.equal(exported.verified, true, JSON.stringify(exported.reasons));
    assert.deepEqual(exported.failToPass, ['boiling']);
    assert.deepEqual(exported.passToPass, ['order']);
    const report = await evaluate({ taskDirs: [taskDir], gold: true });
    const gold = report.instances[exported.instanceId];
    assert.ok(gold !== undefined, JSON.stringify(report));
    // A contained pass is `pass` only on the runner's signed results (else `unverified`, which never resolves).
    assert.deepEqual(
      Object.entries(gold.spec_results).map(([id, r]) => [id, r.verdict]),
      [
        ['boiling', 'pass'],
        ['order', 'pass'],
      ],
      JSON.stringify(gold),
    );
    assert.deepEqual(gold.tests_status.FAIL_TO_PASS.success, ['boiling'], JSON.stringify(gold));
    assert.deepEqual(gold.tests_status.PASS_TO_PASS.success, ['order'], JSON.stringify(gold));
    assert.equal(gold.resolved, true, JSON.stringify(gold));
    assert.equal(gold.error, undefined);
  });
});
