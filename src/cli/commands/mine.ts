// `weave mine`: a dataset of verified interacting-spec tasks mined from a list of repositories
// (core/tasks/mine/). `weave mine merge OUT DIR…` joins shard outputs; `--emit slurm|k8s` writes job files.
import path from 'node:path';
import { trapInterrupts } from '../interrupt';
import { mergeShards, mine, parseShard, type MineSummary } from '../../core/tasks/mine/mine';
import { EMIT_TARGETS, emitJobs, type EmitTarget } from '../../core/tasks/mine/emitJobs';
import type { DatasetSummary } from '../../core/tasks/mine/datasetFiles';
import { DEFAULT_LIMITS } from '../../core/tasks/mine/candidateCommits';
import { parseVerbArgs, parseVerbFlags, wholeNumber, withHelpHint } from '../flags';
import type { Verb } from '../verb';
import { BUDGET_FLAGS, budgetsFromFlags, MODEL_FLAGS, modelClientFromFlags } from '../modelFlags';
import type { SynthesisSettings } from '../../core/tasks/mine/synthesis';
import { mineReview, REVIEW_HELP, REVIEW_USAGE } from './mineReview';

const DEFAULT_NAME = 'weave/mined';
const DEFAULT_SYNTHESISED_SPECS = 3;
const DEFAULT_AUDIT_MUTANTS = 40;

const HELP = `Usage: weave mine --repos FILE --out DIR [options]
       weave mine merge OUT DIR… [--name ORG/NAME] [--json]
${REVIEW_USAGE}

Mines a list of repositories into a dataset of verified benchmark tasks. FILE holds one repository a line:
  SOURCE [A..B] [SUBFOLDER]      # a git URL or a local path (relative to FILE), a revision range, a project folder
Each repository is cloned into the cache; each commit changing source and tests together (within the limits)
is a candidate: its changed test files become goal specs (fail before, pass after: FAIL_TO_PASS), the rest of
the suite a few keep specs (pass before and after: PASS_TO_PASS), and the task is verified exactly as
\`weave export\` verifies one, in the sandbox. Every commit left out keeps its stage and reason (the funnel).

DIR gets the dataset: tasks/<id>/ (Harbor tasks), swe/<id>/ (SWE-bench shape), dataset.toml (Harbor's
manifest), metric.py (Harbor's metric hook), swe.jsonl, data/train.jsonl (Hugging Face datasets' json loader)
and card.md; beside it repos/<key>/ (each repository's result, landed atomically: a rerun skips finished ones)
and timings.json (not part of the dataset). The same inputs give a byte-identical dataset.

Options:
  --repos FILE          the repository list (required)
  --out DIR             the output folder (required); reruns resume in it
  --cache DIR           where clones and shared environments are kept (default DIR/.cache)
  --no-env-reuse        set every run's environment up on its own instead of once per environment version
                        (the lockfiles, set-up commands and toolchains) shared read-only by the candidates
  --shard K/N           mine only every N-th repository from the K-th (1 ≤ K ≤ N), e.g. one Slurm array task
  --name ORG/NAME       the dataset's name in dataset.toml and card.md (default ${DEFAULT_NAME})
  --max-candidates N    candidates per repository, newest first (default ${DEFAULT_LIMITS.maxCandidates})
  --max-files N         files a candidate may change (default ${DEFAULT_LIMITS.maxFiles})
  --max-lines N         lines a candidate may change (default ${DEFAULT_LIMITS.maxLines})
  --emit slurm|k8s      write job files into DIR/jobs instead of mining: an sbatch --array script per shard plus
                        a merge job (--dependency=afterok; DIR/jobs/submit.sh submits both), or a Kubernetes
                        Indexed Job; needs --shards
  --shards N            the number of shards the emitted jobs split the list into
  --image IMAGE         the container image of the Kubernetes Job (default weave-mine:latest)
  --model NAME          with a model: per verified task, \`weave draft\`'s synthesis agent proposes coupled
                        constraint specs (kept only if they pass on the gold twice, kill a mutant and declare
                        dependsOn/interactsWith; rejections go into the funnel), and \`weave audit\`'s shared kills
                        give the task's observed interactions. --base-url, --no-stream, --max-steps,
                        --max-tokens, --timeout-seconds as \`weave draft\`; the key from $WEAVE_API_KEY
  --max-specs N         synthesised constraint specs kept per task (default ${DEFAULT_SYNTHESISED_SPECS})
  --audit-mutants N     mutants the audit runs per task for observed interactions (default ${DEFAULT_AUDIT_MUTANTS})
  --json                print the summary as JSON
  -h, --help            show this help

${REVIEW_HELP}

Exit codes: 0 done (a repository that gave no task is in the funnel, not a failure), 1 stopped, 2 bad input.

Examples:
  weave mine --repos repos.txt --out dataset
  weave mine --repos repos.txt --out dataset --emit slurm --shards 8 && sh dataset/jobs/submit.sh`;

