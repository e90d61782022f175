// Runs a Harbor task folder the way Harbor does, without Docker: a fresh copy of the environment (the base
// commit's files from environment/repo, then the Dockerfile's RUN steps after the COPY, in a scratch folder
// standing in for the WORKDIR), optionally the oracle (solution/solve.sh), then — as Harbor uploads tests/ only
// after the agent — tests/ is copied in and tests/test.sh runs, with /tests, /solution, /logs and /app mapped to
// scratch folders through WEAVE_TESTS_DIR / WEAVE_SOLUTION_DIR / WEAVE_LOGS_DIR / WEAVE_APP_DIR. Export runs it
// twice to verify a Harbor task: oracle → reward 1, no agent → reward < 1.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand, type CommandOutcome } from '../../process/runCommand';
import { makeSetupHome, redactUrlCredentials, setupVariables } from '../../sandbox/setupEnvironment';
import { containedEnvironment } from '../../sandbox/environment';
import { SETUP_TAIL_LINES } from '../run/evalLog';
import { indentedTail, readJsonFile } from './harborOutputs';
import { HARBOR_FILES, REPO_COPY_LINE } from './harborTask';
import { EnvironmentCopy, type SharedEnvironments } from '../run/sharedEnvironment';
import { detectSandbox } from '../../sandbox/bwrap';

export interface HarborContractOptions {
  harborDir: string;
  /** Run solution/solve.sh before the verifier (Harbor's oracle agent). */
  oracle: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Environments set up once and shared, with the task's set-up commands (its Dockerfile's RUN steps among the
   * others): where the set-up is a shared one, /app gets a copy of it in place of those steps (weave mine).
   */
  sharedEnvironments?: { environments: SharedEnvironments; setupCommands: readonly string[] };
}

export interface HarborContractResult {
  /** Overall reward from reward.txt; null when test.sh wrote none. */
  reward: number | null;
  /** reward.json as written. */
  rewards: Record<string, number>;
  verdicts: Record<string, { verdict: string; reason: string | null }>;
  /** Why the run could not be scored (a set-up step or solve.sh failed), with its output. */
  failure?: string;
  /** Everything the steps printed. */
  output: string;
}

