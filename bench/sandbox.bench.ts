// Cost of containment, measured in one run against its yardstick (the same command unsandboxed):
//   - per spec run: `runCommand` of a trivial test command plain, in a PID namespace (what `weave check` does),
//     and in the full sandbox (what agent / eval runs do), interleaved round by round so load hits all three;
//     goal: sandbox − plain ≤ 15 ms per spec run;
//   - per contained batch: the tamper guard's inspect-and-restore over the demo workspace;
//   - per agent run: a standalone checkout of the demo vs a `git worktree` of it;
//   - prepared processes (root only): how many of a batch's memory-limited runs were handed a process prepared in
//     its group ahead (preparedSandbox.ts); a load-dependent optimisation, so counted here and not in a test.
// Environment: WEAVE_BENCH_ROUNDS (default 30).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WORKING_TREE, withCopiedWorkspace } from '../src/core/workspace';
import { runCommand, type RunCommandOptions } from '../src/core/process/runCommand';
import { detectSandbox } from '../src/core/sandbox/bwrap';
import { containedEnvironment } from '../src/core/sandbox/environment';
import { pidNamespaceLauncher, sandboxLauncher } from '../src/core/sandbox/launchers';
import { TamperGuard } from '../src/core/sandbox/protectedFiles';
import { loadSpecFile } from '../src/core/spec/load';
import { grantWrites } from '../src/core/sandbox/writeGrants';
import { preparedHandOvers } from '../src/core/sandbox/preparedSandbox';

const ROUNDS = Number(process.env.WEAVE_BENCH_ROUNDS ?? 30);
const COMMAND = 'node -e 0';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function demoRepo(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-bench-sandbox-'));
  await fs.cp(path.resolve(__dirname, '../../examples'), dir, { recursive: true });
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], {
      cwd: dir,
      encoding: 'utf8',
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'demo');
  return dir;
}

async function main(): Promise<void> {
  const availability = await detectSandbox();
  if (!availability.available) throw new Error(`no sandbox here: ${availability.reason}`);
  const repo = await demoRepo();
  try {
    const loaded = await loadSpecFile(repo);
    if (!loaded.ok) throw new Error('demo specs do not load');
    await withCopiedWorkspace(
      repo,
      { kind: 'standalone', ref: WORKING_TREE, contain: { specFile: loaded.specFile } },
      async (checkout) => {
        const base: RunCommandOptions = { command: COMMAND, cwd: checkout.dir, timeoutMs: 30_000 };
        const { containment } = checkout;
        if (!containment.sandbox) throw new Error('no sandbox options');
        const modes: Record<string, RunCommandOptions> = {
          plain: base,
          'pid namespace': { ...base, launcher: pidNamespaceLauncher() },
          // What agent and eval runs get: the allowlisted root, the unprivileged uid (and, as root, the hand-over of
          // the checkout to it), limits, and the attempts observed (protected files as scratch copies compared
          // afterwards, the processes left listed: attemptObservation.ts).
          sandbox: {
            ...base,
            baseEnv: containedEnvironment(),
            launcher: sandboxLauncher(containment.sandbox),
          },
          // The same without the observation (protected files read-only binds): the observation's own cost.
          unobserved: {
            ...base,
            baseEnv: containedEnvironment(),
            launcher: sandboxLauncher({ ...containment.sandbox, observeAttempts: false }),
          },
        };
        const samples: Record<string, number[]> = Object.fromEntries(Object.keys(modes).map((m) => [m, []]));
        for (let round = 0; round < ROUNDS; round++) {
          for (const [mode, options] of Object.entries(modes)) {
            samples[mode]!.push(
              await timed(async () => {
                // A run that failed fast would look cheap: every measured run must have run the command.
                const outcome = await runCommand(options);
                if (outcome.exitCode !== 0) throw new Error(`${mode} run failed: ${outcome.output}`);
              }),
            );
          }
        }
        const plain = median(samples.plain!);
        console.log(`per spec run (\`${COMMAND}\`), median of ${ROUNDS} interleaved rounds:`);
        for (const [mode, values] of Object.entries(samples)) {
          const m = median(values);
          console.log(
            `  ${mode.padEnd(14)} ${m.toFixed(1).padStart(7)} ms   overhead vs plain ${(m - plain).toFixed(1).padStart(6)} ms`,
          );
        }
        const overhead = median(samples.sandbox!) - plain;
        console.log(`  goal: sandbox overhead ≤ 15 ms per spec run → ${overhead <= 15 ? 'met' : 'NOT met'}`);
        const unobserved = median(samples.unobserved!);
        console.log(
          `  the attempts' observation: ${(median(samples.sandbox!) - unobserved).toFixed(1)} ms per spec run ` +
            `(observed / unobserved sandbox run ${(median(samples.sandbox!) / unobserved).toFixed(2)}×, same run)`,
        );

        const guard = await TamperGuard.create(checkout.dir, loaded.specFile);
        const inspections: number[] = [];
        for (let i = 0; i < ROUNDS; i++) inspections.push(await timed(() => guard.inspectAndRestore()));
        console.log(
          `tamper guard inspect + restore (demo, per contained batch): ${median(inspections).toFixed(1)} ms`,
        );
      },
    );

    await measureWriteGrants();
    await measurePreparedHandOvers();

    const standalone: number[] = [];
    const worktree: number[] = [];
    for (let i = 0; i < Math.min(ROUNDS, 10); i++) {
      standalone.push(
        await timed(() =>
          withCopiedWorkspace(repo, { kind: 'standalone', ref: WORKING_TREE }, () => Promise.resolve()),
        ),
      );
      worktree.push(
        await timed(() =>
          withCopiedWorkspace(repo, { kind: 'worktree', ref: WORKING_TREE }, () => Promise.resolve()),
        ),
      );
    }
    console.log(
      `checkout per agent run (demo): standalone ${median(standalone).toFixed(0)} ms vs git worktree ` +
        `${median(worktree).toFixed(0)} ms (${(median(standalone) / median(worktree)).toFixed(2)}×)`,
    );
  } finally {
    await fs.rm(repo, { recursive: true, force: true });
  }
}

