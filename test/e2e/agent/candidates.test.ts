// `weave agent --candidates` as a user runs it (the bundled CLI, the scripted OpenAI-protocol server, real
// checkouts, real spec runs in the sandbox), with candidates whose quality is known beforehand. The workspace
// starts with two failing specs of different kinds (no-secret-caching: security; no-stale-read: reliability).
//   cand-1 (alpha, seed 1) fixes the goal by switching the cache off: cache-hit and hit-rate break
//   cand-2 (beta, seed 2) fixes security but first makes package.json's test script always pass (a protected
//          runner configuration): its spec runs are tampered (the file is restored), it is disqualified
//   cand-3 (alpha, seed 3) fixes security only
//   cand-4 (beta, seed 4) fixes both: every spec passes
//   cand-5 (an external agent command) changes nothing
// So the ranking is exactly cand-4, cand-3, cand-5, cand-1, then the disqualified cand-2; the Pareto set is
// {cand-4}; --apply best applies cand-4. The blind reviews and the self-pick are scripted answers whose truth
// is known: the expected precision, recall and regret below are worked out by hand from them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { paretoSet, rankOrder, type CandidateRanking } from '../../../src/core/agent/candidateRanking';
import { startScriptedServer, type Script, type ScriptStep } from '../../support/scriptedOpenAiServer';
import {
  createDemoRepo,
  extraWorktrees,
  git,
  leftoverCheckouts,
  REPO_ROOT,
} from '../../support/demoWorkspace';
import { disableCacheSteps, finishOnlySteps, fixSecretCachingSteps, reviewAnswer } from './demoScripts';
import { API_KEY, isReviewConversation } from './harness';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const HOT_LINE = '    entry.expiresAt = this.now() + this.ttlMs;\n';
const TOUCH = '    // Touch: move the key to the most recently used end.\n';

const restoreStaleness: ScriptStep = {
  kind: 'tools',
  calls: [{ name: 'edit', arguments: { path: 'src/cache.js', search: TOUCH + HOT_LINE, replace: TOUCH } }],
};

const alwaysPassingTests: ScriptStep = {
  kind: 'tools',
  calls: [
    {
      name: 'edit',
      arguments: {
        path: 'package.json',
        search: '"test": "node --test test/*.test.js"',
        replace: '"test": "node --test test/*.test.js || true"',
      },
    },
  ],
};

const SPEC_IDS = [
  'response-shape',
  'cache-hit',
  'no-stale-read',
  'no-error-caching',
  'size-budget',
  'hit-rate',
  'no-secret-caching',
  'header-names',
];

function review(verdicts: Partial<Record<string, 'violated' | 'unclear'>>): ScriptStep {
  return {
    kind: 'text',
    content: JSON.stringify({
      specs: SPEC_IDS.map((id) => ({ id, verdict: verdicts[id] ?? 'satisfied', evidence: `src (${id})` })),
    }),
  };
}

function candidate(seed: number, steps: ScriptStep[], reviewStep: ScriptStep): Script[] {
  return [
    { seed, matches: isReviewConversation, steps: [reviewStep] },
    { seed, matches: (k) => !isReviewConversation(k) && !k.startsWith('Several attempts'), steps },
  ];
}

const fix = fixSecretCachingSteps();
const SCRIPTS: Script[] = [
  ...candidate(1, disableCacheSteps(), reviewAnswer(SPEC_IDS)),
  ...candidate(2, [alwaysPassingTests, ...fix.slice(1)], reviewAnswer(SPEC_IDS)),
  ...candidate(3, fix, review({ 'no-stale-read': 'violated' })),
  ...candidate(4, [restoreStaleness, ...fix], review({ 'header-names': 'unclear' })),
  {
    model: 'alpha',
    matches: (k) => k.startsWith('Several attempts'),
    steps: [{ kind: 'text', content: JSON.stringify({ candidate: 3, reason: 'the smallest safe fix' }) }],
  },
];

