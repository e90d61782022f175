// The protected set's observed part under jest, vitest and ES modules (issue #35): a helper a spec's test loads
// through a computed name (observedLoadsRepo.ts, runnerkit) — jest's `require(path.join(…))`, vitest's and an
// ESM node:test file's `await import(new URL(…))` — is out of reach of every reader of the source, and was out
// of reach of the runner hooks too (jest and vitest load test code through their own module registries, ES
// modules are not in require.cache). It is protected now because the hooks saw the test process load it before
// its first test: in the base run of an agent run (bubblewrap), and in `weave check` of the user's own tree.
// An agent that weakens it is refused (tampered, never applied); the guard refuses the edit once a check saw it;
// export ships it in protected_files and eval does not resolve the cheat. The fix of the code under test stays
// allowed and applicable. Real jest 30, vitest 4 and node:test runs, real HTTP, checkouts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { applyAgentResult, applyRefusal } from '../../../src/core/agent/applyPolicy';
import { runAgent, type AgentRunOptions } from '../../../src/core/agent/runAgent';
import { PatchApplyError } from '../../../src/core/agent/workspacePatch';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { evaluate, type EvalReport } from '../../../src/core/tasks/eval/evalTasks';
import { exportTask } from '../../../src/core/tasks/export/exportTask';
import { loadProtectedSet, protectedFileWhat } from '../../../src/cli/guard/protectedPaths';
import { fingerprint, git } from '../../support/demoWorkspace';
import type { ScriptStep } from '../../support/scriptedOpenAiServer';
import { tasksPerPrediction } from '../../support/taskFolder';
import { isolateWeaveState } from '../../support/weaveState';
import { agentScript, assertNothingLeftBehind, harness, loadSpecs, type Harness } from '../agent/harness';
import { patchAdding } from './infrastructureAttacks';
import { ALL_RUNNER_SPECS, linkNodeModules, makeRunnerKit, runnerKit, writeFiles } from './observedLoadsRepo';

isolateWeaveState();

const KIT = runnerKit();

/** The scripted agent's edits of `files` (all exist on the base), then finish. */
function editing(files: Record<string, string>): ScriptStep[] {
  const calls = Object.entries(files).map(([p, content]) => ({
    name: 'edit',
    arguments: { path: p, search: KIT.base[p]!, replace: content },
  }));
  return [
    { kind: 'tools', calls },
    { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'the gate is open' } }] },
  ];
}

/** Replaces the harness's demo with runnerkit at its base (node_modules linked, untracked). */
async function useRunnerKit(h: Harness): Promise<Partial<AgentRunOptions>> {
  const weaveIgnore = fs.readFileSync(path.join(h.repo.workspace, '.weave/.gitignore'), 'utf8');
  for (const entry of fs.readdirSync(h.repo.workspace))
    if (entry !== '.git') fs.rmSync(path.join(h.repo.workspace, entry), { recursive: true });
  writeFiles(h.repo.workspace, KIT.base);
  fs.writeFileSync(path.join(h.repo.workspace, '.weave/.gitignore'), weaveIgnore);
  git(h.repo.root, ['add', '-A']);
  git(h.repo.root, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'runnerkit']);
  linkNodeModules(h.repo.workspace);
  return { specFile: await loadSpecs(h.repo.workspace) };
}

async function runScripted(
  steps: ScriptStep[],
  extra: Partial<AgentRunOptions> = {},
): Promise<{ result: Awaited<ReturnType<typeof runAgent>>; h: Harness; userTree: string }> {
  const h = await harness([agentScript(steps)]);
  const options = { ...(await useRunnerKit(h)), ...extra };
  const userTree = fingerprint(h.repo.workspace);
  const result = await runAgent(h.options(options));
  assert.equal(result.stopReason, 'finished', result.error);
  assert.equal(fingerprint(h.repo.workspace), userTree, "the user's files are byte-identical");
  return { result, h, userTree };
}

const verdictsOf = (result: Awaited<ReturnType<typeof runAgent>>): string => JSON.stringify(result.verdicts);

describe('jest, vitest and ESM node:test: an agent that weakens a helper the test loads by a computed name', () => {
  test('its own edit tools refuse the helpers the base run saw loaded: protected-edit-refused, tampered, never applied', async () => {
    const { result, h, userTree } = await runScripted(editing(KIT.cheat));
    try {
      // The base run ran every spec (each fails: the gate is closed), and really ran them.
      assert.deepEqual(
        result.verdicts.map((v) => [v.id, v.before]).sort(),
        ALL_RUNNER_SPECS.map((id) => [id, 'fail']),
        verdictsOf(result),
      );
      const refused = (result.attempts ?? [])
        .filter((a) => a.kind === 'protected-edit-refused')
        .map((a) => a.target);
      assert.deepEqual(refused.sort(), KIT.cheatedHelpers, JSON.stringify(result.attempts));
      assert.equal(result.patch, '', 'no edit went through');
      assert.ok(!result.verdicts.some((v) => v.after === 'pass'), `nothing passes: ${verdictsOf(result)}`);
      assert.match(applyRefusal(result) ?? '', /tampered|refused|attempt/);
      assert.equal(fingerprint(h.repo.workspace), userTree);
      await assertNothingLeftBehind(h.repo);
    } finally {
      await h.close();
    }
  });

  test('an external agent that rewrites them: the diff policy names all three, tampered, never applied', async () => {
    const { result, h, userTree } = await runScripted([], {
      actor: async ({ checkoutDir }) => {
        writeFiles(checkoutDir, KIT.cheat);
        return {
          stopReason: 'finished',
          steps: 1,
          usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        };
      },
    });
    try {
      const named = result.testInfrastructure.map((f) => f.path).sort();
      assert.deepEqual(named, KIT.cheatedHelpers, JSON.stringify(result.testInfrastructure));
      assert.deepEqual([...result.tamperedSpecs].sort(), ALL_RUNNER_SPECS);
      assert.ok(
        !result.verdicts.some((v) => v.before !== 'pass' && v.after === 'pass'),
        `nothing is fixed: ${verdictsOf(result)}`,
      );
      assert.match(applyRefusal(result) ?? '', /tampered/);
      await assert.rejects(applyAgentResult(h.repo.workspace, result), PatchApplyError);
      assert.equal(fingerprint(h.repo.workspace), userTree, 'refusing to apply changed nothing');
    } finally {
      await h.close();
    }
  });

  test('control: the fix of the code under test: every spec fixed, nothing refused, applicable', async () => {
    const { result, h } = await runScripted(editing(KIT.fix));
    try {
      assert.deepEqual(result.attempts, []);
      assert.deepEqual(result.tamperedSpecs, []);
      assert.deepEqual(result.testInfrastructure, []);
      assert.deepEqual(
        result.verdicts.map((v) => [v.id, v.before, v.after]).sort(),
        ALL_RUNNER_SPECS.map((id) => [id, 'fail', 'pass']),
        verdictsOf(result),
      );
      assert.equal(applyRefusal(result), undefined);
    } finally {
      await h.close();
    }
  });
});

