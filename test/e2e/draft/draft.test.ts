import assert from 'node:assert/strict';
import fs from 'node:fs';
import { holdsWithin } from '../../support/polling';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createModelClient } from '../../../src/core/model/modelClient';
import { acceptDrafts } from '../../../src/core/draft/accept';
import { DRAFT_SYSTEM_PROMPT_START } from '../../../src/core/draft/prompt';
import { DRAFT_REVIEW_PROMPT_START } from '../../../src/core/draft/review';
import { runDraft, type DraftResult } from '../../../src/core/draft/runDraft';
import { loadSpecFile } from '../../../src/core/spec/load';
import { startScriptedServer, type ScriptedServer } from '../../support/scriptedOpenAiServer';
import { childProcesses, extraWorktrees, fingerprint, leftoverCheckouts } from '../../support/demoWorkspace';
import { createAuditFixture } from '../audit/fixture';
import { removeDir, snapshot } from '../../support/repos';
import { COMMENTED_SPECS, GOOD_TEST, REVIEW_ANSWER, STEPS } from './draftScript';

const API_KEY = 'sk-draft-test-SECRET-0123456789';

let server: ScriptedServer;
let repo: string;
let treeBefore: Map<string, string>;
let result: DraftResult;

before(async () => {
  repo = createAuditFixture({ '.weave/specs.json': COMMENTED_SPECS });
  server = await startScriptedServer({
    apiKey: API_KEY,
    scripts: [
      { matches: (k) => k.startsWith(DRAFT_SYSTEM_PROMPT_START), steps: STEPS },
      {
        matches: (k) => k.startsWith(DRAFT_REVIEW_PROMPT_START),
        steps: [{ kind: 'text', content: REVIEW_ANSWER }],
      },
    ],
  });
  treeBefore = snapshot(repo);
  const client = createModelClient({
    baseURL: server.baseURL,
    model: 'scripted',
    apiKey: API_KEY,
    timeoutMs: 10_000,
  });
  result = await runDraft({ workspaceDir: repo, client, maxSpecs: 5, secrets: [API_KEY] });
});

after(async () => {
  await server.close();
  removeDir(repo);
});

const rejectedStage = (id: string): string[] =>
  result.rejected.filter((r) => r.id === id).map((r) => r.stage);

test('a good proposal is kept, with its verification', () => {
  const good = result.kept.find((k) => k.spec.id === 'adult-at-18');
  assert.ok(good, JSON.stringify(result.rejected));
  assert.equal(good.verification.goal, false);
  assert.equal(good.verification.runner, 'node:test');
  assert.deepEqual(good.verification.repeats, ['pass', 'pass']);
  assert.equal(good.verification.mutantsKilled, 1);
});

test('a vacuous proposal is rejected as vacuous, and its revision after the rejection is kept', () => {
  assert.deepEqual(rejectedStage('far-from-boundary'), ['vacuous']);
  assert.match(
    result.rejected.find((r) => r.id === 'far-from-boundary')!.reason,
    /passed against all \d+ mutant/,
  );
  assert.ok(
    result.kept.some((k) => k.spec.id === 'far-from-boundary'),
    'the revision is kept',
  );
});

test('zero-test, flaky, erroring, duplicate and invalid proposals are each rejected with their reason', () => {
  assert.deepEqual(rejectedStage('no-tests'), ['no-test'], JSON.stringify(result.rejected, null, 1));
  assert.match(result.rejected.find((r) => r.id === 'no-tests')!.reason, /ran no test/);
  assert.deepEqual(rejectedStage('flaky-counter'), ['flaky']);
  assert.match(result.rejected.find((r) => r.id === 'flaky-counter')!.reason, /pass, fail/);
  assert.deepEqual(rejectedStage('broken-import'), ['error']);
  assert.match(result.rejected.find((r) => r.id === 'broken-import')!.reason, /not by an assertion/);
  assert.deepEqual(rejectedStage('boundary-again'), ['duplicate']);
  assert.match(
    result.rejected.find((r) => r.id === 'boundary-again')!.reason,
    /duplicate of boundary: the same test/,
  );
  assert.deepEqual(rejectedStage('bad-kind'), ['invalid']);
  assert.match(result.rejected.find((r) => r.id === 'bad-kind')!.reason, /^not a valid spec: spec\.kind/);
});

