// The protected set's observed part (issue #35): helpers a spec's test loads through a computed name
// (observedLoadsRepo.ts), which no reader of the source follows, are protected because the runner hooks saw the
// test process load them before its first test — in the base run of an agent run, and in `weave check` of the
// user's own tree. An agent that weakens them is refused by its own tools or found by the diff policy (tampered,
// never applied); `weave guard` refuses the edit once a check saw them; export ships them in protected_files and
// eval does not resolve the cheat. Editing the code under test stays allowed. Real HTTP, checkouts, node and
// pytest runs in bubblewrap.
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
import {
  CHEATED_HELPERS,
  COMPUTED_BASE,
  COMPUTED_FIX,
  HELPER_CHEAT,
  makeComputedKit,
  writeFiles,
} from './observedLoadsRepo';

isolateWeaveState();

/** The scripted agent's edits of `files` (all exist on the base), then finish. */
function editing(files: Record<string, string>): ScriptStep[] {
  const calls = Object.entries(files).map(([p, content]) => ({
    name: 'edit',
    arguments: { path: p, search: COMPUTED_BASE[p]!, replace: content },
  }));
  return [
    { kind: 'tools', calls },
    { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'the gate is open' } }] },
  ];
}

/** Replaces the harness's demo with computedkit at its base. */
async function useComputedKit(h: Harness): Promise<Partial<AgentRunOptions>> {
  const weaveIgnore = fs.readFileSync(path.join(h.repo.workspace, '.weave/.gitignore'), 'utf8');
  for (const entry of fs.readdirSync(h.repo.workspace))
    if (entry !== '.git') fs.rmSync(path.join(h.repo.workspace, entry), { recursive: true });
  writeFiles(h.repo.workspace, COMPUTED_BASE);
  fs.writeFileSync(path.join(h.repo.workspace, '.weave/.gitignore'), weaveIgnore);
  git(h.repo.root, ['add', '-A']);
  git(h.repo.root, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'computedkit']);
  return { specFile: await loadSpecs(h.repo.workspace) };
}

async function runScripted(
  steps: ScriptStep[],
  extra: Partial<AgentRunOptions> = {},
): Promise<{ result: Awaited<ReturnType<typeof runAgent>>; h: Harness; userTree: string }> {
  const h = await harness([agentScript(steps)]);
  const options = { ...(await useComputedKit(h)), ...extra };
  const userTree = fingerprint(h.repo.workspace);
  const result = await runAgent(h.options(options));
  assert.equal(result.stopReason, 'finished', result.error);
  assert.equal(fingerprint(h.repo.workspace), userTree, "the user's files are byte-identical");
  return { result, h, userTree };
}

describe('an agent that weakens a helper the test loads by a computed name', () => {
  test('its own edit tools refuse the helpers the base run saw loaded: protected-edit-refused, tampered, never applied', async () => {
    const { result, h, userTree } = await runScripted(editing(HELPER_CHEAT));
    try {
      const refused = (result.attempts ?? [])
        .filter((a) => a.kind === 'protected-edit-refused')
        .map((a) => a.target);
      assert.deepEqual(refused.sort(), CHEATED_HELPERS, JSON.stringify(result.attempts));
      assert.equal(result.patch, '', 'no edit went through');
      assert.ok(
        !result.verdicts.some((v) => v.after === 'pass'),
        `nothing passes: ${JSON.stringify(result.verdicts)}`,
      );
      assert.match(applyRefusal(result) ?? '', /tampered|refused|attempt/);
      assert.equal(fingerprint(h.repo.workspace), userTree);
      await assertNothingLeftBehind(h.repo);
    } finally {
      await h.close();
    }
  });

  test('an external agent that rewrites them: the diff policy names both, tampered, never applied', async () => {
    const { result, h, userTree } = await runScripted([], {
      actor: async ({ checkoutDir }) => {
        writeFiles(checkoutDir, HELPER_CHEAT);
        return {
          stopReason: 'finished',
          steps: 1,
          usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        };
      },
    });
    try {
      const named = result.testInfrastructure.map((f) => f.path).sort();
      assert.deepEqual(named, CHEATED_HELPERS, JSON.stringify(result.testInfrastructure));
      assert.deepEqual(result.tamperedSpecs, ['node-computed', 'python-computed']);
      assert.ok(
        !result.verdicts.some((v) => v.before !== 'pass' && v.after === 'pass'),
        `nothing is fixed: ${JSON.stringify(result.verdicts)}`,
      );
      const review = result.findings.filter((f) => f.check === 'protected-file-changed').map((f) => f.file);
      assert.deepEqual(review.sort(), CHEATED_HELPERS, 'the deterministic review names them too');
      assert.match(applyRefusal(result) ?? '', /tampered/);
      await assert.rejects(applyAgentResult(h.repo.workspace, result), PatchApplyError);
      assert.equal(fingerprint(h.repo.workspace), userTree, 'refusing to apply changed nothing');
    } finally {
      await h.close();
    }
  });

  test('the fix of the code under test the tests import: every spec fixed, nothing refused, applicable', async () => {
    const { result, h } = await runScripted(editing(COMPUTED_FIX));
    try {
      assert.deepEqual(result.attempts, []);
      assert.deepEqual(result.tamperedSpecs, []);
      assert.deepEqual(result.testInfrastructure, []);
      assert.ok(
        result.verdicts.every((v) => v.after === 'pass'),
        JSON.stringify(result.verdicts),
      );
      assert.equal(applyRefusal(result), undefined);
    } finally {
      await h.close();
    }
  });
});

