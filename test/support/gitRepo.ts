// Test helper: a throw-away git repository in the temp folder (never the project's own repository).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Weave Test',
      GIT_AUTHOR_EMAIL: 'test@weave.invalid',
      GIT_COMMITTER_NAME: 'Weave Test',
      GIT_COMMITTER_EMAIL: 'test@weave.invalid',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  });
}

/** Creates a repository with `files` (relative path → content) committed on branch main. */
export async function makeRepo(files: Record<string, string>): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'weave-repo-')));
  gitIn(dir, 'init', '-q', '-b', 'main');
  await writeFiles(dir, files);
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), content);
  }
}

/** Every file under `dir` (except .git) with its bytes, for byte-identical comparisons. */
export async function snapshot(dir: string): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full);
    if (rel === '.git' || rel.startsWith(`.git${path.sep}`)) continue;
    if (entry.isFile()) result.set(rel, (await fs.readFile(full)).toString('base64'));
    else if (entry.isSymbolicLink()) result.set(rel, `-> ${await fs.readlink(full)}`);
    else if (entry.isDirectory()) result.set(rel, 'dir');
  }
  return result;
}