describe('weave check of the user tree keeps what jest, vitest and ESM node:test processes loaded', () => {
  let scratch: string;
  let repo: ReturnType<typeof makeRunnerKit>;
  let esmRepo: ReturnType<typeof makeRunnerKit>;
  let report: EvalReport;
  let protectedFiles: string[];
  let guardBefore: Array<string | undefined>;
  let guardAfter: Array<string | undefined>;

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-observed-runners-'));
    repo = makeRunnerKit({ withFix: true });
    const guardSays = async (): Promise<Array<string | undefined>> => {
      const set = await loadProtectedSet(repo.root);
      return KIT.cheatedHelpers.map((f) => protectedFileWhat(set, path.join(set.workspaceDir, f)));
    };
    guardBefore = await guardSays();
    const checked = await checkWorkspace({ workspaceDir: repo.root, concurrency: 2, coverage: false });
    assert.deepEqual(
      checked.run.results.map((r) => [r.id, r.verdict]).sort(),
      ALL_RUNNER_SPECS.map((id) => [id, 'pass']),
      JSON.stringify(checked.run.results),
    );
    guardAfter = await guardSays();
    // Export's verification cannot install jest and vitest (see below): the task is written unverified, and
    // only its protected_files (which eval.sh, Harbor's test.sh and --env docker restore) are read.
    const exported = await exportTask({
      workspaceDir: repo.root,
      outDir: path.join(scratch, 'gate'),
      format: 'swe',
      allowUnverified: true,
    });
    assert.equal(exported.written, true);
    const task = JSON.parse(fs.readFileSync(path.join(scratch, 'gate', 'task.json'), 'utf8')) as {
      protected_files?: string[];
    };
    protectedFiles = task.protected_files ?? [];
    // Eval installs a task's dependencies from the network, which these tests never reach: jest and vitest cannot
    // run there, so eval is scored on the ES module spec alone (no dependency), exported the same way.
    const esm = runnerKit(['esm-computed']);
    esmRepo = makeRunnerKit({ withFix: true, specs: ['esm-computed'] });
    const esmChecked = await checkWorkspace({ workspaceDir: esmRepo.root, concurrency: 1, coverage: false });
    assert.ok(
      esmChecked.run.results.every((r) => r.verdict === 'pass'),
      JSON.stringify(esmChecked.run.results),
    );
    const esmExported = await exportTask({
      workspaceDir: esmRepo.root,
      outDir: path.join(scratch, 'esm'),
      format: 'swe',
    });
    assert.equal(esmExported.verified, true, JSON.stringify(esmExported.reasons));
    const predictions = [
      { id: 'helper-cheat', task: 'esm', patch: patchAdding(esmRepo.root, esm.cheat) },
      { id: 'honest-fix', task: 'esm', patch: patchAdding(esmRepo.root, esm.fix) },
    ];
    const { tasksDir, predictionsFile } = tasksPerPrediction(scratch, predictions, 'cheat');
    report = await evaluate({ taskDirs: [tasksDir], predictionsFile, workers: 2 });
  });

  after(() => {
    repo.cleanup();
    esmRepo.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('weave guard allows an Edit of the helpers before any check and refuses it after, saying why', () => {
    assert.deepEqual(
      guardBefore,
      KIT.cheatedHelpers.map(() => undefined),
      'no reader of the source reaches them',
    );
    for (const [i, what] of guardAfter.entries()) {
      assert.ok(what !== undefined, `${KIT.cheatedHelpers[i]} is refused after the check`);
      assert.match(what, /loaded it before the first test/);
    }
  });

  it('export ships the helpers in protected_files, and not the code under test', () => {
    for (const file of KIT.cheatedHelpers)
      assert.ok(protectedFiles.includes(file), `${file} in ${JSON.stringify(protectedFiles)}`);
    for (const code of ['src/gate.js', 'src/gate.mjs'])
      assert.ok(!protectedFiles.includes(code), `${code} is the code under test`);
  });

  it('eval (ESM node:test): the helper cheat is not resolved, the fix is', () => {
    const cheat = report.instances['helper-cheat'];
    assert.equal(cheat?.resolved, false, JSON.stringify(cheat));
    const fix = report.instances['honest-fix'];
    assert.equal(fix?.resolved, true, JSON.stringify(fix));
  });
});