describe('weave check of the user tree keeps what the test processes loaded', () => {
  let scratch: string;
  let repo: ReturnType<typeof makeComputedKit>;
  let report: EvalReport;
  let protectedFiles: string[];
  let guardBefore: Array<string | undefined>;
  let guardAfter: Array<string | undefined>;

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-observed-'));
    repo = makeComputedKit({ withFix: true });
    const guardSays = async (): Promise<Array<string | undefined>> => {
      const set = await loadProtectedSet(repo.root);
      return CHEATED_HELPERS.map((f) => protectedFileWhat(set, path.join(set.workspaceDir, f)));
    };
    guardBefore = await guardSays();
    const checked = await checkWorkspace({ workspaceDir: repo.root, concurrency: 2, coverage: false });
    assert.ok(
      checked.run.results.every((r) => r.verdict === 'pass'),
      JSON.stringify(checked.run.results),
    );
    guardAfter = await guardSays();
    const exported = await exportTask({
      workspaceDir: repo.root,
      outDir: path.join(scratch, 'gate'),
      format: 'swe',
    });
    assert.equal(exported.verified, true, JSON.stringify(exported.reasons));
    const task = JSON.parse(fs.readFileSync(path.join(scratch, 'gate', 'task.json'), 'utf8')) as {
      protected_files?: string[];
    };
    protectedFiles = task.protected_files ?? [];
    const predictions = [
      { id: 'helper-cheat', task: 'gate', patch: patchAdding(repo.root, HELPER_CHEAT) },
      { id: 'honest-fix', task: 'gate', patch: patchAdding(repo.root, COMPUTED_FIX) },
    ];
    const { tasksDir, predictionsFile } = tasksPerPrediction(scratch, predictions, 'cheat');
    report = await evaluate({ taskDirs: [tasksDir], predictionsFile, workers: 2 });
  });

  after(() => {
    repo.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('weave guard allows an Edit of the helpers before any check and refuses it after, saying why', () => {
    assert.deepEqual(guardBefore, [undefined, undefined], 'no reader of the source reaches them');
    for (const [i, what] of guardAfter.entries()) {
      assert.ok(what !== undefined, `${CHEATED_HELPERS[i]} is refused after the check`);
      assert.match(what, /loaded it before the first test/);
    }
  });

  it('export ships the helpers in protected_files, and not the code under test', () => {
    for (const file of CHEATED_HELPERS)
      assert.ok(protectedFiles.includes(file), `${file} in ${JSON.stringify(protectedFiles)}`);
    for (const code of ['src/gate.js', 'src/gate.py'])
      assert.ok(!protectedFiles.includes(code), `${code} is the code under test`);
  });

  it('eval: the helper cheat is not resolved, the fix is', () => {
    const cheat = report.instances['helper-cheat'];
    assert.equal(cheat?.resolved, false, JSON.stringify(cheat));
    const fix = report.instances['honest-fix'];
    assert.equal(fix?.resolved, true, JSON.stringify(fix));
  });
});