export const mineVerb: Verb = {
  name: 'mine',
  summary: 'Mine verified interacting-spec tasks from a list of repositories into a dataset',
  help: HELP,
  async run(args) {
    if (args[0] === 'merge') return merge(args.slice(1));
    if (args[0] === 'review') return mineReview(args.slice(1));
    const flags = parseVerbFlags('mine', args, {
      repos: { type: 'string' },
      out: { type: 'string' },
      cache: { type: 'string' },
      shard: { type: 'string' },
      name: { type: 'string', default: DEFAULT_NAME },
      'max-candidates': { type: 'string' },
      'max-files': { type: 'string' },
      'max-lines': { type: 'string' },
      emit: { type: 'string' },
      shards: { type: 'string' },
      image: { type: 'string' },
      json: { type: 'boolean', default: false },
      'no-env-reuse': { type: 'boolean', default: false },
      'max-specs': { type: 'string' },
      'audit-mutants': { type: 'string' },
      ...MODEL_FLAGS,
      ...BUDGET_FLAGS,
    });
    if (flags.repos === undefined)
      throw withHelpHint('mine', '--repos FILE is required (the repository list)');
    if (flags.out === undefined) throw withHelpHint('mine', '--out DIR is required (the dataset folder)');
    checkName(flags.name);
    const outDir = path.resolve(flags.out);
    const cacheDir = path.resolve(flags.cache ?? path.join(outDir, '.cache'));
    if (flags.emit !== undefined) {
      if (!(EMIT_TARGETS as readonly string[]).includes(flags.emit))
        throw withHelpHint('mine', `--emit must be one of ${EMIT_TARGETS.join(', ')}, got '${flags.emit}'`);
      const shards = wholeNumber('mine', 'shards', flags.shards);
      if (shards === undefined) throw withHelpHint('mine', `--emit ${flags.emit} needs --shards N`);
      const files = await emitJobs(flags.emit as EmitTarget, {
        weaveCommand: `${process.execPath} ${path.resolve(process.argv[1] ?? 'weave')}`,
        reposFile: path.resolve(flags.repos),
        outDir,
        cacheDir,
        shards,
        name: flags.name,
        ...(flags.image === undefined ? {} : { image: flags.image }),
        mineArgs: [...modelArgs(flags), ...(flags['no-env-reuse'] ? ['--no-env-reuse'] : [])],
      });
      process.stdout.write(flags.json ? `${JSON.stringify({ files }, null, 2)}\n` : `${files.join('\n')}\n`);
      return 0;
    }
    const limits = {
      maxCandidates:
        wholeNumber('mine', 'max-candidates', flags['max-candidates']) ?? DEFAULT_LIMITS.maxCandidates,
      maxFiles: wholeNumber('mine', 'max-files', flags['max-files']) ?? DEFAULT_LIMITS.maxFiles,
      maxLines: wholeNumber('mine', 'max-lines', flags['max-lines']) ?? DEFAULT_LIMITS.maxLines,
    };
    const synthesis = synthesisFromFlags(flags);
    const interrupt = trapInterrupts(
      'mine',
      'stopping (the repository in progress is left out; rerun to resume)…',
    );
    try {
      const summary = await mine({
        reposFile: path.resolve(flags.repos),
        outDir,
        cacheDir,
        name: flags.name,
        limits,
        weaveVersion: WEAVE_VERSION,
        ...(synthesis ? { synthesis } : {}),
        signal: interrupt.signal,
        onProgress: (message) => process.stderr.write(`weave mine: ${message}\n`),
        ...(flags.shard === undefined ? {} : { shard: parseShard(flags.shard) }),
        ...(flags['no-env-reuse'] ? { envReuse: false } : {}),
      });
      print(summary, flags.json);
      return 0;
    } finally {
      interrupt.dispose();
    }
  },
};

