// Per-spec coverage in VS Code: the Coverage profile reports which lines and functions each spec's test
// executed (Testing API), and "Check affected" selects from that coverage, naming what it skipped.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { readCoverageStore } from '../../../src/core/coverage/store';
import type { CheckAttempt } from '../../../src/extension/checks';
import { editAndSave, fixtureFilesForSuite, until, weaveApi, workspaceUri } from '../helpers';

function commitEverything(): void {
  const cwd = workspaceUri().fsPath;
  const identity = ['-c', 'user.name=Weave Tests', '-c', 'user.email=tests@weave.invalid'];
  execFileSync('git', ['add', '-A'], { cwd });
  execFileSync('git', [...identity, 'commit', '-q', '--allow-empty', '-m', 'state before coverage'], { cwd });
}

suite('per-spec coverage', () => {
  fixtureFilesForSuite('src/math.js', '.weave/specs.json');
  test('"run all tests with coverage" reports each file, and each spec’s own lines and functions', async () => {
    const api = await weaveApi();
    // Start from a committed tree (what the check cache left included), so coverage is recorded on HEAD's content.
    commitEverything();
    const before = api.testResults().finishedRuns;
    await vscode.commands.executeCommand('testing.coverageAll');
    await until('the coverage run to finish', () => api.testResults().finishedRuns > before, 90_000);
    const math = api
      .testResults()
      .coverage.find((f) => f.uri.toString() === workspaceUri('src', 'math.js').toString());
    assert.ok(
      math,
      `coverage of src/math.js in ${api
        .testResults()
        .coverage.map((f) => f.uri.path)
        .join(', ')}`,
    );
    // The code under test only: no spec test file (each run executes its own) is counted as covered code.
    const shown = api.testResults().coverage.map((f) => vscode.workspace.asRelativePath(f.uri, false));
    assert.deepEqual(
      shown.filter((p) => p.startsWith('test/') || /\.test\.js$/.test(p)),
      [],
      `coverage lists test files: ${shown.join(', ')}`,
    );
    // The specs whose tests load src/math.js.
    const including = math.includesTests?.map((t) => t.id) ?? [];
    assert.ok(
      including.includes('clamp-bounds') && including.includes('counter-increments'),
      including.join(', '),
    );
    assert.equal(math.declarationCoverage?.covered, 2);
    assert.equal(math.declarationCoverage?.total, 2);

    const run = api.testController.createTestRun(new vscode.TestRunRequest(), 'probe', false);
    try {
      const token = new vscode.CancellationTokenSource().token;
      const clampBounds = math.includesTests?.find((t) => t.id === 'clamp-bounds');
      assert.ok(clampBounds && api.coverageProfile.loadDetailedCoverageForTest);
      const details = await api.coverageProfile.loadDetailedCoverageForTest(run, math, clampBounds, token);
      const declarations = Object.fromEntries(
        details
          .filter((d): d is vscode.DeclarationCoverage => d instanceof vscode.DeclarationCoverage)
          .map((d) => [d.name, d.executed]),
      );
      assert.deepEqual(declarations, { add: false, clamp: true });
      const statements = details.filter(
        (d): d is vscode.StatementCoverage => d instanceof vscode.StatementCoverage,
      );
      const lineOf = (d: vscode.StatementCoverage): number =>
        d.location instanceof vscode.Range ? d.location.start.line : d.location.line;
      // Line 4 (0-based 3) is add's body, which clamp-bounds did not run; clamp's body (0-based 8) it ran.
      assert.equal(statements.find((s) => lineOf(s) === 3)?.executed, false);
      assert.equal(statements.find((s) => lineOf(s) === 8)?.executed, true);
    } finally {
      run.end();
    }
  });

  test('"Check affected" selects the specs whose tests executed the changed function and names the rest', async () => {
    const api = await weaveApi();
    const math = workspaceUri('src', 'math.js');
    // Every spec's test loads src/math.js (counter.js imports it), but only clamp-bounds executes clamp.
    const header = 'function clamp(value, low, high) {';
    await editAndSave(math, header, `${header}\n  void 0;`);
    try {
      const result = await vscode.commands.executeCommand<CheckAttempt>('weave.checkAffected');
      assert.ok(result.ran, result.ran ? '' : result.message);
      assert.deepEqual(result.outcome.run.specIds, ['clamp-bounds']);
      const selection = api.lastAffected();
      const others = (api.lastRun()?.specFile.specs ?? [])
        .map((sp) => sp.id)
        .filter((id) => id !== 'clamp-bounds');
      assert.ok(others.includes('counter-increments'), others.join(', '));
      assert.deepEqual(selection?.unaffected, others);
      assert.match(
        selection?.affected[0]?.reasons.join('\n') ?? '',
        /src\/math\.js:\d+.* is in clamp, which its test executed/,
      );
    } finally {
      await editAndSave(math, `${header}\n  void 0;`, header);
    }
  });

  test('the Coverage profile records again a spec whose file changed only where it did not run: its lines are today’s', async () => {
    const api = await weaveApi();
    const workspaceDir = workspaceUri().fsPath;
    const math = workspaceUri('src', 'math.js');
    const coverageRun = async (): Promise<void> => {
      const finished = api.testResults().finishedRuns;
      await vscode.commands.executeCommand('testing.coverageAll');
      await until('the coverage run to finish', () => api.testResults().finishedRuns > finished, 90_000);
    };
    const clampBoundsRanOn = async (): Promise<string | undefined> =>
      (await readCoverageStore(workspaceDir)).specs['clamp-bounds']?.files['src/math.js']?.hash;
    commitEverything();
    await coverageRun();
    // add's body: clamp-bounds does not run add, so a plain check would keep its coverage (of the old content).
    await editAndSave(math, 'return a + b;', 'return b + a;');
    try {
      await coverageRun();
      const today = execFileSync('git', ['hash-object', 'src/math.js'], {
        cwd: workspaceDir,
        encoding: 'utf8',
      });
      assert.equal(await clampBoundsRanOn(), today.trim());
    } finally {
      await editAndSave(math, 'return b + a;', 'return a + b;');
    }
  });

  test('with weave.coverage off a check records no coverage, and the Coverage profile still does', async () => {
    const api = await weaveApi();
    const workspaceDir = workspaceUri().fsPath;
    const recordedBy = async (): Promise<string | undefined> =>
      (await readCoverageStore(workspaceDir)).specs['clamp-bounds']?.runId;
    const config = vscode.workspace.getConfiguration('weave');
    await config.update('coverage', false, vscode.ConfigurationTarget.Global);
    try {
      const before = await recordedBy();
      assert.ok(before, 'the first test recorded coverage for clamp-bounds');
      const result = await vscode.commands.executeCommand<CheckAttempt>('weave.check');
      assert.ok(result.ran, result.ran ? '' : result.message);
      assert.ok(result.outcome.run.specIds.includes('clamp-bounds'));
      assert.equal(await recordedBy(), before);

      const finished = api.testResults().finishedRuns;
      await vscode.commands.executeCommand('testing.coverageAll');
      await until('the coverage run to finish', () => api.testResults().finishedRuns > finished, 90_000);
      assert.equal(await recordedBy(), api.lastRun()?.run.id);
    } finally {
      await config.update('coverage', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
