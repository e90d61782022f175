// Benchmark of `weave agent` on the demo workspace with the scripted OpenAI-protocol server (zero model
// latency), measured in one run:
//   - the interaction matrix (8 specs alone + all together = 9 agent runs, each in its own worktree) with
//     concurrency 1 (sequential, the yardstick) and with parallel worktrees;
//   - Weave's own overhead per agent step (tool execution, trajectory, message building), excluding the model's
//     time, next to the yardstick of one HTTP round trip to the scripted server; and where a run's fixed costs go
//     (worktree, spec runs before/after, index, diff).
//   The matrix is measured twice: with the zero-latency scripted model (spec runs dominate, and each run already
//   runs its spec tests one per core) and with a simulated remote model that answers after
//   WEAVE_BENCH_AGENT_LATENCY_MS (default 400 ms), which is where parallel worktrees pay off.
//   - `weave agent --candidates 4` (runCandidates: 4 seeds of one model, each candidate reading files for
//     WEAVE_BENCH_CANDIDATE_STEPS (8) steps with the model answering after WEAVE_BENCH_CANDIDATE_LATENCY_MS (1500), then changing
//     a line so its specs run again) with 1 worker (the yardstick) and with 2: the target is ≤ 0.6× the time.
// Environment: WEAVE_BENCH_AGENT_STEPS (default 50), WEAVE_BENCH_AGENT_CONCURRENCY (default "2,4"),
// WEAVE_BENCH_AGENT_PARTS (default "matrix,overhead,candidates": which measures to run).
import os from 'node:os';
import { createModelClient, type ModelClient } from '../src/core/model/modelClient';
import { runMatrix } from '../src/core/agent/matrix';
import { modelCandidatePlans, runCandidates } from '../src/core/agent/candidates';
import { runAgent, type AgentProgress } from '../src/core/agent/runAgent';
import { loadSpecFile } from '../src/core/spec/load';
import type { SpecFile } from '../src/shared/specSchema';
import { startScriptedServer, type ScriptStep } from '../test/support/scriptedOpenAiServer';
import { createDemoRepo } from '../test/support/demoWorkspace';
import { finishOnlySteps, fixSecretCachingSteps } from '../test/e2e/agent/demoScripts';

const STEPS = Number(process.env.WEAVE_BENCH_AGENT_STEPS ?? 50);
const CONCURRENCIES = (process.env.WEAVE_BENCH_AGENT_CONCURRENCY ?? '2,4').split(',').map(Number);
const MODEL_LATENCY_MS = Number(process.env.WEAVE_BENCH_AGENT_LATENCY_MS ?? 400);
const CANDIDATE_STEPS = Number(process.env.WEAVE_BENCH_CANDIDATE_STEPS ?? 8);
// A hosted model's think time per call is seconds, not the matrix's 400 ms: the candidates' waits are on it.
const CANDIDATE_LATENCY_MS = Number(process.env.WEAVE_BENCH_CANDIDATE_LATENCY_MS ?? 1500);
const PARTS = new Set((process.env.WEAVE_BENCH_AGENT_PARTS ?? 'matrix,overhead,candidates').split(','));
const CANDIDATES = 4;

/** A remote model's think time, simulated: the answer comes back `latencyMs` after the request. */
function withLatency(inner: ModelClient, latencyMs: number): ModelClient {
  if (latencyMs <= 0) return inner;
  return {
    model: inner.model,
    baseURL: inner.baseURL,
    async complete(request: Parameters<ModelClient['complete']>[0]) {
      const [answer] = await Promise.all([
        inner.complete(request),
        new Promise((resolve) => setTimeout(resolve, latencyMs)),
      ]);
      return answer;
    },
  };
}

function timedClient(inner: ModelClient): ModelClient & { modelMs: number; calls: number } {
  const wrapper = {
    model: inner.model,
    baseURL: inner.baseURL,
    modelMs: 0,
    calls: 0,
    async complete(request: Parameters<ModelClient['complete']>[0]) {
      const started = performance.now();
      try {
        return await inner.complete(request);
      } finally {
        wrapper.modelMs += performance.now() - started;
        wrapper.calls += 1;
      }
    },
  };
  return wrapper;
}