export async function runHarborContract(options: HarborContractOptions): Promise<HarborContractResult> {
  const harborDir = path.resolve(options.harborDir);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-harbor-'));
  const dirs = {
    app: path.join(scratch, 'app'),
    tests: path.join(scratch, 'tests'),
    solution: path.join(scratch, 'solution'),
    logs: path.join(scratch, 'logs'),
    state: path.join(scratch, 'state'),
  };
  const outputs: string[] = [];
  const step = stepRunner(dirs, Date.now() + options.timeoutMs, outputs, options.signal);
  const empty = (failure: string): HarborContractResult => ({
    reward: null,
    rewards: {},
    verdicts: {},
    failure,
    output: outputs.join('\n'),
  });
  try {
    await fs.cp(path.join(harborDir, HARBOR_FILES.repo), dirs.app, { recursive: true });
    await fs.mkdir(path.join(dirs.logs, 'verifier'), { recursive: true });
    await fs.mkdir(path.join(dirs.logs, 'agent'), { recursive: true });
    const setupHome = await makeSetupHome(scratch);
    const shared = options.sharedEnvironments;
    // undefined: not asked yet; false: asked, and the set-up runs here as without sharing.
    let copied: boolean | undefined;
    for (const command of await setupSteps(harborDir)) {
      if (shared !== undefined && shared.setupCommands.includes(command) && copied !== false) {
        if (copied === undefined) {
          const env = await shared.environments.ready(dirs.app, shared.setupCommands, {
            sandboxed: (await detectSandbox()).available,
            timeoutMs: Math.max(1000, options.timeoutMs),
            ...(options.signal ? { signal: options.signal } : {}),
          });
          // The steps run as Weave's own user here (no sandbox), so the copy keeps that owner.
          if (env !== undefined) await EnvironmentCopy.make(env, dirs.app, false);
          copied = env !== undefined;
        }
        if (copied) continue;
      }
      const failure = await step(`environment set-up \`${command}\``, command, setupHome);
      if (failure !== undefined) return empty(failure);
    }
    if (options.oracle) {
      await fs.cp(path.join(harborDir, 'solution'), dirs.solution, { recursive: true });
      const failure = await step('the oracle (solution/solve.sh)', `sh "${dirs.solution}/solve.sh"`);
      if (failure !== undefined) return empty(failure);
    }
    await fs.cp(path.join(harborDir, 'tests'), dirs.tests, { recursive: true });
    await step('tests/test.sh', `sh "${dirs.tests}/test.sh"`);
    return await verifierResult(path.join(dirs.logs, 'verifier'), outputs);
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** The scratch folders standing in for Harbor's /app, /tests, /solution and /logs. */
interface HarborDirs {
  app: string;
  tests: string;
  solution: string;
  logs: string;
  /** The image's own state outside the work tree (the set-up venv's manifest): /var/lib/weave. */
  state: string;
}

/**
 * Runs one step in /app before the deadline, its output added to `outputs`; undefined when it succeeded, else
 * why it failed with its output's tail.
 */
function stepRunner(
  dirs: HarborDirs,
  deadline: number,
  outputs: string[],
  signal: AbortSignal | undefined,
): (label: string, command: string, setupHome?: string) => Promise<string | undefined> {
  const env = {
    WEAVE_APP_DIR: dirs.app,
    WEAVE_TESTS_DIR: dirs.tests,
    WEAVE_SOLUTION_DIR: dirs.solution,
    WEAVE_LOGS_DIR: dirs.logs,
    WEAVE_STATE_DIR: dirs.state,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  // A set-up step (the Dockerfile's RUN after the COPY) gets the set-up environment and a private HOME, as
  // eval.sh's set-up does (sandbox/setupEnvironment.ts); the other steps what they got before.
  return async (label, command, setupHome) => {
    const outcome = await runInEnvironment(
      command,
      dirs.app,
      setupHome === undefined
        ? { env }
        : { env: { ...env, ...setupVariables(setupHome) }, baseEnv: containedEnvironment() },
      Math.max(1000, deadline - Date.now()),
      signal,
    );
    outputs.push(redactUrlCredentials(`$ ${command}\n${outcome.output}`));
    if (outcome.exitCode === 0) return undefined;
    const why = outcome.timedOut
      ? 'timed out'
      : (outcome.spawnError ?? `exit code ${outcome.exitCode ?? outcome.signal ?? '?'}`);
    return redactUrlCredentials(
      `${label} failed (${why}):\n${indentedTail(outcome.output, SETUP_TAIL_LINES)}`,
    );
  };
}

/** What tests/test.sh left in /logs/verifier: the reward (none is a failure), reward.json, verdicts.json. */
async function verifierResult(verifier: string, outputs: string[]): Promise<HarborContractResult> {
  const text = await fs.readFile(path.join(verifier, 'reward.txt'), 'utf8').catch(() => '');
  const reward = text.trim() === '' ? null : Number(text.trim());
  const rewards = (await readJsonFile(path.join(verifier, 'reward.json'))) as
    Record<string, number> | undefined;
  const verdicts = (await readJsonFile(path.join(verifier, 'verdicts.json'))) as
    HarborContractResult['verdicts'] | undefined;
  return {
    reward: reward === null || Number.isNaN(reward) ? null : reward,
    rewards: rewards ?? {},
    verdicts: verdicts ?? {},
    ...(reward === null
      ? {
          failure: `tests/test.sh wrote no reward:\n${indentedTail(outputs.at(-1) ?? '', SETUP_TAIL_LINES)}`,
        }
      : {}),
    output: outputs.join('\n'),
  };
}

/** The Dockerfile's RUN steps after the repository is copied in: the project's own set-up. */
export async function setupSteps(harborDir: string): Promise<string[]> {
  const dockerfile = await fs.readFile(path.join(harborDir, HARBOR_FILES.dockerfile), 'utf8');
  const lines = dockerfile.split('\n');
  const copied = lines.indexOf(REPO_COPY_LINE);
  if (copied < 0)
    throw new Error(`${HARBOR_FILES.dockerfile} does not copy the repository (${REPO_COPY_LINE})`);
  return lines
    .slice(copied + 1)
    .filter((l) => l.startsWith('RUN '))
    .map((l) => l.slice(4));
}

/** The one place a Harbor task's commands run here (containment goes here). */
function runInEnvironment(
  command: string,
  cwd: string,
  environment: { env: Record<string, string>; baseEnv?: Readonly<NodeJS.ProcessEnv> },
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<CommandOutcome> {
  return runCommand({ command, cwd, ...environment, timeoutMs, ...(signal ? { signal } : {}) });
}