/**
 * The hand-over of a checkout to the sandbox's uid (root only) on a checkout of Weave's own src/ and test/ (about
 * 1,000 entries): the first run of a checkout walks it whole, later runs re-read only the folders that changed.
 */
async function measureWriteGrants(): Promise<void> {
  if (process.getuid?.() !== 0) {
    console.log('hand-over to the sandbox uid: not measured (only root hands the checkout over)');
    return;
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-bench-grants-'));
  try {
    const root = path.resolve(__dirname, '../..');
    for (const part of ['src', 'test'])
      await fs.cp(path.join(root, part), path.join(dir, part), { recursive: true });
    // Folders as a checkout made a while ago has them: their mtimes settled.
    const past = new Date(Date.now() - 3_600_000);
    const settle = async (folder: string): Promise<number> => {
      let entries = 0;
      for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
        entries++;
        if (entry.isDirectory()) entries += await settle(path.join(folder, entry.name));
      }
      await fs.utimes(folder, past, past);
      return entries;
    };
    const entries = await settle(dir);
    const first = await timed(() => grantWrites(dir, [], new Set()));
    const later: number[] = [];
    for (let i = 0; i < ROUNDS; i++) later.push(await timed(() => grantWrites(dir, [], new Set())));
    console.log(
      `hand-over to the sandbox uid (${entries} entries): first run ${first.toFixed(1)} ms, ` +
        `later runs ${median(later).toFixed(1)} ms (median of ${ROUNDS})`,
    );
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs that hit their memory limit, one after another as a batch's runs come: each but the first can be handed the
 * bwrap process prepared in its memory group while the run before it ran (goal: every later run, here 2 of 3).
 */
async function measurePreparedHandOvers(): Promise<void> {
  if (process.getuid?.() !== 0) {
    console.log('prepared processes: not measured (only root makes memory cgroups)');
    return;
  }
  const checkout = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-bench-prepared-'));
  try {
    const launcher = sandboxLauncher({
      checkout,
      network: 'none',
      limits: { processes: 256, fileSizeBytes: 64 << 20, tmpBytes: 64 << 20, memoryBytes: 96 << 20 },
    });
    const runs = 3;
    const before = preparedHandOvers();
    for (let i = 0; i < runs; i++) {
      const outcome = await runCommand({
        command: `node -e "const a = []; for (;;) a.push(Buffer.alloc(16 << 20, 1))"`,
        cwd: checkout,
        timeoutMs: 60_000,
        baseEnv: containedEnvironment(),
        launcher,
      });
      if (outcome.resourceLimit === undefined)
        throw new Error(`the memory limit did not hold: ${outcome.output}`);
    }
    console.log(
      `prepared processes: ${preparedHandOvers() - before} of ${runs} memory-limited runs handed one ` +
        `(goal ${runs - 1}: every run but the first)`,
    );
  } finally {
    await fs.rm(checkout, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
