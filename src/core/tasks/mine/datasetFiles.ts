// The dataset, made from OUT/repos/* alone (so a single run, a resumed run and merged shards give the same bytes):
//   tasks/<id>/        the Harbor tasks (`harbor run -p OUT/tasks`)
//   swe/<id>/          the same tasks in SWE-bench's shape (eval.sh, base.bundle: `weave eval`)
//   dataset.toml       Harbor's dataset manifest: [dataset], [[tasks]] (name, digest), [[files]] (metric.py)
//   metric.py          Harbor's metric hook: `metric.py -i rewards.jsonl -o metric.json`
//   swe.jsonl          one SWE-bench line per task (its 12 fields + Weave's specs and interactions)
//   data/train.jsonl   the same tasks with one fixed schema per row, for `datasets.load_dataset("json", …)`
//   card.md            the funnel, tasks and specs per repository, specs per task by kind, interactions per task
// Nothing in them depends on when or where the run happened: times go to OUT/timings.json, outside the dataset.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { taskSchema, toDatasetLine, TASK_FILES, type Task } from '../taskFormat';
import { renderCard } from './datasetCard';
import { METRIC_SCRIPT } from './metricScript';
import {
  REPOSITORIES_DIR,
  REPOSITORY_RESULT,
  REPOSITORY_LOG,
  type MinedTask,
  type RepositoryResult,
  type RunLog,
  type StageTimes,
} from './mineResult';

/** The dataset's entries in OUT (what "byte-identical" covers). */
export const DATASET_ENTRIES = ['tasks', 'swe', 'dataset.toml', 'metric.py', 'swe.jsonl', 'data', 'card.md'];
export const TIMINGS_FILE = 'timings.json';

export interface DatasetSummary {
  repositories: RepositoryResult[];
  tasks: number;
}

/** Reads every finished repository under OUT/repos, sorted by key. */
export async function readRepositoryResults(outDir: string): Promise<RepositoryResult[]> {
  const reposDir = path.join(outDir, REPOSITORIES_DIR);
  const names = (await fs.readdir(reposDir).catch(() => [] as string[]))
    .filter((n) => !n.startsWith('.'))
    .sort();
  const results: RepositoryResult[] = [];
  for (const name of names) {
    const file = path.join(reposDir, name, REPOSITORY_RESULT);
    const text = await fs.readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined) results.push(JSON.parse(text) as RepositoryResult);
  }
  return results;
}