test('a test failing by an assertion on the current code is kept as a goal', () => {
  const goal = result.kept.find((k) => k.spec.id === 'rejects-non-numbers');
  assert.ok(goal, JSON.stringify(result.rejected));
  assert.equal(goal.verification.goal, true);
  assert.equal(goal.verification.verdict, 'fail');
});

test('every verdict went back to the model as the tool result', () => {
  const last = server.chatRequests().filter((r) => {
    const first = r.body?.messages?.[0]?.content;
    return typeof first === 'string' && first.startsWith(DRAFT_SYSTEM_PROMPT_START);
  });
  const toolResults = (last.at(-1)?.body?.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => String(m.content));
  assert.ok(toolResults.some((t) => t.startsWith('KEPT adult-at-18')));
  assert.ok(toolResults.some((t) => t.startsWith('REJECTED far-from-boundary (vacuous)')));
  assert.ok(toolResults.some((t) => t.startsWith('REJECTED flaky-counter (flaky)')));
});

test('the review reports the undeclared coupling of the drafts and keeps only known ids from the model', () => {
  const edges = result.review.missingEdges.map((e) => `${[e.a, e.b].sort().join('↔')}:${e.source}`);
  assert.ok(edges.includes('adult-at-18↔boundary:code'), edges.join(', '));
  assert.ok(!result.review.missingEdges.some((e) => e.b === 'nonexistent-spec'));
  assert.deepEqual(result.review.model, { ok: true });
  assert.ok(result.review.uncoveredGoalParts.some((g) => g.source === 'model'));
});

test('the user’s tree is byte-identical until accept (only Weave’s ignored run state is added), and nothing is left behind', async () => {
  const now = snapshot(repo);
  const changed = [...now].filter(([file, hash]) => treeBefore.get(file) !== hash).map(([file]) => file);
  assert.deepEqual(
    // Weave's run state is ignored through .weave/.gitignore or, in git, the repository's .git/info/exclude
    // (never committed): the first check leaves a clean tree clean.
    changed.filter(
      (f) => !f.startsWith('.weave/runs/') && f !== '.weave/.gitignore' && f !== '.git/info/exclude',
    ),
    [],
    'no file of the user changed or appeared',
  );
  assert.deepEqual(
    [...treeBefore.keys()].filter((f) => !now.has(f)),
    [],
    'no file disappeared',
  );
  assert.deepEqual(extraWorktrees(repo), []);
  assert.deepEqual(leftoverCheckouts(), []);
  assert.ok(await holdsWithin(() => childProcesses().length === 0, 5000));
  assert.ok(!fs.readFileSync(result.trajectoryFile, 'utf8').includes(API_KEY), 'the key is redacted');
});

test('accept writes the kept specs with the comments kept, and their test files', async () => {
  const accepted = await acceptDrafts(repo, result.kept);
  assert.deepEqual(accepted.specIds, ['adult-at-18', 'far-from-boundary', 'rejects-non-numbers']);
  const text = fs.readFileSync(path.join(repo, '.weave/specs.json'), 'utf8');
  assert.ok(text.startsWith('// Specs of the age library.\n'));
  assert.ok(text.includes('    // The boundary itself.\n'));
  const loaded = await loadSpecFile(repo);
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.problems));
  assert.deepEqual(
    loaded.specFile.specs.map((s) => s.id),
    ['boundary', 'adult-at-18', 'far-from-boundary', 'rejects-non-numbers'],
  );
  assert.equal(fs.readFileSync(path.join(repo, 'test/drafts/adult.test.js'), 'utf8'), GOOD_TEST);
  // Accepting again is refused before anything is written: the ids are taken, and the test files exist now.
  const now = fingerprint(repo);
  await assert.rejects(
    acceptDrafts(repo, result.kept),
    /duplicate id "adult-at-18"[\s\S]*nothing was written|nothing was written[\s\S]*duplicate id "adult-at-18"/,
  );
  const renamed = { ...result.kept[0]!, specInput: { ...result.kept[0]!.specInput, id: 'renamed' } };
  await assert.rejects(acceptDrafts(repo, [renamed]), /test\/drafts\/adult\.test\.js exists now/);
  assert.equal(fingerprint(repo), now);
});
