// `weave mine --emit slurm|k8s`: the same mining as job scripts for an existing engine instead of a loop here.
// Slurm: an array job (one array task per shard, each writing OUT/shards/K) and a merge job that starts only
// when every array task succeeded (--dependency=afterok), submitted together by submit.sh. Kubernetes: an
// Indexed Job (JOB_COMPLETION_INDEX picks the shard) over a shared volume, written in YAML's JSON form (every
// JSON document is YAML 1.2; kubectl reads either); the merge is one more command once the Job completes.
import { promises as fs } from 'node:fs';
import path from 'node:path';

export type EmitTarget = 'slurm' | 'k8s';
export const EMIT_TARGETS: readonly EmitTarget[] = ['slurm', 'k8s'];

export interface EmitOptions {
  /** How to start weave on the cluster's nodes, e.g. `node /opt/weave/dist/cli.js` or `weave`. */
  weaveCommand: string;
  reposFile: string;
  outDir: string;
  cacheDir: string;
  shards: number;
  name: string;
  /** Kubernetes: the container image holding weave, git, bwrap and the projects' toolchains. */
  image?: string;
  /** More `weave mine` arguments every shard gets (the model's: --model, --base-url, --max-specs, …). */
  mineArgs?: readonly string[];
}

export const SHARDS_DIR = 'shards';

/** Writes the job files into OUT/jobs and returns their paths. */
export async function emitJobs(target: EmitTarget, options: EmitOptions): Promise<string[]> {
  const jobsDir = path.join(options.outDir, 'jobs');
  await fs.mkdir(jobsDir, { recursive: true });
  if (target === 'k8s') {
    const file = path.join(jobsDir, 'weave-mine-job.yaml');
    await fs.writeFile(file, `${JSON.stringify(kubernetesJob(options), null, 2)}\n`);
    return [file];
  }
  const files = {
    array: path.join(jobsDir, 'mine-array.sbatch'),
    merge: path.join(jobsDir, 'mine-merge.sbatch'),
    submit: path.join(jobsDir, 'submit.sh'),
  };
  await fs.writeFile(files.array, slurmArrayScript(options), { mode: 0o755 });
  await fs.writeFile(files.merge, slurmMergeScript(options), { mode: 0o755 });
  await fs.writeFile(files.submit, slurmSubmitScript(files), { mode: 0o755 });
  return [files.submit, files.array, files.merge];
}

/** A shard's output folder; with '' the prefix a job appends its shard number to. */
function shardOut(options: EmitOptions, shard: string): string {
  return `${path.join(options.outDir, SHARDS_DIR)}/${shard}`;
}

function slurmArrayScript(options: EmitOptions): string {
  return [
    '#!/bin/sh',
    '# One array task per shard of the repository list (weave mine --shard K/N); a rerun skips finished repositories.',
    '#SBATCH --job-name=weave-mine',
    `#SBATCH --array=1-${options.shards}`,
    `#SBATCH --output=${path.join(options.outDir, 'jobs', 'mine-%A_%a.log')}`,
    'set -eu',
    `exec ${options.weaveCommand} mine --repos ${sh(options.reposFile)} --out ${sh(shardOut(options, ''))}"$SLURM_ARRAY_TASK_ID" \\`,
    `  --cache ${sh(options.cacheDir)} --name ${sh(options.name)} --shard "$SLURM_ARRAY_TASK_ID/${options.shards}"${extraArgs(options)}`,
    '',
  ].join('\n');
}

function slurmMergeScript(options: EmitOptions): string {
  const shards = Array.from({ length: options.shards }, (_, i) => sh(shardOut(options, String(i + 1))));
  return [
    '#!/bin/sh',
    '# Runs after every array task succeeded: the shard outputs into one dataset, the same bytes as a single run.',
    '#SBATCH --job-name=weave-mine-merge',
    `#SBATCH --output=${path.join(options.outDir, 'jobs', 'merge-%j.log')}`,
    'set -eu',
    `exec ${options.weaveCommand} mine merge ${sh(options.outDir)} ${shards.join(' ')} --name ${sh(options.name)}`,
    '',
  ].join('\n');
}

function slurmSubmitScript(files: { array: string; merge: string }): string {
  return [
    '#!/bin/sh',
    '# Submits the array job, then the merge job held until the whole array succeeded. Prints both job ids.',
    'set -eu',
    `array=$(sbatch --parsable ${sh(files.array)})`,
    'array=${array%%;*}',
    `merge=$(sbatch --parsable --dependency=afterok:"$array" ${sh(files.merge)})`,
    'echo "$array ${merge%%;*}"',
    '',
  ].join('\n');
}

export function kubernetesJob(options: EmitOptions): Record<string, unknown> {
  const shard = '$((JOB_COMPLETION_INDEX + 1))';
  const command =
    `${options.weaveCommand} mine --repos ${sh(options.reposFile)} --out ${sh(shardOut(options, ''))}"${shard}"` +
    ` --cache ${sh(options.cacheDir)} --name ${sh(options.name)} --shard "${shard}/${options.shards}"` +
    extraArgs(options);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'weave-mine', labels: { app: 'weave-mine' } },
    spec: {
      completionMode: 'Indexed',
      completions: options.shards,
      parallelism: options.shards,
      backoffLimitPerIndex: 1,
      template: {
        metadata: { labels: { app: 'weave-mine' } },
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'mine',
              image: options.image ?? 'weave-mine:latest',
              command: ['sh', '-c', command],
              volumeMounts: [{ name: 'work', mountPath: path.dirname(options.outDir) }],
            },
          ],
          volumes: [{ name: 'work', persistentVolumeClaim: { claimName: 'weave-mine' } }],
        },
      },
    },
  };
}

/** The extra mine arguments, quoted for sh, each after a space ('' when none). */
function extraArgs(options: EmitOptions): string {
  return (options.mineArgs ?? []).map((arg) => ` ${sh(arg)}`).join('');
}

function sh(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
