// A task folder (base.bundle and eval.sh) made from a repository's HEAD, for tests that run runTaskPatch
// directly rather than through a whole export; and task folders per prediction for tests that run `weave eval`.
import fsSync, { promises as fs } from 'node:fs';
import path from 'node:path';
import { renderEvalScript } from '../../src/core/tasks/run/evalScript';
import { TASK_FILES, type TaskSpec } from '../../src/core/tasks/taskFormat';
import { gitIn } from './gitRepo';

/** A spec whose test is one Node command over one test file. */
export function nodeTaskSpec(
  id: string,
  kind: TaskSpec['kind'],
  statement: string,
  command: string,
  file: string,
): TaskSpec {
  return {
    id,
    title: id,
    kind,
    statement,
    test: { command, files: [file], cwd: '.', env: {}, timeoutSeconds: 30 },
    anchors: [],
    dependsOn: [],
    interactsWith: [],
  };
}

/** `<repo>/.task`, with HEAD as the base (its spec test files protected) and no test.patch. */
export async function taskFolderOf(
  repo: string,
  instanceId: string,
  specs: TaskSpec[],
  setupCommands: string[] = [],
): Promise<{ taskDir: string; baseCommit: string }> {
  const baseCommit = gitIn(repo, 'rev-parse', 'HEAD').trim();
  const taskDir = path.join(repo, '.task');
  await fs.mkdir(taskDir);
  gitIn(repo, 'bundle', 'create', '-q', path.join(taskDir, TASK_FILES.baseBundle), 'HEAD', 'main');
  await fs.writeFile(
    path.join(taskDir, TASK_FILES.evalScript),
    renderEvalScript({
      instanceId,
      baseCommit,
      testPatch: '',
      protectedInBase: specs.flatMap((s) => s.test.files),
      protectedNotInBase: [],
      setupCommands,
      specs,
    }),
  );
  return { taskDir, baseCommit };
}

/**
 * One task folder per prediction under `scratch/tasks/<id>`: a copy of the exported task `scratch/<task>` renamed to
 * the prediction's id (so one exported task can be scored against many patches), and the predictions JSONL file.
 */
export function tasksPerPrediction(
  scratch: string,
  predictions: ReadonlyArray<{ id: string; task: string; patch: string }>,
  model: string,
): { tasksDir: string; predictionsFile: string } {
  const tasksDir = path.join(scratch, 'tasks');
  const lines: string[] = [];
  for (const p of predictions) {
    const dir = path.join(tasksDir, p.id);
    fsSync.cpSync(path.join(scratch, p.task), dir, { recursive: true });
    const taskFile = path.join(dir, 'task.json');
    const task = JSON.parse(fsSync.readFileSync(taskFile, 'utf8')) as Record<string, unknown>;
    fsSync.writeFileSync(taskFile, JSON.stringify({ ...task, instance_id: p.id }));
    lines.push(JSON.stringify({ instance_id: p.id, model_name_or_path: model, model_patch: p.patch }));
  }
  const predictionsFile = path.join(scratch, 'predictions.jsonl');
  fsSync.writeFileSync(predictionsFile, `${lines.join('\n')}\n`);
  return { tasksDir, predictionsFile };
}
