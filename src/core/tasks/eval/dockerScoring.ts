// `weave eval --env docker` (and `weave bench --env docker`): a prediction scored in its task's own image — the
// Harbor environment export wrote beside the task (harbor/), built once per task and run with no network, the
// prediction's patch as the agent stage, then tests/ and tests/test.sh as Harbor runs them — so a local score
// and a Harbor score come from the same environment. The verdicts weave_reward.py wrote are read back into the
// shape eval.sh's log parses to, so the report is built by the same code as with --env sandbox.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Verdict } from '../../check';
import { HARBOR_SUBDIR } from '../export/exportInputs';
import {
  buildHarborImage,
  harborImageTag,
  runHarborInDocker,
  DockerBuildError,
  type DockerHarborResult,
} from '../harbor/harborDocker';
import type { LoadedTask } from './taskFolders';
import { classifyPredictionAgainstBase, TaskRunError, type TaskRunResult } from '../run/taskRunner';

/** Where predictions are scored: bubblewrap around eval.sh (default), or the task's Docker image. */
export const SCORING_ENVIRONMENTS = ['sandbox', 'docker'] as const;
export type ScoringEnvironment = (typeof SCORING_ENVIRONMENTS)[number];

/** A --env value, or undefined when it names no scoring environment. */
export function scoringEnvironment(text: string): ScoringEnvironment | undefined {
  return SCORING_ENVIRONMENTS.find((e) => e === text);
}

// Harbor's own allowance: task.toml's build_timeout_sec is 600 s, 1200 s with set-up steps.
const BUILD_TIMEOUT_MS = 1_200_000;

/** The images of one eval run: each task's environment is built once, however many predictions it scores. */
export class TaskImages {
  private readonly built = new Map<string, Promise<string>>();

  image(loaded: LoadedTask, signal?: AbortSignal): Promise<string> {
    let image = this.built.get(loaded.dir);
    if (image === undefined) {
      image = this.build(loaded, signal);
      this.built.set(loaded.dir, image);
    }
    return image;
  }

  private async build(loaded: LoadedTask, signal?: AbortSignal): Promise<string> {
    const harborDir = harborDirOf(loaded);
    if (!(await fs.stat(harborDir).catch(() => undefined))?.isDirectory()) {
      throw new TaskRunError(
        `${loaded.dir} has no Harbor environment (${HARBOR_SUBDIR}/): --env docker scores in the image it ` +
          'defines; export the task with --format both, or score with --env sandbox',
      );
    }
    const tag = harborImageTag(loaded.task.instance_id);
    try {
      await buildHarborImage(harborDir, tag, BUILD_TIMEOUT_MS, signal);
    } catch (error) {
      if (error instanceof DockerBuildError) throw new TaskRunError(error.message);
      throw error;
    }
    return tag;
  }
}

export async function runTaskInDocker(
  loaded: LoadedTask,
  patch: string,
  images: TaskImages,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<TaskRunResult> {
  const image = await images.image(loaded, signal);
  const run = await runHarborInDocker({
    harborDir: harborDirOf(loaded),
    image,
    agent: { kind: 'patch', patch },
    timeoutMs,
    ...(signal ? { signal } : {}),
  });
  const patchFailed = run.patchMethod === null && !run.timedOut && !run.cancelled;
  if (!patchFailed && run.reward === null && !run.timedOut && !run.cancelled)
    throw new TaskRunError(`in Docker: ${run.failure ?? 'tests/test.sh wrote no reward'}`);
  const specs = patchFailed || run.reward === null ? {} : specResultsOfReward(loaded, run);
  return {
    parsed: {
      patchMethod: run.patchMethod,
      patchFailed,
      testPatchFailed: false,
      setupFailed: false,
      finished: run.reward !== null,
      specs,
    },
    log: run.output,
    timedOut: run.timedOut,
    cancelled: run.cancelled,
    durationMs: 0,
    scratchDir: '',
    // test.sh lays the protected set down before the specs run; a rewrite at run time stays inside the container.
    tamperedFiles: [],
    environment: 'docker',
    // The same diff policy as the sandbox path: a prediction that changes test infrastructure never resolves.
    testInfrastructure: await classifyPredictionAgainstBase(
      loaded.dir,
      loaded.task.base_commit,
      patch,
      loaded.task.specs,
    ),
  };
}

/**
 * The per-spec results Harbor's reward rests on (verdicts.json, and reward.json's `spec.<id>` entries, which
 * weave_reward.py wrote from the same verdicts): one for every spec of the task, or the run is an error that says
 * which are missing — never a report of specs that did not pass because nothing was read.
 */
function specResultsOfReward(loaded: LoadedTask, run: DockerHarborResult): TaskRunResult['parsed']['specs'] {
  const ids = loaded.task.specs.map((s) => s.id);
  const missing = ids.filter((id) => run.verdicts[id] === undefined);
  if (missing.length > 0) {
    throw new TaskRunError(
      `in Docker: tests/test.sh wrote reward ${run.reward} but no per-spec result for ${missing.join(', ')} ` +
        `(/logs/verifier/verdicts.json${Object.keys(run.verdicts).length === 0 ? ' is missing or empty' : ''}): ` +
        'the run cannot be scored',
    );
  }
  const disagreeing = ids.filter(
    (id) => run.rewards[`spec.${id}`] !== (run.verdicts[id]?.verdict === 'pass' ? 1 : 0),
  );
  if (disagreeing.length > 0) {
    throw new TaskRunError(
      `in Docker: reward.json and verdicts.json disagree on ${disagreeing.join(', ')}: the run cannot be scored`,
    );
  }
  const specs: TaskRunResult['parsed']['specs'] = {};
  for (const id of ids) {
    const v = run.verdicts[id] as { verdict: string; reason: string | null };
    specs[id] = {
      verdict: v.verdict as Verdict,
      exitCode: null,
      ...(v.reason === null ? {} : { reason: v.reason }),
      outputTail: '',
    };
  }
  return specs;
}

function harborDirOf(loaded: LoadedTask): string {
  return path.join(loaded.dir, HARBOR_SUBDIR);
}
