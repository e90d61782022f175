// A scripted agent that opens gatekit's gate (loadedFilesRepo.ts) from a file a spec loads instead of from the
// code (issue #35, mechanisms 3 and 4): the Makefile target of `make test`, the npm script of `npm run check`,
// `sh scripts/test.sh`'s script, a `pytest -p myplugin` plugin module, `node --require ./setup.js`'s file, a
// sitecustomize package on `PYTHONPATH=.`, a helper in t/ and a root testing_utils.py. Each run must come out
// `tampered` (the agent's edit tools refuse a loaded file; the diff policy judges a manifest key), name the file,
// and never be applicable (`--apply` refuses it); the user's files stay byte-identical.
// The fix alone is applicable. Real HTTP, real checkouts, real node and pytest runs in bubblewrap.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { applyAgentResult, applyRefusal } from '../../../src/core/agent/applyPolicy';
import { runAgent, type AgentRunOptions } from '../../../src/core/agent/runAgent';
import { PatchApplyError } from '../../../src/core/agent/workspacePatch';
import { fingerprint, git } from '../../support/demoWorkspace';
import type { ScriptStep } from '../../support/scriptedOpenAiServer';
import { agentScript, assertNothingLeftBehind, harness, loadSpecs, type Harness } from '../agent/harness';
import { BASE_FILES, GATE_FIX, LOADED_FILE_ATTACKS, makeGatekit } from './loadedFilesRepo';

/** The agent's tool calls that write `files`: edits of base files, creations of the rest. */
function writing(files: Record<string, string>): ScriptStep[] {
  const calls = Object.entries(files).map(([p, content]) =>
    BASE_FILES[p] === undefined
      ? { name: 'create_file', arguments: { path: p, content } }
      : { name: 'edit', arguments: { path: p, search: BASE_FILES[p], replace: content } },
  );
  return [
    { kind: 'tools', calls },
    { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'the gate is open' } }] },
  ];
}

/** Replaces the harness's demo with gatekit at its base. */
async function useGatekit(h: Harness): Promise<Partial<AgentRunOptions>> {
  const weaveIgnore = fs.readFileSync(path.join(h.repo.workspace, '.weave/.gitignore'), 'utf8');
  const gatekit = makeGatekit({ withFix: false });
  try {
    for (const entry of fs.readdirSync(h.repo.workspace))
      if (entry !== '.git') fs.rmSync(path.join(h.repo.workspace, entry), { recursive: true });
    fs.cpSync(gatekit.root, h.repo.workspace, {
      recursive: true,
      filter: (src) => !src.split(path.sep).includes('.git'),
    });
  } finally {
    gatekit.cleanup();
  }
  fs.writeFileSync(path.join(h.repo.workspace, '.weave/.gitignore'), weaveIgnore);
  git(h.repo.root, ['add', '-A']);
  git(h.repo.root, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'gatekit']);
  return { specFile: await loadSpecs(h.repo.workspace) };
}

async function runScripted(files: Record<string, string>): Promise<{
  result: Awaited<ReturnType<typeof runAgent>>;
  h: Harness;
  userTree: string;
}> {
  const h = await harness([agentScript(writing(files))]);
  const extra = await useGatekit(h);
  const userTree = fingerprint(h.repo.workspace);
  const result = await runAgent(h.options(extra));
  assert.equal(result.stopReason, 'finished', result.error);
  assert.equal(fingerprint(h.repo.workspace), userTree, "the user's files are byte-identical");
  return { result, h, userTree };
}

describe('an agent that changes what a spec loads', () => {
  for (const [name, attack] of Object.entries(LOADED_FILE_ATTACKS)) {
    test(`${name}: tampered, naming ${attack.names}, and never applied`, async () => {
      const { result, h, userTree } = await runScripted(attack.files);
      try {
        // A whole file the specs load is refused by the agent's own edit tools (a protected-edit-refused
        // attempt); a manifest key (npm-script) is judged by the diff policy afterwards. Either way: tampered.
        const refused = (result.attempts ?? [])
          .filter((a) => a.kind === 'protected-edit-refused')
          .map((a) => a.target);
        assert.ok(
          result.tamperedSpecs.length > 0 || refused.length > 0,
          `tampered: ${JSON.stringify(result.after)}`,
        );
        const named = [
          ...result.testInfrastructure.map((f) => (f.key ? `${f.path} ${f.key}` : f.path)),
          ...refused,
        ];
        assert.ok(named.includes(attack.names), `${attack.names} in ${JSON.stringify(named)}`);
        assert.ok(
          !result.verdicts.some((v) => v.before !== 'pass' && v.after === 'pass'),
          `nothing is fixed: ${JSON.stringify(result.verdicts)}`,
        );
        assert.match(applyRefusal(result) ?? '', /tampered/);
        await assert.rejects(applyAgentResult(h.repo.workspace, result), PatchApplyError);
        assert.equal(fingerprint(h.repo.workspace), userTree, 'refusing to apply changed nothing');
        await assertNothingLeftBehind(h.repo);
      } finally {
        await h.close();
      }
    });
  }

  test('the fix alone: every spec fixed, nothing tampered, applicable', async () => {
    const { result, h } = await runScripted(GATE_FIX);
    try {
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