async function loadSpecs(dir: string): Promise<SpecFile> {
  const loaded = await loadSpecFile(dir);
  if (!loaded.ok) throw new Error('the demo spec file does not load');
  return loaded.specFile;
}

const touchCache: ScriptStep = {
  kind: 'tools',
  calls: [
    {
      name: 'edit',
      arguments: {
        path: 'src/cache.js',
        search: "'use strict';\n",
        replace: "'use strict';\n// touched by the agent\n",
      },
    },
  ],
};

async function matrixWallTime(concurrency: number, latencyMs = 0): Promise<{ ms: number; runs: number }> {
  const repo = createDemoRepo();
  const server = await startScriptedServer({
    scripts: [
      { matches: (k) => k.includes('\n\nTarget: all specs together'), steps: fixSecretCachingSteps() },
      // Every "alone" run changes a line, so each cell costs a real spec run after, as with a real model.
      { matches: () => true, steps: [touchCache, ...finishOnlySteps()] },
    ],
  });
  try {
    const client = withLatency(createModelClient({ baseURL: server.baseURL, model: 'scripted' }), latencyMs);
    const started = performance.now();
    const matrix = await runMatrix({
      workspaceDir: repo.workspace,
      specFile: await loadSpecs(repo.workspace),
      client,
      concurrency,
    });
    if (matrix.runs.some((r) => r.stopReason !== 'finished')) throw new Error('a matrix run did not finish');
    return { ms: performance.now() - started, runs: matrix.runs.length };
  } finally {
    await server.close();
    repo.dispose();
  }
}

/** Four candidates of one model (seeds 1-4) through runCandidates with `workers` at once; the model's latency is
 * the scripted server's, so every candidate waits on the network as with a remote model. */
async function candidatesWallTime(workers: number): Promise<number> {
  const repo = createDemoRepo();
  const reads: ScriptStep[] = Array.from({ length: CANDIDATE_STEPS }, (_, i) => ({
    kind: 'tools',
    calls: [{ name: 'read_file', arguments: { path: i % 2 === 0 ? 'src/client.js' : 'src/cache.js' } }],
  }));
  const server = await startScriptedServer({
    scripts: [
      {
        matches: () => true,
        steps: [...reads, touchCache, ...finishOnlySteps()],
        latencyMs: CANDIDATE_LATENCY_MS,
      },
    ],
  });
  try {
    const started = performance.now();
    const { ranking } = await runCandidates({
      workspaceDir: repo.workspace,
      specFile: await loadSpecs(repo.workspace),
      target: { kind: 'all' },
      plans: modelCandidatePlans(CANDIDATES, ['scripted'], (model, sampling) =>
        createModelClient({ baseURL: server.baseURL, model, sampling }),
      ),
      concurrency: workers,
      modelReview: false,
    });
    if (ranking.candidates.some((c) => c.stopReason !== 'finished'))
      throw new Error('a candidate did not finish');
    return performance.now() - started;
  } finally {
    await server.close();
    repo.dispose();
  }
}

async function stepOverhead(): Promise<{
  perStepMs: number;
  roundTripMs: number;
  phases: Array<[string, number]>;
  steps: number;
}> {
  const repo = createDemoRepo();
  const reads: ScriptStep[] = Array.from({ length: STEPS - 1 }, (_, i) => ({
    kind: 'tools',
    calls: [
      i % 2 === 0
        ? { name: 'read_file', arguments: { path: i % 4 === 0 ? 'src/client.js' : 'src/cache.js' } }
        : { name: 'search_text', arguments: { query: 'cache' } },
    ],
  }));
  const server = await startScriptedServer({
    scripts: [{ matches: () => true, steps: [...reads, ...finishOnlySteps()] }],
  });
  try {
    const client = timedClient(createModelClient({ baseURL: server.baseURL, model: 'scripted' }));
    const marks = new Map<string, number>();
    const started = performance.now();
    const result = await runAgent({
      workspaceDir: repo.workspace,
      specFile: await loadSpecs(repo.workspace),
      target: { kind: 'all' },
      client,
      modelReview: false,
      budgets: { maxSteps: STEPS + 1 },
      onProgress: (e: AgentProgress) => {
        if (e.type === 'phase') marks.set(e.phase, performance.now());
      },
    });
    const total = performance.now() - started;
    if (result.stopReason !== 'finished') throw new Error(`overhead run stopped: ${result.stopReason}`);
    const at = (p: string): number => marks.get(p) ?? started;
    const loopMs = at('specs-after') - at('agent');
    // The yardstick: the same chat request's bare HTTP round trip, measured on the same server.
    const probe = createModelClient({ baseURL: server.baseURL, model: 'scripted', stream: true });
    const rounds = 50;
    const probeStarted = performance.now();
    for (let i = 0; i < rounds; i++) await probe.complete({ messages: [{ role: 'user', content: 'ping' }] });
    const roundTripMs = (performance.now() - probeStarted) / rounds;
    return {
      perStepMs: (loopMs - client.modelMs) / result.steps,
      roundTripMs,
      steps: result.steps,
      phases: [
        ['worktree + specs before', at('agent') - at('worktree')],
        [`agent loop (${result.steps} steps, model time included)`, loopMs],
        ['  of which model calls (HTTP, scripted)', client.modelMs],
        ['specs after + diff + review + cleanup', started + total - at('specs-after')],
        ['whole run', total],
      ],
    };
  } finally {
    await server.close();
    repo.dispose();
  }
}

