// Task folders as `weave eval` and `weave bench` find them: a folder holding task.json (and the other task
// files), or a folder of such folders. What cannot be read becomes a problem with the folder's name, never a
// stop; a task missing base.bundle or eval.sh is kept, to be reported as an error entry.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { HARBOR_FILES } from '../harbor/harborTask';
import type { InputProblem } from '../predictions';
import { TASK_FILES, taskSchema, type Task } from '../taskFormat';

export interface LoadedTask {
  dir: string;
  task: Task;
  /** Task files that are not there (the instance becomes an error entry). */
  missingFiles: string[];
}

/** A DIR is a task folder (it has task.json or other task files) or a folder of task folders. */
export async function loadTasks(dirs: string[]): Promise<{ tasks: LoadedTask[]; problems: InputProblem[] }> {
  const tasks: LoadedTask[] = [];
  const problems: InputProblem[] = [];
  for (const dir of dirs) {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => undefined);
    if (!entries) {
      problems.push({ task_dir: dir, message: `${dir}: no such folder` });
      continue;
    }
    if (looksLikeTask(entries.map((e) => e.name))) {
      await loadTask(dir, tasks, problems);
      continue;
    }
    if (await isHarborTask(dir)) {
      problems.push({ task_dir: dir, message: await harborOnlyMessage(dir) });
      continue;
    }
    let found = false;
    for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      const sub = path.join(dir, entry.name);
      const names = await fs.readdir(sub).catch(() => [] as string[]);
      if (!looksLikeTask(names)) continue;
      found = true;
      await loadTask(sub, tasks, problems);
    }
    if (!found)
      problems.push({
        task_dir: dir,
        message: `${dir}: not a task folder (no ${TASK_FILES.task}) and holds none`,
      });
  }
  return { tasks, problems };
}

/** A Harbor task folder (task.toml and tests/test.sh), which `weave eval` does not score itself. */
async function isHarborTask(dir: string): Promise<boolean> {
  const present = (file: string): Promise<boolean> =>
    fs.access(path.join(dir, file)).then(
      () => true,
      () => false,
    );
  return (await present(HARBOR_FILES.config)) && (await present(HARBOR_FILES.testScript));
}

/** What the folder is and the two ways to score it: Harbor itself, or the Weave task exported beside it. */
async function harborOnlyMessage(dir: string): Promise<string> {
  const parent = path.dirname(path.resolve(dir));
  const beside = await fs.access(path.join(parent, TASK_FILES.task)).then(
    () => true,
    () => false,
  );
  const weaveWay = beside
    ? `or score the Weave task exported beside it: weave eval --tasks ${path.relative(process.cwd(), parent) || '.'} --predictions FILE`
    : 'or export the workspace again with --format both (the default) and give weave eval the folder holding task.json';
  return (
    `${dir}: a Harbor task (${HARBOR_FILES.config}, ${HARBOR_FILES.testScript}), not a Weave task folder ` +
    `(no ${TASK_FILES.task}). Score it with Harbor: harbor run -p ${dir} -a <agent> -m <model>; ${weaveWay}`
  );
}

function looksLikeTask(names: string[]): boolean {
  const files = new Set<string>(Object.values(TASK_FILES));
  return names.some((n) => files.has(n));
}

async function loadTask(dir: string, tasks: LoadedTask[], problems: InputProblem[]): Promise<void> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, TASK_FILES.task), 'utf8');
  } catch {
    problems.push({
      task_dir: dir,
      message: `${dir}: missing ${TASK_FILES.task}, so its instance cannot be scored`,
    });
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    problems.push({
      task_dir: dir,
      message: `${path.join(dir, TASK_FILES.task)}: not valid JSON (${(error as Error).message})`,
    });
    return;
  }
  const parsed = taskSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    problems.push({
      task_dir: dir,
      message: `${path.join(dir, TASK_FILES.task)}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
    });
    return;
  }
  const required = [TASK_FILES.baseBundle, TASK_FILES.evalScript];
  const missingFiles: string[] = [];
  for (const file of required) {
    try {
      await fs.access(path.join(dir, file));
    } catch {
      missingFiles.push(file);
    }
  }
  tasks.push({ dir: path.resolve(dir), task: parsed.data, missingFiles });
}