/**
 * The model's settings when --model is given. Only the flag turns synthesis on ($WEAVE_MODEL alone does not), so a
 * model-free run gives the same dataset whatever the environment holds.
 */
function synthesisFromFlags(
  flags: Parameters<typeof modelClientFromFlags>[0] &
    Partial<Record<'max-specs' | 'audit-mutants' | keyof typeof BUDGET_FLAGS, string>>,
): SynthesisSettings | undefined {
  const maxSpecs = wholeNumber('mine', 'max-specs', flags['max-specs']);
  const auditMutants = wholeNumber('mine', 'audit-mutants', flags['audit-mutants']);
  if (flags.model === undefined) {
    const stray = (['base-url', 'max-specs', 'audit-mutants'] as const).find((f) => flags[f] !== undefined);
    if (stray !== undefined)
      throw withHelpHint('mine', `--${stray} needs --model (it sets up the synthesis agent)`);
    return undefined;
  }
  const { client, apiKey } = modelClientFromFlags(flags);
  return {
    client,
    maxSpecs: maxSpecs ?? DEFAULT_SYNTHESISED_SPECS,
    auditMutants: auditMutants ?? DEFAULT_AUDIT_MUTANTS,
    budgets: budgetsFromFlags('mine', flags),
    secrets: [apiKey],
  };
}

/** The model's flags as given, for the emitted shards' commands (the key stays in the nodes' environment). */
function modelArgs(flags: Record<string, string | boolean | undefined>): string[] {
  if (flags.model === undefined) return [];
  const valued = [
    'model',
    'base-url',
    'max-specs',
    'audit-mutants',
    'max-steps',
    'max-tokens',
    'timeout-seconds',
  ];
  return [
    ...valued.flatMap((name) => (typeof flags[name] === 'string' ? [`--${name}`, flags[name]] : [])),
    ...(flags['no-stream'] === true ? ['--no-stream'] : []),
  ];
}

async function merge(args: string[]): Promise<number> {
  const { flags, positionals } = parseVerbArgs('mine', args, {
    name: { type: 'string', default: DEFAULT_NAME },
    json: { type: 'boolean', default: false },
  });
  const [out, ...shards] = positionals;
  if (out === undefined || shards.length === 0)
    throw withHelpHint(
      'mine',
      'merge needs the output folder and at least one shard output: weave mine merge OUT DIR…',
    );
  checkName(flags.name);
  print(await mergeShards(out, shards, flags.name), flags.json);
  return 0;
}

function checkName(name: string): void {
  if (!/^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(name) || name.includes('..'))
    throw withHelpHint(
      'mine',
      `--name '${name}': write ORG/NAME (letters, digits, '.', '_', '-'), as Harbor names datasets`,
    );
}

function print(summary: DatasetSummary | MineSummary, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return;
  }
  const rows = summary.repositories.map((r) => {
    const f = r.funnel;
    return `${r.key.padEnd(32)} ${String(f.commits).padStart(7)} ${String(f.candidates).padStart(10)} ${String(f.environment_ready).padStart(11)} ${String(f.specs_verified).padStart(14)} ${String(f.task_verified).padStart(5)}`;
  });
  process.stdout.write(
    [
      `${'repository'.padEnd(32)} commits candidates environment specs-verified tasks`,
      ...rows,
      `${summary.tasks} verified tasks from ${summary.repositories.length} repositories`,
      '',
    ].join('\n'),
  );
}

declare const WEAVE_VERSION: string;
