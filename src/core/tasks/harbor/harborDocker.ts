// Runs a Harbor task folder in a real container engine, in Harbor's order: `docker build` of environment/ (the
// image Harbor will run), a container from it, the agent stage (the oracle's solution/solve.sh, a prediction's
// patch applied in the WORKDIR, or nothing), tests/ copied in only afterwards, tests/test.sh, and
// /logs/verifier read back. Nothing gets a network: the build and every container run with `--network none`
// (the set-up commands an exported Dockerfile runs must then find what they install in the image or the build
// context — CI's base images are made that way, test/docker/install-docker.sh). The Docker CLI on PATH talks to
// whatever engine DOCKER_HOST names; BuildKit is turned off so a plain engine without buildx builds too.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand, type CommandOutcome } from '../../process/runCommand';
import type { PatchMethod } from '../run/evalLog';
import type { HarborContractResult } from './harborContract';
import { indentedTail, readJsonFile } from './harborOutputs';
import { HARBOR_FILES, HARBOR_WORKDIR } from './harborTask';
import { shQuote } from '../run/specRunsScript';

/** What runs in the agent stage: nothing, Harbor's oracle, or a prediction's patch. */
export type HarborAgentStage = { kind: 'none' } | { kind: 'oracle' } | { kind: 'patch'; patch: string };

export interface DockerHarborRun {
  harborDir: string;
  /** An image built from the task's environment/ (buildHarborImage). */
  image: string;
  agent: HarborAgentStage;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface DockerHarborResult extends HarborContractResult {
  /** For a patch: how it applied (null: it did not). */
  patchMethod: PatchMethod | null;
  timedOut: boolean;
  cancelled: boolean;
}

export class DockerUnavailableError extends Error {}
export class DockerBuildError extends Error {}

const OUTPUT_TAIL_LINES = 30;
const PROBE_TIMEOUT_MS = 15_000;
const DOCKER_ENV = { DOCKER_BUILDKIT: '0', DOCKER_CLI_HINTS: 'false' };
const PATCH_IN_CONTAINER = '/tmp/weave-prediction.patch';

/** Throws DockerUnavailableError, saying why, unless a Docker engine answers. */
export async function requireDockerEngine(): Promise<void> {
  const outcome = await docker(['version', '--format', '{{.Server.Version}}'], PROBE_TIMEOUT_MS);
  if (outcome.exitCode === 0 && outcome.output.trim() !== '') return;
  const why =
    outcome.spawnError ??
    (outcome.timedOut
      ? 'timed out'
      : indentedTail(outcome.output, OUTPUT_TAIL_LINES) || `exit code ${outcome.exitCode}`);
  throw new DockerUnavailableError(
    `no Docker engine answers (docker version: ${why.trim()}); start one (or set DOCKER_HOST), or score with --env sandbox`,
  );
}

/** `docker build --network none` of the task's environment/ as `tag`; throws DockerBuildError with the output. */
export async function buildHarborImage(
  harborDir: string,
  tag: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const context = path.join(path.resolve(harborDir), path.dirname(HARBOR_FILES.dockerfile));
  const outcome = await docker(['build', '--network', 'none', '-t', tag, context], timeoutMs, signal);
  if (outcome.exitCode === 0) return;
  throw new DockerBuildError(
    `docker build of ${context} failed (${describe(outcome)}):\n${indentedTail(outcome.output, OUTPUT_TAIL_LINES)}`,
  );
}

/** A Docker image name for a task: lower-case, only the characters tags allow. */
export function harborImageTag(instanceId: string): string {
  const name = instanceId
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '-')
    .replace(/^[^a-z0-9]+/, '');
  return `weave-task/${name || 'task'}:latest`;
}