function weave(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(OPENAI_|WEAVE_)/.test(k)),
    ) as Record<string, string>;
    const child = spawn(process.execPath, [CLI, 'agent', ...args], {
      env: { ...env, OPENAI_API_KEY: API_KEY },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('five candidates of known quality: the verified ranking, the trade-offs, the measured judgement, --apply best', async () => {
  const repo = createDemoRepo();
  const cacheFile = path.join(repo.workspace, 'src/cache.js');
  const cache = fs.readFileSync(cacheFile, 'utf8');
  assert.ok(cache.includes(TOUCH));
  fs.writeFileSync(cacheFile, cache.replace(TOUCH, TOUCH + HOT_LINE));
  git(repo.root, ['commit', '-qam', 'keep hot entries alive (breaks no-stale-read)']);
  const server = await startScriptedServer({ scripts: SCRIPTS, apiKey: API_KEY });
  try {
    const run = await weave([
      '--all',
      '--candidates',
      '4',
      '--model',
      'alpha',
      '--model',
      'beta',
      '--agent-command',
      'cat > /dev/null',
      '--concurrency',
      '3',
      '--self-pick',
      '--apply',
      'best',
      '--price',
      'alpha=1/2',
      '--json',
      '--workspace',
      repo.workspace,
      '--base-url',
      server.baseURL,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const ranking = JSON.parse(run.stdout) as CandidateRanking & {
      applied: { status: string; candidate: number };
    };

    assert.equal(ranking.before['no-secret-caching'], 'fail');
    assert.equal(ranking.before['no-stale-read'], 'fail');
    assert.deepEqual(
      ranking.candidates.map((c) => c.source),
      [
        { kind: 'model', model: 'alpha', seed: 1 },
        { kind: 'model', model: 'beta', seed: 2 },
        { kind: 'model', model: 'alpha', seed: 3 },
        { kind: 'model', model: 'beta', seed: 4 },
        { kind: 'command', command: 'cat > /dev/null' },
      ],
    );
    const seeds = server.chatRequests().map((r) => (r.body as { seed?: number } | undefined)?.seed);
    assert.deepEqual(
      new Set(seeds),
      new Set([1, 2, 3, 4, undefined]),
      'each candidate asked with its own seed',
    );

    assert.deepEqual(ranking.order, [4, 3, 5, 1, 2]);
    assert.equal(ranking.best, 4);
    const [c1, c2, c3, c4, c5] = ranking.candidates;
    assert.ok(c4!.strict && c4!.specsPassed === 8 && c4!.broken.length === 0);
    assert.deepEqual(c4!.fixed, ['no-stale-read', 'no-secret-caching']);
    assert.ok(!c3!.strict && c3!.specsPassed === 7);
    // hit-rate depends on cache-hit, so it is blocked (never ran): not a broken constraint.
    assert.deepEqual(c1!.broken, ['cache-hit']);
    assert.equal(c1!.specs.find((s) => s.id === 'hit-rate')?.after, 'blocked');
    assert.deepEqual(c1!.fixed, ['no-secret-caching']);
    assert.equal(c5!.specsPassed, 6);
    assert.equal(c5!.patch.files.length, 0);
    assert.ok(c2!.tampered);
    assert.match(c2!.disqualified ?? '', /tampered/);
    for (const c of [c1, c3, c4, c5]) assert.equal(c!.disqualified, undefined, c!.label);
    assert.equal(c1!.costUsd, (2 * 100 * 1 + 2 * 20 * 2) / 1_000_000, 'two agent steps at 100 + 20 tokens');
    assert.equal(c2!.costUsd, null, 'no price for beta');

    assert.deepEqual(ranking.pareto, [4]);
    for (const best of Object.values(ranking.bestByKind)) assert.equal(best.candidate, 4);
    // Without the all-rounder no candidate dominates: cand-5 keeps the cache (functional, performance),
    // cand-1 fixes security; the Pareto set is both, in rank order.
    const pair = ranking.candidates.filter((c) => c.index === 1 || c.index === 5);
    assert.deepEqual(paretoSet(pair, rankOrder(pair)), [5, 1]);

    // alpha said "satisfied" 8 times for cand-1 (5 real passes) and 7 for cand-3 (7 real passes).
    const alpha = ranking.judgement.review.alpha!;
    assert.deepEqual(
      [alpha.truePositives, alpha.falsePositives, alpha.falseNegatives, alpha.precision, alpha.recall],
      [12, 3, 0, 12 / 15, 1],
    );
    // beta: 8 × "satisfied" for the tamperer (no real pass), 7 for cand-4 (all real) and header-names unclear.
    const beta = ranking.judgement.review.beta!;
    assert.deepEqual(
      [beta.truePositives, beta.falsePositives, beta.falseNegatives, beta.precision, beta.recall],
      [7, 8, 1, 7 / 15, 7 / 8],
    );
    assert.equal(ranking.judgement.review['command: cat > /dev/null'], undefined);
    assert.deepEqual(ranking.judgement.finishClaims, { finished: 5, finishedAndStrict: 1 });
    assert.deepEqual(ranking.judgement.selfPick, {
      ok: true,
      model: 'alpha',
      pick: 3,
      reason: 'the smallest safe fix',
      vsFirst: 'beats',
      vsBest: 'loses',
      regret: 1,
    });
    const pickRequest = server
      .chatRequests()
      .find((r) => JSON.stringify(r.body).includes('Several attempts'));
    assert.ok(pickRequest, 'the self-pick was asked');
    assert.doesNotMatch(JSON.stringify(pickRequest.body), /test verdict|"pass"|tampered/, 'no verdict shown');
    const reviewRequest = server.chatRequests().find((r) => JSON.stringify(r.body).includes('You review'));
    assert.doesNotMatch(
      JSON.stringify(reviewRequest!.body),
      /test verdict after the patch/,
      'a blind review',
    );

    assert.deepEqual(ranking.applied, { status: 'applied', candidate: 4 });
    assert.doesNotMatch(fs.readFileSync(cacheFile, 'utf8'), /entry\.expiresAt = this\.now\(\)/);
    assert.match(fs.readFileSync(path.join(repo.workspace, 'src/client.js'), 'utf8'), /hasAuthorization/);
    assert.match(fs.readFileSync(path.join(repo.workspace, 'package.json'), 'utf8'), /test\/\*\.test\.js"/);

    for (let k = 1; k <= 5; k++) {
      const dir = path.join(ranking.dir, `cand-${k}`);
      for (const f of ['trajectory.jsonl', 'patch.diff', 'result.json'])
        assert.ok(fs.existsSync(path.join(dir, f)), `cand-${k}/${f}`);
    }
    assert.ok(fs.existsSync(path.join(ranking.dir, 'ranking.json')));
    assert.ok(!run.stdout.includes(API_KEY) && !run.stderr.includes(API_KEY));
    assert.match(run.stderr, /^\[cand-4\] /m, 'progress per candidate');
    assert.deepEqual(extraWorktrees(repo.root), []);
    assert.deepEqual(leftoverCheckouts(), [], 'every candidate checkout is removed');
  } finally {
    await server.close();
    repo.dispose();
  }
});

test('--candidates without a mode is --all: the text report names the ranking, the trade-offs and why the tamperer is out; no "Best" for an empty patch; nothing is applied without --apply', async () => {
  const repo = createDemoRepo();
  const server = await startScriptedServer({
    scripts: [
      ...candidate(1, [alwaysPassingTests, ...fix.slice(1)], reviewAnswer(SPEC_IDS)),
      ...candidate(2, finishOnlySteps('Nothing to change.'), reviewAnswer(SPEC_IDS)),
    ],
    apiKey: API_KEY,
  });
  try {
    const run = await weave([
      '--candidates',
      '2',
      '--model',
      'alpha',
      '--workspace',
      repo.workspace,
      '--base-url',
      server.baseURL,
    ]);
    assert.equal(run.code, 1, 'the best candidate does not pass every spec');
    assert.match(run.stdout, /^1 +cand-2 +alpha \(seed 2\) +no +7\/8 +0 +\+0 -0 /m);
    assert.match(run.stdout, /^— +cand-1 +alpha \(seed 1\) +no +0\/8 .*DISQUALIFIED \(tampered\)$/m);
    assert.match(run.stdout, /^cand-1 is disqualified: refused: the agent's code changed protected files/m);
    assert.match(run.stdout, /^no-secret-caching +security +fail +fail +tampered$/m);
    assert.match(run.stdout, /^Pareto set .*: cand-2$/m);
    assert.match(run.stdout, /review by alpha: precision 0\.44 \(7 of 16 "satisfied" were real passes\)/);
    assert.match(run.stdout, /cand-2 said: Nothing to change\./);
    // The only usable candidate changed nothing: there is no patch to call "Best".
    assert.doesNotMatch(run.stdout, /^Best:/m);
    assert.match(
      run.stdout,
      /^No candidate to apply: the top-ranked usable candidate \(cand-2\) changed nothing\.$/m,
    );
    assert.match(run.stdout, /^Runs: \.weave\/runs\/agent\/.*-candidates\//m);
    assert.doesNotMatch(fs.readFileSync(path.join(repo.workspace, 'package.json'), 'utf8'), /\|\| true/);
  } finally {
    await server.close();
    repo.dispose();
  }
});

test('bad candidate flags exit 2 with one clear message, before anything runs', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['--all', '--candidates', '2', '--matrix'], /choose exactly one of --all, --spec ID, --matrix/],
    [['--matrix', '--candidates', '2'], /--candidates ranks attempts at --all or --spec ID, not --matrix/],
    [['--all', '--model', 'a', '--model', 'b'], /several --model: use --candidates N/],
    [
      ['--all', '--model', 'a', '--self-pick'],
      /--self-pick, --price and --apply best go with --candidates N/,
    ],
    [['--all', '--candidates', '2', '--model', 'a', '--apply'], /say which to apply: --apply best/],
    [['--all', '--candidates', '0', '--model', 'a'], /--candidates must be a whole number ≥ 1/],
    [
      ['--all', '--candidates', '1', '--model', 'a', '--model', 'b'],
      /--candidates 1 is fewer than the 2 models/,
    ],
    [['--all', '--agent-command', 'true', '--self-pick'], /--self-pick asks a model to choose: give --model/],
    [
      ['--all', '--candidates', '2', '--model', 'a', '--price', 'a=cheap'],
      /--price must look like MODEL=IN\/OUT/,
    ],
  ];
  const repo = createDemoRepo();
  try {
    for (const [args, message] of cases) {
      const run = await weave([
        ...args,
        '--workspace',
        repo.workspace,
        '--base-url',
        'http://127.0.0.1:9/v1',
      ]);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message, args.join(' '));
    }
    assert.equal(fs.existsSync(path.join(repo.workspace, '.weave', 'runs', 'agent')), false, 'nothing ran');
  } finally {
    repo.dispose();
  }
});

test('a model server that is not there is said once, before any candidate runs: endpoint, error, exit 1, no "Best"', async () => {
  // A loopback port that was just listening and is closed now: connecting to it is refused.
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const baseURL = `http://127.0.0.1:${port}/v1`;
  const repo = createDemoRepo();
  try {
    const run = await weave([
      '--candidates',
      '3',
      '--model',
      'alpha',
      '--workspace',
      repo.workspace,
      '--base-url',
      baseURL,
    ]);
    assert.equal(run.code, 1, run.stderr);
    const said = run.stderr.split('\n').filter((line) => line.startsWith('weave agent: '));
    assert.equal(said.length, 1, run.stderr);
    assert.match(
      said[0]!,
      new RegExp(
        `Cannot reach the model server at ${baseURL.replace(/[.]/g, '\\.')} \\(ECONNREFUSED\\): is it running, and is the base URL right\\?`,
      ),
    );
    assert.doesNotMatch(run.stdout, /Best/);
    assert.equal(
      fs.existsSync(path.join(repo.workspace, '.weave', 'runs', 'agent')),
      false,
      'no candidate ran',
    );
  } finally {
    repo.dispose();
  }
});
