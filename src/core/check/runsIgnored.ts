// Run history (.weave/runs/) is local state that git must never show as a change. A file Weave adds to the
// tree for that would itself be an untracked change (the first `weave check` made a clean tree dirty), so
// inside a git repository the rule goes to the repository's own, never committed, exclude file; only
// `weave init`, which writes files on purpose, writes .weave/.gitignore.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { git, gitRoot, runGit } from '../git/git';

const RUNS_LINE = 'runs/';

/**
 * Makes sure git ignores `<workspace>/.weave/runs/`: nothing when .weave/.gitignore exists or a rule already
 * ignores it; otherwise a line in `.git/info/exclude` (the common one, shared by linked worktrees), or, outside
 * git, .weave/.gitignore (nothing is dirtied there, and a later `git init` finds runs ignored).
 */
export async function ensureRunsIgnored(workspaceDir: string): Promise<void> {
  const weaveIgnore = path.join(workspaceDir, '.weave', '.gitignore');
  if (await exists(weaveIgnore)) return;
  const root = await gitRoot(workspaceDir);
  if (root === null) {
    await fs.mkdir(path.dirname(weaveIgnore), { recursive: true });
    try {
      await fs.writeFile(weaveIgnore, `# Written by Weave: run history is local state.\n${RUNS_LINE}\n`, {
        flag: 'wx',
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return;
  }
  const probe = '.weave/runs/weave-probe.json';
  const ignored = await runGit(['check-ignore', '-q', '--', probe], workspaceDir, { allowExitCodes: [1] });
  if (ignored.exitCode === 0) return;
  const prefix = path
    .relative(root, await fs.realpath(workspaceDir))
    .split(path.sep)
    .join('/');
  const line = `/${prefix === '' ? '' : `${prefix}/`}.weave/runs/`;
  const exclude = path.resolve(
    workspaceDir,
    (await git(['rev-parse', '--git-common-dir'], workspaceDir)).trim(),
    'info',
    'exclude',
  );
  const current = await fs.readFile(exclude, 'utf8').catch(() => '');
  if (current.split(/\r?\n/).includes(line)) return;
  await fs.mkdir(path.dirname(exclude), { recursive: true });
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  await fs.appendFile(exclude, `${separator}# Weave: run history is local state.\n${line}\n`);
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
