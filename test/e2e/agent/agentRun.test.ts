// End-to-end agent runs over real HTTP (the scripted OpenAI-protocol server), real git worktrees and real
// spec runs on a copy of the demo workspace: the fix, streaming vs JSON, uncommitted changes, a workspace
// in a subfolder, a folder outside git.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runAgent } from '../../../src/core/agent/runAgent';
import { readTrajectory } from '../../../src/core/agent/trajectory';
import { applyPatchToWorkspace } from '../../../src/core/agent/workspacePatch';
import { fingerprint, git } from '../../support/demoWorkspace';
import { fixSecretCachingSteps, reviewAnswer } from './demoScripts';
import { agentScript, API_KEY, assertNothingLeftBehind, harness, isReviewConversation } from './harness';

describe('agent run on the demo workspace', () => {
  test('fixes no-secret-caching through real edits and spec runs, leaving the user tree alone', async () => {
    // Between the first and the second step the server rate-limits once and then cuts a stream mid-way: the
    // client's retry and the one retry of a cut step must carry the run through.
    const [first, ...rest] = fixSecretCachingSteps();
    const h = await harness([
      agentScript([
        first!,
        { kind: 'http', status: 429, headers: { 'retry-after': '0' } },
        { kind: 'cut' },
        ...rest,
      ]),
      { matches: isReviewConversation, steps: [reviewAnswer(['no-secret-caching', 'cache-hit'])] },
    ]);
    try {
      const userTreeBefore = fingerprint(h.repo.workspace);
      const result = await runAgent(h.options({ modelReview: true }));
      assert.equal(result.stopReason, 'finished', result.error);
      assert.deepEqual(
        result.verdicts.find((v) => v.id === 'no-secret-caching'),
        { id: 'no-secret-caching', before: 'fail', after: 'pass' },
      );
      for (const v of result.verdicts) assert.equal(v.after, 'pass', `${v.id} passes after the fix`);
      assert.deepEqual(result.changedFiles, ['src/client.js']);
      assert.match(result.patch, /\+ {4}const cacheable = !hasAuthorization\(headers\);/);
      assert.deepEqual(result.findings, [], 'a clean fix has no review findings');
      assert.equal(
        fingerprint(h.repo.workspace),
        userTreeBefore,
        'the user tree is byte-identical without --apply',
      );
      assert.equal(
        git(h.repo.root, ['status', '--porcelain']),
        '',
        'git sees no change (agent runs are ignored)',
      );
      await assertNothingLeftBehind(h.repo);

      // The model saw the goal, every spec with its interactions, and AGENTS.md.
      const first = h.server.chatRequests()[0]!.body!;
      const system = String(first.messages![0]!.content);
      for (const spec of h.specFile.specs)
        assert.ok(system.includes(`### ${spec.id} (${spec.kind}): ${spec.title}`), spec.id);
      assert.ok(system.includes(h.specFile.goal));
      assert.match(system, /Declared interactions: cache-hit, hit-rate, header-names/);
      assert.match(
        system,
        /Potential interactions \(shared code\): (?!none)[a-z-]+/,
        'the index found shared code',
      );
      assert.ok(system.includes('House rules for agents'), 'AGENTS.md is in the prompt');
      assert.match(String(first.messages![1]!.content), /no-secret-caching: fail/);
      assert.deepEqual(
        first.tools!.map((t) => t.function?.name),
        [
          'list_files',
          'read_file',
          'outline',
          'find_symbol',
          'search_text',
          'edit',
          'create_file',
          'run_specs',
          'finish',
        ],
      );
      // The model got the real spec results back from run_specs.
      const lastAgentRequest = h.server
        .chatRequests()
        .filter((r) => !isReviewConversation(String(r.body?.messages?.[0]?.content)))
        .at(-1)!;
      const afterRunSpecs = lastAgentRequest.body!.messages!.at(-1)!;
      assert.equal(afterRunSpecs.role, 'tool');
      assert.match(String(afterRunSpecs.content), /^8\/8 specs pass\./);

      // The model review: one verdict per spec (specs it skipped are 'unclear').
      assert.ok(result.modelReview?.ok);
      assert.equal(result.modelReview.specs.length, h.specFile.specs.length);
      assert.equal(result.modelReview.specs.find((s) => s.id === 'cache-hit')?.verdict, 'satisfied');
      assert.equal(result.modelReview.specs.find((s) => s.id === 'size-budget')?.verdict, 'unclear');
      const reviewRequest = h.server
        .chatRequests()
        .find((r) => isReviewConversation(String(r.body?.messages?.[0]?.content)));
      assert.ok(reviewRequest?.body?.response_format, 'the review asks for a JSON-schema response');

      // Trajectory: every step recorded, the key never written anywhere.
      for (const file of fs.readdirSync(result.runDir)) {
        assert.ok(
          !fs.readFileSync(path.join(result.runDir, file), 'utf8').includes(API_KEY),
          `no key in ${file}`,
        );
      }
      const events = readTrajectory(result.trajectoryFile);
      const tools = events.flatMap((e) => (e.type === 'tool' ? [e] : []));
      assert.deepEqual(
        tools.map((e) => e.name),
        ['find_symbol', 'read_file', 'edit', 'edit', 'edit', 'run_specs', 'finish'],
      );
      assert.match(
        tools[0]!.result,
        /^src\/client\.js:\d+-\d+ {2}method Client\.get$/m,
        'find_symbol uses the index',
      );
      const modelEvents = events.flatMap((e) => (e.type === 'model' ? [e] : []));
      assert.deepEqual(
        modelEvents.map((e) => e.retriedAfterCut),
        [false, true, false, false],
        'step 2 survived a 429 and a cut stream',
      );
      assert.equal(h.server.chatRequests().filter((r) => r.step?.kind === 'http').length, 1);
      assert.deepEqual(
        events.map((e) => e.type).filter((t) => t !== 'tool' && t !== 'model'),
        ['start', 'specs', 'prompt', 'prompt', 'specs', 'end'],
      );
      assert.equal(fs.readFileSync(result.patchFile, 'utf8'), result.patch);

      // Applying the patch reproduces the fix; applying it twice is refused and changes nothing.
      await applyPatchToWorkspace(h.repo.workspace, result.patch);
      assert.match(fs.readFileSync(path.join(h.repo.workspace, 'src/client.js'), 'utf8'), /hasAuthorization/);
      const applied = fingerprint(h.repo.workspace);
      await assert.rejects(
        applyPatchToWorkspace(h.repo.workspace, result.patch),
        /not applied: src\/client\.js conflicts with your edits; nothing was changed/,
      );
      assert.equal(fingerprint(h.repo.workspace), applied);
    } finally {
      await h.close();
    }
  });

  test('works on uncommitted changes, in a workspace that is a subfolder of its repository (JSON, no stream)', async () => {
    const h = await harness([agentScript(fixSecretCachingSteps())], { subfolder: 'demo', stream: false });
    try {
      // An uncommitted change of the user's: the agent must see it, and the patch must not contain it.
      const cacheFile = path.join(h.repo.workspace, 'src/cache.js');
      fs.appendFileSync(cacheFile, '// user note, not committed\n');
      const userTreeBefore = fingerprint(h.repo.root);
      const result = await runAgent(h.options());
      assert.equal(result.stopReason, 'finished', result.error);
      assert.equal(h.server.chatRequests()[0]!.body!.stream, false);
      assert.deepEqual(result.changedFiles, ['src/client.js'], 'paths are workspace-relative');
      assert.ok(
        !result.patch.includes('user note'),
        'the user’s own change is not part of the agent’s patch',
      );
      assert.equal(fingerprint(h.repo.root), userTreeBefore);
      await assertNothingLeftBehind(h.repo);
      await applyPatchToWorkspace(h.repo.workspace, result.patch);
      assert.match(fs.readFileSync(path.join(h.repo.workspace, 'src/client.js'), 'utf8'), /hasAuthorization/);
      assert.match(fs.readFileSync(cacheFile, 'utf8'), /user note/);
    } finally {
      await h.close();
    }
  });

  test('a folder outside git is copied, and the patch applies back to it', async () => {
    const h = await harness([agentScript(fixSecretCachingSteps())], { git: false });
    try {
      const before = fingerprint(h.repo.workspace);
      const result = await runAgent(h.options());
      assert.equal(result.stopReason, 'finished', result.error);
      assert.deepEqual(result.changedFiles, ['src/client.js']);
      assert.equal(fingerprint(h.repo.workspace), before);
      assert.ok(
        !fs.existsSync(path.join(h.repo.workspace, '.git')),
        'no repository was created in the user’s folder',
      );
      await assertNothingLeftBehind(h.repo);
      await applyPatchToWorkspace(h.repo.workspace, result.patch);
      assert.match(fs.readFileSync(path.join(h.repo.workspace, 'src/client.js'), 'utf8'), /hasAuthorization/);
    } finally {
      await h.close();
    }
  });
});
