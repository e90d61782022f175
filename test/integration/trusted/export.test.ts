// "Weave: export workspace as benchmark task" in the real extension host, on the trusted fixture (a git
// repository with one commit, where clamp-bounds fails). The test fixes clamp on disk, exports through the
// command's scripted argument (the folder dialog cannot be clicked here), and checks the written task; the
// user's workspace must be left exactly as it was apart from that one edit, which is undone afterwards.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { ExportResult } from '../../../src/core/tasks/export/exportTask';
import { taskSchema } from '../../../src/core/tasks/taskFormat';
import { fixtureFilesForSuite, readText, weaveApi, workspaceUri } from '../helpers';

const BUG = '  return Math.max(low, value);';
const FIX = '  return Math.min(high, Math.max(low, value));';

/** Every file under `dir` except .git/, with its bytes. */
function filesOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = path.relative(dir, path.join(entry.parentPath, entry.name));
    if (rel.split(path.sep)[0] === '.git') continue;
    files.set(rel, fs.readFileSync(path.join(dir, rel), 'latin1'));
  }
  return files;
}

function gitStatus(dir: string): string {
  return execFileSync('git', ['--no-optional-locks', 'status', '--porcelain', '--untracked-files=all'], {
    cwd: dir,
    encoding: 'utf8',
  });
}

suite('export as benchmark task', () => {
  fixtureFilesForSuite('src/math.js', '.weave/specs.json');
  const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-export-test-'));
  suiteTeardown(() => fs.rmSync(outRoot, { recursive: true, force: true }));

  test('with a fix on disk, weave.export writes a verified task whose FAIL_TO_PASS is the fixed spec', async () => {
    await weaveApi();
    assert.equal(vscode.workspace.isTrusted, true, 'this suite runs in a trusted folder');
    const folder = workspaceUri().fsPath;
    const math = workspaceUri('src', 'math.js');
    const original = await readText(math);
    assert.ok(original.includes(BUG), 'the fixture no longer has the clamp bug this test fixes');
    const onDisk = parse(await readText(workspaceUri('.weave', 'specs.json'))) as {
      specs: Array<{ id: string }>;
    };
    const specIds = onDisk.specs.map((s) => s.id).sort();
    assert.ok(specIds.includes('clamp-bounds'), 'the fixture lost its clamp-bounds spec');
    const filesBefore = filesOf(folder);
    const statusBefore = gitStatus(folder);
    const out = path.join(outRoot, 'task');

    await vscode.workspace.fs.writeFile(math, new TextEncoder().encode(original.replace(BUG, FIX)));
    let result: ExportResult | undefined;
    let filesDuring: Map<string, string>;
    try {
      result = await vscode.commands.executeCommand<ExportResult | undefined>('weave.export', { out });
      filesDuring = filesOf(folder);
    } finally {
      await vscode.workspace.fs.writeFile(math, new TextEncoder().encode(original));
    }

    // undefined would mean a guard (untrusted, no folder, bad argument) or an error stopped the export.
    assert.ok(result, 'weave.export returned nothing: it did not run');
    assert.deepEqual(result.reasons, [], 'the task did not verify');
    assert.equal(result.written, true);
    assert.equal(result.verified, true);
    assert.equal(result.outDir, out);
    assert.deepEqual(result.failToPass, ['clamp-bounds']);
    // Earlier suites edit specs.json (the panel suite renames and adds specs): expect what is on disk now.
    const otherSpecs = specIds.filter((id) => id !== 'clamp-bounds');
    assert.deepEqual([...result.passToPass].sort(), otherSpecs, JSON.stringify(result.task.verification));

    for (const file of [
      'task.json',
      'problem_statement.md',
      'gold.patch',
      'test.patch',
      'eval.sh',
      'base.bundle',
    ])
      assert.ok(fs.existsSync(path.join(out, file)), `${file} was not written`);
    const taskText = fs.readFileSync(path.join(out, 'task.json'), 'utf8');
    const task = taskSchema.parse(JSON.parse(taskText));
    assert.deepEqual(task.FAIL_TO_PASS, ['clamp-bounds']);
    assert.deepEqual(task.PASS_TO_PASS, result.passToPass);
    assert.equal(task.instance_id, result.instanceId);
    assert.match(task.base_commit, /^[0-9a-f]{40}$/);
    assert.equal(task.verified, true);
    assert.match(task.patch, /^\+\s*return Math\.min\(high, Math\.max\(low, value\)\);$/m);
    assert.doesNotMatch(task.patch, /specs\.json|clamp\.test\.js/, 'the gold patch carries spec test files');
    assert.deepEqual(task.specs.map((s) => s.id).sort(), specIds);
    assert.ok(!taskText.includes(folder), 'task.json names the workspace folder by its absolute path');
    assert.equal(fs.readFileSync(path.join(out, 'gold.patch'), 'utf8'), task.patch);

    // The export only read the workspace: during it, only src/math.js differed; afterwards nothing does.
    const changedDuring = [...new Set([...filesBefore.keys(), ...filesDuring.keys()])].filter(
      (f) => filesBefore.get(f) !== filesDuring.get(f),
    );
    assert.deepEqual(changedDuring, [path.join('src', 'math.js')]);
    assert.deepEqual(filesOf(folder), filesBefore);
    assert.equal(gitStatus(folder), statusBefore);
  });

  test('a change that fixes nothing: weave.export refuses with the spec and its output, and leaves no new folder', async () => {
    await weaveApi();
    const math = workspaceUri('src', 'math.js');
    const original = await readText(math);
    const parent = path.join(outRoot, 'refused');
    await vscode.workspace.fs.writeFile(
      math,
      new TextEncoder().encode(`${original}\n// a change that fixes nothing\n`),
    );
    let result: ExportResult | undefined;
    try {
      result = await vscode.commands.executeCommand<ExportResult | undefined>('weave.export', {
        out: path.join(parent, 'deeper', 'task'),
      });
    } finally {
      await vscode.workspace.fs.writeFile(math, new TextEncoder().encode(original));
    }
    assert.ok(result, 'weave.export returned nothing: it did not run');
    assert.equal(result.written, false);
    const clamp = result.reasons.find((r) => r.spec === 'clamp-bounds');
    assert.ok(clamp, JSON.stringify(result.reasons));
    // The reason carries the test's own output after "its output ends:", not nothing.
    assert.match(clamp.reason, /does not pass with the gold patch: fail.*; its output ends:\n\s+\S/s);
    assert.equal(fs.existsSync(parent), false, 'the refused export left a folder behind');
  });

  test('a bad command argument exports nothing', async () => {
    const out = path.join(outRoot, 'bad');
    const result = await vscode.commands.executeCommand<ExportResult | undefined>('weave.export', {
      out,
      allowUnverified: 'yes',
    });
    assert.equal(result, undefined);
    assert.equal(fs.existsSync(out), false);
  });
});
