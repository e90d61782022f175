// Export's choices and refusals: default base, subfolder workspaces, remotes, tasks that do not verify
// (per-spec reasons, --allow-unverified), eval.sh's own per-spec timeout, and the CLI's exit codes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportTask, ExportInputError } from '../../../src/core/tasks/export/exportTask';
import { evaluate } from '../../../src/core/tasks/eval/evalTasks';
import { CLI, applyPatch, git, makeDemoRepo, readPatch, treeFingerprint } from '../../support/demoRepo';

describe('weave export: choices and refusals', () => {
  let scratch: string;
  before(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-edges-'));
  });
  after(() => fs.rmSync(scratch, { recursive: true, force: true }));
  const out = (name: string): string => path.join(scratch, name);

  it('refuses a folder with no git history, and a repository without commits', async () => {
    const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-nogit-'));
    try {
      fs.cpSync(path.join(__dirname, '../../../../examples'), plain, { recursive: true });
      await assert.rejects(exportTask({ workspaceDir: plain, outDir: out('nogit') }), (e: unknown) => {
        assert.ok(e instanceof ExportInputError);
        assert.match(e.message, /is not in a git repository: .*needs git history/);
        return true;
      });
      git(plain, 'init', '-q');
      await assert.rejects(exportTask({ workspaceDir: plain, outDir: out('nogit') }), /has no commits yet/);
      assert.equal(fs.existsSync(out('nogit')), false);
    } finally {
      fs.rmSync(plain, { recursive: true, force: true });
    }
  });

  it('exports a subfolder workspace of a committed change: base HEAD~1, paths relative to the folder, repo from the remote', async () => {
    const repo = makeDemoRepo({ subdir: 'packages/demo' });
    try {
      git(repo.root, 'remote', 'add', 'origin', 'https://someone:ghp_notreal@github.com/acme/widgets.git');
      applyPatch(repo.root, prefixPatch(readPatch('fix-secret-caching.patch'), 'packages/demo/'));
      git(repo.root, 'commit', '-qam', 'fix');
      fs.writeFileSync(
        path.join(repo.root, 'outside.js'),
        'changes outside the workspace are not part of it\n',
      );
      const before = treeFingerprint(repo.root);
      const result = await exportTask({ workspaceDir: repo.workspace, outDir: out('sub') });
      assert.deepEqual(treeFingerprint(repo.root), before);
      assert.equal(result.baseRef, 'HEAD~1', 'a clean workspace exports its last commit');
      assert.equal(result.verified, true, JSON.stringify(result.reasons));
      assert.equal(result.task.repo, 'acme/widgets');
      assert.match(result.instanceId, /^acme__widgets-[0-9a-f]{8}$/);
      assert.equal(result.task.source.workspace_subdir, 'packages/demo');
      const gold = fs.readFileSync(path.join(out('sub'), 'gold.patch'), 'utf8');
      assert.match(gold, /^diff --git a\/src\/client\.js b\/src\/client\.js$/m);
      assert.doesNotMatch(gold, /packages\/demo|outside\.js/);
      assert.ok(!fs.readFileSync(path.join(out('sub'), 'task.json'), 'utf8').includes('ghp_notreal'));
    } finally {
      repo.cleanup();
    }
  });

  it('does not write a task whose change breaks a spec, and names the spec; --allow-unverified writes it marked', async () => {
    const repo = makeDemoRepo();
    try {
      applyPatch(repo.workspace, readPatch('break-staleness.patch'));
      const refused = await exportTask({ workspaceDir: repo.workspace, outDir: out('broken') });
      assert.equal(refused.written, false);
      assert.equal(fs.existsSync(out('broken')), false);
      // The broken spec, and the one the change does not fix (it fails on the base too).
      assert.deepEqual(
        refused.reasons.map((r) => r.spec),
        ['no-stale-read', 'no-secret-caching'],
        JSON.stringify(refused.reasons),
      );
      assert.match(
        refused.reasons[0]?.reason ?? '',
        /passes on base \+ test\.patch but does not pass with the gold patch: fail/,
      );

      const written = await exportTask({
        workspaceDir: repo.workspace,
        outDir: out('broken'),
        allowUnverified: true,
      });
      assert.equal(written.written, true);
      const task = JSON.parse(fs.readFileSync(path.join(out('broken'), 'task.json'), 'utf8')) as {
        verified: boolean;
        verification: { reasons: unknown[] };
      };
      assert.equal(task.verified, false);
      assert.equal(task.verification.reasons.length, 2);
    } finally {
      repo.cleanup();
    }
  });

  it('refuses when there is nothing to export, and a non-empty --out', async () => {
    const repo = makeDemoRepo();
    try {
      await assert.rejects(
        exportTask({ workspaceDir: repo.workspace, outDir: out('x') }),
        /HEAD has no parent/,
      );
      fs.writeFileSync(path.join(repo.workspace, 'README.md'), 'changed\n');
      fs.mkdirSync(out('busy'));
      fs.writeFileSync(path.join(out('busy'), 'mine.txt'), 'keep me');
      await assert.rejects(
        exportTask({ workspaceDir: repo.workspace, outDir: out('busy') }),
        /is not empty \(mine\.txt\)/,
      );
      assert.equal(fs.readFileSync(path.join(out('busy'), 'mine.txt'), 'utf8'), 'keep me');
    } finally {
      repo.cleanup();
    }
  });

  it('a write that fails after the task verified takes the new folder away again, parents included', async () => {
    const repo = makeDemoRepo();
    try {
      applyPatch(repo.workspace, readPatch('fix-secret-caching.patch'));
      // --dataset under a file: its folder cannot be made, after the task files went into --out.
      const blocker = out('a-file');
      fs.writeFileSync(blocker, 'not a folder\n');
      const target = path.join(out('fresh'), 'deeper', 'task');
      await assert.rejects(
        exportTask({
          workspaceDir: repo.workspace,
          outDir: target,
          datasetFile: path.join(blocker, 'tasks.jsonl'),
        }),
        /ENOTDIR|EEXIST/,
      );
      assert.equal(fs.existsSync(out('fresh')), false, 'the failed export left its new folder behind');
      assert.equal(fs.readFileSync(blocker, 'utf8'), 'not a folder\n');
    } finally {
      repo.cleanup();
    }
  });

  it('eval.sh times out a hanging spec by itself and still runs the others', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-mini-'));
    try {
      fs.mkdirSync(path.join(ws, '.weave'));
      fs.writeFileSync(
        path.join(ws, '.weave/specs.json'),
        JSON.stringify({
          version: 1,
          goal: 'Say yes.',
          specs: [
            {
              id: 'hangs',
              title: 'Hangs',
              kind: 'reliability',
              statement: 'Never ends.',
              test: { command: 'sleep 60', timeoutSeconds: 1 },
            },
            {
              id: 'says-yes',
              title: 'Says yes',
              kind: 'functional',
              statement: 'flag.txt says yes.',
              test: { command: 'grep -q yes flag.txt' },
            },
          ],
        }),
      );
      fs.writeFileSync(path.join(ws, 'flag.txt'), 'no\n');
      git(ws, 'init', '-q');
      git(ws, 'add', '-A');
      git(ws, '-c', 'user.name=T', '-c', 'user.email=t@t', 'commit', '-qm', 'base');
      fs.writeFileSync(path.join(ws, 'flag.txt'), 'yes\n');
      const result = await exportTask({ workspaceDir: ws, outDir: out('mini'), allowUnverified: true });
      assert.deepEqual(result.failToPass, ['says-yes']);
      assert.deepEqual(
        result.reasons.map((r) => [r.spec, /timed out after 1 s/.test(r.reason)]),
        [['hangs', true]],
      );
      const started = Date.now();
      const report = await evaluate({ taskDirs: [out('mini')], gold: true, workers: 1 });
      assert.ok(Date.now() - started < 30_000, 'the 60 s sleep was cut short');
      const r = report.instances[result.instanceId];
      assert.equal(r?.spec_results.hangs?.verdict, 'error');
      assert.match(r?.spec_results.hangs?.reason ?? '', /timed out after 1 s/);
      // `grep` is no test runner Weave's hooks observe: its pass rests on the exit code alone, so `weave eval`
      // (which judges every prediction, the gold one too, on runner evidence) calls it unverified, and says so.
      assert.equal(r?.spec_results['says-yes']?.verdict, 'unverified');
      assert.match(
        r?.error ?? '',
        /says-yes: passed without the test runner's signed results \(unverified\)/,
      );
      assert.equal(r?.resolved, false);
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it('CLI: exit 2 with a clear message for bad input, 0 and a summary for a task', () => {
    const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-cli-'));
    try {
      const noGit = spawnSync(
        process.execPath,
        [CLI, 'export', '--workspace', plain, '--out', out('cli-x')],
        { encoding: 'utf8' },
      );
      assert.equal(noGit.status, 2);
      assert.match(noGit.stderr, /^weave export: .* is not in a git repository/m);
      assert.doesNotMatch(noGit.stderr, /\n\s+at /, 'no stack trace');
      const noOut = spawnSync(process.execPath, [CLI, 'export'], { encoding: 'utf8' });
      assert.equal(noOut.status, 2);
      assert.match(noOut.stderr, /--out DIR is required/);
      const badEval = spawnSync(process.execPath, [CLI, 'eval', '--tasks', plain, '--gold'], {
        encoding: 'utf8',
      });
      assert.equal(badEval.status, 2);
      assert.match(badEval.stderr, /no task folder found/);
      const both = spawnSync(process.execPath, [CLI, 'eval', '--tasks', plain], { encoding: 'utf8' });
      assert.equal(both.status, 2);
      assert.match(both.stderr, /exactly one of --predictions FILE and --gold/);
    } finally {
      fs.rmSync(plain, { recursive: true, force: true });
    }
  });
});

/** Re-roots a patch's paths under `prefix`. */
function prefixPatch(patch: string, prefix: string): string {
  return patch.replace(/^(---|\+\+\+) ([ab])\//gm, `$1 $2/${prefix}`);
}
