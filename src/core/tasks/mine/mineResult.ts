// What one mined repository leaves in OUT/repos/<key>/: result.json (the funnel, the tasks, every rejection with
// its stage and reason: deterministic, part of what the dataset is made from), run-log.json (milliseconds per
// stage and the rejections' whole reasons with the commands' output: they vary run to run, so they stay out of
// the dataset), swe/<id>/ and harbor/<id>/ (the exported tasks).
export const REPOSITORY_RESULT = 'result.json';
export const REPOSITORY_LOG = 'run-log.json';
export const REPOSITORIES_DIR = 'repos';

/** Where a candidate stopped: the funnel's stages in order. */
export type Stage = 'clone' | 'walk' | 'candidate' | 'environment' | 'specs' | 'task' | 'specs-synthesised';

export interface Funnel {
  commits: number;
  candidates: number;
  environment_ready: number;
  specs_verified: number;
  task_verified: number;
  /** With a model (--model) only: verified tasks that hold at least one synthesised constraint spec. */
  specs_synthesised?: number;
}

export interface Rejection {
  commit: string;
  subject: string;
  stage: Stage;
  reason: string;
}

export interface MinedTask {
  instance_id: string;
  commit: string;
  subject: string;
  fail_to_pass: string[];
  pass_to_pass: string[];
  /** Specs per kind. */
  kinds: Record<string, number>;
  /** Declared interaction edges. */
  interactions: number;
  /** With a model only: the ids of the synthesised specs the task holds. */
  synthesised?: string[];
  /** With a model only: pairs of specs whose tests kill the same mutant (weave audit's shared kills). */
  observed_interactions?: Array<[string, string]>;
}

export interface RepositoryResult {
  key: string;
  line: string;
  funnel: Funnel;
  tasks: MinedTask[];
  rejections: Rejection[];
  /** Why the repository as a whole gave nothing (could not be cloned, no usable commit). */
  problem?: { stage: Stage; reason: string };
  /** With a model only: tokens spent per stage (the scripted model's are the same every run). */
  tokens?: { synthesis: number };
}

export interface StageTimes {
  clone: number;
  walk: number;
  specs: number;
  verify: number;
  synthesis: number;
  audit: number;
}

export interface RunLog {
  milliseconds: StageTimes;
  /** Each rejection's whole reason (the funnel keeps first lines). */
  reasons: Array<{ commit: string; reason: string }>;
  /** Shared environments (absent with --no-env-reuse): built, reused by a run, set up fresh in a run, and why. */
  environments?: { built: number; reused: number; fresh: number; fresh_reasons: string[] };
}
