// A task folder (base.bundle and eval.sh) made from a repository's HEAD, for tests that run runTaskPatch
// directly rather than through a whole export.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { renderEvalScript } from '../../src/core/tasks/evalScript';
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