async function main(): Promise<void> {
  console.log(
    `machine: ${os.availableParallelism()} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const rows: Array<[string, string, string]> = [];
  if (PARTS.has('matrix')) {
    const sequential = await matrixWallTime(1);
    rows.push([
      `matrix, ${sequential.runs} runs, concurrency 1 (yardstick)`,
      `${(sequential.ms / 1000).toFixed(1)} s`,
      '1.00×',
    ]);
    for (const c of CONCURRENCIES) {
      const parallel = await matrixWallTime(c);
      rows.push([
        `matrix, ${parallel.runs} runs, concurrency ${c}`,
        `${(parallel.ms / 1000).toFixed(1)} s`,
        `${(sequential.ms / parallel.ms).toFixed(2)}×`,
      ]);
    }
    if (MODEL_LATENCY_MS > 0) {
      const slowSequential = await matrixWallTime(1, MODEL_LATENCY_MS);
      rows.push([
        `matrix, ${MODEL_LATENCY_MS} ms model latency, concurrency 1 (yardstick)`,
        `${(slowSequential.ms / 1000).toFixed(1)} s`,
        '1.00×',
      ]);
      const slowParallel = await matrixWallTime(2, MODEL_LATENCY_MS);
      rows.push([
        `matrix, ${MODEL_LATENCY_MS} ms model latency, concurrency 2`,
        `${(slowParallel.ms / 1000).toFixed(1)} s`,
        `${(slowSequential.ms / slowParallel.ms).toFixed(2)}×`,
      ]);
    }
  }
  if (PARTS.has('overhead')) {
    const overhead = await stepOverhead();
    rows.push([
      `Weave overhead per agent step (${overhead.steps} steps, model time excluded)`,
      `${overhead.perStepMs.toFixed(2)} ms`,
      '',
    ]);
    rows.push([
      'yardstick: one chat round trip to the scripted server',
      `${overhead.roundTripMs.toFixed(2)} ms`,
      '',
    ]);
    for (const [name, ms] of overhead.phases) rows.push([`  ${name}`, `${(ms / 1000).toFixed(2)} s`, '']);
  }
  if (PARTS.has('candidates')) {
    const one = await candidatesWallTime(1);
    const two = await candidatesWallTime(2);
    rows.push([
      `${CANDIDATES} candidates, ${CANDIDATE_LATENCY_MS} ms model latency, ${CANDIDATE_STEPS + 2} steps each, 1 worker (yardstick)`,
      `${(one / 1000).toFixed(1)} s`,
      '1.00×',
    ]);
    rows.push([
      `${CANDIDATES} candidates, 2 workers (target ≤ 0.60× the time: ${(two / one).toFixed(2)}×, ${two / one <= 0.6 ? 'met' : 'NOT met'})`,
      `${(two / 1000).toFixed(1)} s`,
      `${(one / two).toFixed(2)}×`,
    ]);
  }
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`${'measure'.padEnd(width)}  ${'time'.padStart(10)}  speed-up`);
  for (const [name, time, speedup] of rows)
    console.log(`${name.padEnd(width)}  ${time.padStart(10)}  ${speedup}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