export async function runHarborInDocker(run: DockerHarborRun): Promise<DockerHarborResult> {
  const harborDir = path.resolve(run.harborDir);
  const container = `weave-${randomBytes(6).toString('hex')}`;
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-docker-'));
  const deadline = Date.now() + run.timeoutMs;
  const outputs: string[] = [];
  let timedOut = false;
  let cancelled = false;
  const step = async (args: string[]): Promise<CommandOutcome> => {
    const outcome = await docker(args, Math.max(1000, deadline - Date.now()), run.signal);
    outputs.push(`$ docker ${args.join(' ')}\n${outcome.output}`);
    timedOut ||= outcome.timedOut;
    cancelled ||= outcome.cancelled;
    return outcome;
  };
  const result = (fields: Partial<DockerHarborResult>): DockerHarborResult => ({
    reward: null,
    rewards: {},
    verdicts: {},
    patchMethod: null,
    output: outputs.join('\n'),
    timedOut,
    cancelled,
    ...fields,
  });
  try {
    const started = await step([
      'run',
      '-d',
      '--network',
      'none',
      '--name',
      container,
      run.image,
      'sleep',
      'infinity',
    ]);
    if (started.exitCode !== 0)
      return result({
        failure: `the container did not start (${describe(started)}):\n${indentedTail(started.output, OUTPUT_TAIL_LINES)}`,
      });
    const agent = await agentPhase(run, harborDir, container, scratch, step);
    if ('failure' in agent) return result(agent);
    const verified = await verifierPhase(harborDir, container, scratch, step, outputs);
    return result({ ...verified, patchMethod: agent.patchMethod });
  } finally {
    await docker(['rm', '-f', container], PROBE_TIMEOUT_MS);
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

type DockerStep = (args: string[]) => Promise<CommandOutcome>;

/** What stands for the agent: the oracle's solve.sh, a prediction's patch, or nothing. */
async function agentPhase(
  run: DockerHarborRun,
  harborDir: string,
  container: string,
  scratch: string,
  step: DockerStep,
): Promise<{ patchMethod: PatchMethod | null } | { failure: string }> {
  if (run.agent.kind === 'oracle') {
    await step(['cp', path.join(harborDir, 'solution'), `${container}:/solution`]);
    const solved = await step(['exec', container, 'sh', '/solution/solve.sh']);
    if (solved.exitCode !== 0)
      return {
        failure: `the oracle (solution/solve.sh) failed (${describe(solved)}):\n${indentedTail(solved.output, OUTPUT_TAIL_LINES)}`,
      };
    return { patchMethod: null };
  }
  if (run.agent.kind === 'patch') {
    const patchMethod = await applyPatch(run.agent.patch, container, scratch, step);
    if (patchMethod === null) return { failure: 'the patch did not apply (git apply, git apply --3way)' };
    return { patchMethod };
  }
  return { patchMethod: null };
}

/** Harbor's verifier: tests/ uploaded only after the agent has finished, test.sh run, its reward files read. */
async function verifierPhase(
  harborDir: string,
  container: string,
  scratch: string,
  step: DockerStep,
  outputs: readonly string[],
): Promise<Partial<DockerHarborResult>> {
  await step(['cp', path.join(harborDir, 'tests'), `${container}:/tests`]);
  await step(['exec', container, 'sh', '/tests/test.sh']);
  const verifier = path.join(scratch, 'verifier');
  await step(['cp', `${container}:/logs/verifier`, verifier]);
  const text = await fs.readFile(path.join(verifier, 'reward.txt'), 'utf8').catch(() => '');
  const reward = text.trim() === '' ? null : Number(text.trim());
  const scored = reward !== null && !Number.isNaN(reward);
  return {
    reward: scored ? reward : null,
    rewards: ((await readJsonFile(path.join(verifier, 'reward.json'))) as Record<string, number>) ?? {},
    verdicts:
      ((await readJsonFile(path.join(verifier, 'verdicts.json'))) as DockerHarborResult['verdicts']) ?? {},
    ...(scored
      ? {}
      : {
          failure: `tests/test.sh wrote no reward:\n${indentedTail(outputs.at(-2) ?? '', OUTPUT_TAIL_LINES)}`,
        }),
  };
}

/** The prediction's patch in the WORKDIR: git apply, then a 3-way merge. Null when neither applies. */
async function applyPatch(
  patch: string,
  container: string,
  scratch: string,
  step: (args: string[]) => Promise<CommandOutcome>,
): Promise<PatchMethod | null> {
  if (patch.trim() === '') return 'none';
  const file = path.join(scratch, 'prediction.patch');
  await fs.writeFile(file, patch);
  await step(['cp', file, `${container}:${PATCH_IN_CONTAINER}`]);
  const methods: Array<[PatchMethod, string]> = [
    ['git-apply', `git apply --whitespace=nowarn ${PATCH_IN_CONTAINER}`],
    ['git-apply-3way', `git apply --3way --whitespace=nowarn ${PATCH_IN_CONTAINER}`],
  ];
  for (const [method, command] of methods) {
    const applied = await step(['exec', '-w', HARBOR_WORKDIR, container, 'sh', '-c', command]);
    if (applied.exitCode === 0) return method;
  }
  return null;
}

/** The one place Weave runs the Docker CLI. */
function docker(args: string[], timeoutMs: number, signal?: AbortSignal): Promise<CommandOutcome> {
  return runCommand({
    command: `docker ${args.map(shQuote).join(' ')}`,
    cwd: os.tmpdir(),
    env: DOCKER_ENV,
    timeoutMs,
    ...(signal ? { signal } : {}),
  });
}

function describe(outcome: CommandOutcome): string {
  if (outcome.timedOut) return 'timed out';
  if (outcome.cancelled) return 'cancelled';
  return outcome.spawnError ?? `exit code ${outcome.exitCode ?? outcome.signal ?? '?'}`;
}