/** (Re)writes the dataset in OUT from OUT/repos; each entry is replaced by a rename, never left half written. */
export async function writeDataset(outDir: string, name: string): Promise<DatasetSummary> {
  const repositories = await readRepositoryResults(outDir);
  const staging = path.join(outDir, `.dataset.partial-${process.pid}`);
  await fs.rm(staging, { recursive: true, force: true });
  for (const folder of ['data', 'tasks', 'swe'])
    await fs.mkdir(path.join(staging, folder), { recursive: true });
  try {
    const tasks: Array<{ task: Task; digest: string }> = [];
    for (const repository of repositories) {
      for (const mined of repository.tasks) {
        const from = path.join(outDir, REPOSITORIES_DIR, repository.key);
        const harbor = path.join(staging, 'tasks', mined.instance_id);
        await fs.cp(path.join(from, 'harbor', mined.instance_id), harbor, { recursive: true });
        await fs.cp(path.join(from, 'swe', mined.instance_id), path.join(staging, 'swe', mined.instance_id), {
          recursive: true,
        });
        const task = taskSchema.parse(
          JSON.parse(await fs.readFile(path.join(from, 'swe', mined.instance_id, TASK_FILES.task), 'utf8')),
        );
        tasks.push({ task, digest: await folderDigest(harbor) });
      }
    }
    tasks.sort((a, b) => a.task.instance_id.localeCompare(b.task.instance_id));
    // Observed interactions exist only in a dataset mined with a model; then every row carries the field.
    const withModel = repositories.some((r) => r.tokens !== undefined);
    const mined = new Map<string, MinedTask>(
      repositories.flatMap((r) => r.tasks.map((t): [string, MinedTask] => [t.instance_id, t])),
    );
    const observedOf = (task: Task): Array<[string, string]> =>
      mined.get(task.instance_id)?.observed_interactions ?? [];
    await fs.writeFile(path.join(staging, 'metric.py'), METRIC_SCRIPT, { mode: 0o755 });
    await fs.writeFile(
      path.join(staging, 'dataset.toml'),
      renderDatasetToml(name, tasks, sha256(METRIC_SCRIPT)),
    );
    await fs.writeFile(
      path.join(staging, 'swe.jsonl'),
      tasks
        .map(({ task }) => {
          const line = toDatasetLine(task, `swe/${task.instance_id}`);
          if (!withModel) return `${line}\n`;
          const record = JSON.parse(line) as Record<string, unknown>;
          return `${JSON.stringify({ ...record, observed_interactions: observedOf(task) })}\n`;
        })
        .join(''),
    );
    await fs.writeFile(
      path.join(staging, 'data', 'train.jsonl'),
      tasks
        .map(({ task }) => {
          const row = trainRow(task);
          if (withModel) row.observed_interactions = observedOf(task).map(([a, b]) => ({ a, b }));
          return `${JSON.stringify(row)}\n`;
        })
        .join(''),
    );
    await fs.writeFile(
      path.join(staging, 'card.md'),
      renderCard(
        name,
        repositories,
        tasks.map((t) => t.task),
      ),
    );
    for (const entry of DATASET_ENTRIES) {
      const target = path.join(outDir, entry);
      await fs.rm(target, { recursive: true, force: true });
      await fs.rename(path.join(staging, entry), target);
    }
    await writeTimings(outDir, repositories);
    return { repositories, tasks: tasks.length };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/** Harbor's dataset manifest (harbor.models.dataset.manifest.DatasetManifest): tasks and files pinned by digest. */
export function renderDatasetToml(
  name: string,
  tasks: Array<{ task: Pick<Task, 'instance_id'>; digest: string }>,
  metricDigest: string,
): string {
  const org = name.split('/')[0] as string;
  const contentHash = harborContentHash(
    tasks.map((t) => t.digest),
    [{ path: 'metric.py', digest: metricDigest }],
  );
  const lines = [
    '# Written by weave mine: Harbor tasks mined from repositories, each verified (gold passes, no change fails).',
    '# Task digests are sha256 over the task folder (each file: its path, a NUL, its bytes, sorted by path).',
    `# Dataset content hash, as Harbor computes it from the digests below: sha256:${contentHash}`,
    'schema_version = "1.0"',
    '',
    '[dataset]',
    `name = ${tomlString(name)}`,
    `description = ${tomlString(`${tasks.length} interacting-spec tasks mined by weave mine`)}`,
    'keywords = ["weave", "constraints", "swe"]',
    '',
  ];
  for (const { task, digest } of tasks)
    lines.push(
      '[[tasks]]',
      `name = ${tomlString(`${org}/${task.instance_id}`)}`,
      `digest = "sha256:${digest}"`,
      '',
    );
  lines.push('[[files]]', 'path = "metric.py"', `digest = "sha256:${metricDigest}"`, '');
  return lines.join('\n');
}

/**
 * The dataset's content hash exactly as Harbor computes it from a manifest: DatasetManifest.compute_content_hash
 * in Harbor's harbor/models/dataset/manifest.py (laude-institute/harbor): sha256 over the sorted task digests
 * (hex, no "sha256:") joined by ",", then ";" and the sorted "path:hex" of the files joined by "," when there are
 * files. Harbor's own algorithm for a task's digest (its package manifest) was not available to follow here, so
 * the task digests stay ours (folderDigest); this hash is Harbor's function of them.
 */
export function harborContentHash(
  taskDigests: readonly string[],
  files: ReadonlyArray<{ path: string; digest: string }>,
): string {
  const hex = (digest: string): string => digest.replace(/^sha256:/, '');
  // Python's sorted() on str compares code points, as does a plain comparison of these ASCII strings.
  const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  let base = taskDigests.map(hex).sort(byCodePoint).join(',');
  if (files.length > 0)
    base += `;${files
      .map((f) => `${f.path}:${hex(f.digest)}`)
      .sort(byCodePoint)
      .join(',')}`;
  return sha256(base);
}

/** One row, the same fields and types in every row, so the `datasets` json loader infers one schema. */
function trainRow(task: Task): Record<string, unknown> {
  return {
    instance_id: task.instance_id,
    repo: task.repo,
    base_commit: task.base_commit,
    patch: task.patch,
    test_patch: task.test_patch,
    problem_statement: task.problem_statement,
    hints_text: task.hints_text,
    created_at: task.created_at,
    version: task.version,
    FAIL_TO_PASS: task.FAIL_TO_PASS,
    PASS_TO_PASS: task.PASS_TO_PASS,
    environment_setup_commit: task.environment_setup_commit,
    specs: task.specs.map((s) => ({
      id: s.id,
      title: s.title,
      kind: s.kind,
      statement: s.statement,
      command: s.test.command,
      files: s.test.files,
      anchors: s.anchors,
      depends_on: s.dependsOn,
      interacts_with: s.interactsWith,
      timeout_seconds: s.test.timeoutSeconds,
    })),
    interactions: task.declared_interactions.map(([a, b]) => ({ a, b })),
    environment_setup: task.environment_setup,
    harbor_task: `tasks/${task.instance_id}`,
  };
}

async function writeTimings(outDir: string, repositories: RepositoryResult[]): Promise<void> {
  const perRepository: Record<string, StageTimes> = {};
  for (const { key } of repositories) {
    const text = await fs
      .readFile(path.join(outDir, REPOSITORIES_DIR, key, REPOSITORY_LOG), 'utf8')
      .catch(() => undefined);
    if (text !== undefined) perRepository[key] = (JSON.parse(text) as RunLog).milliseconds;
  }
  await fs.writeFile(
    path.join(outDir, TIMINGS_FILE),
    `${JSON.stringify({ milliseconds: perRepository }, null, 2)}\n`,
  );
}

/** sha256 over a folder: every file's relative path, a NUL, its bytes, in path order. */
export async function folderDigest(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const files = (await fs.readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
  for (const file of files) hash.update(`${file}\0`).update(await fs.readFile(path.join(dir, file)));
  return hash.digest('hex');
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function tomlString(text: string): string {
  return JSON.stringify(text);
}
