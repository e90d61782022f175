// Temp workspaces and git repositories for the intel tests (each test makes its own and removes it).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export { REPO_ROOT as repoRoot } from './paths';
import { REPO_ROOT } from './paths';
export const examplesDir = path.join(REPO_ROOT, 'examples');
export const slugkitFixture = path.join(REPO_ROOT, 'test/fixtures/intel/slugkit');
/** A single-module npm library whose tests load it by `require('..')`, `require('..')` and its own name. */
export const tinylibFixture = path.join(REPO_ROOT, 'test/fixtures/intel/tinylib');
/** A src-layout Python package whose __init__.py re-exports part of it; tox.ini; `from . import X`. */
export const pyslimFixture = path.join(REPO_ROOT, 'test/fixtures/intel/pyslim');

export function tempDir(prefix = 'weave-intel-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Writes files (relative path → content) under dir. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
    },
  });
}

/** git init + commit everything; returns the commit. */
export function initRepo(dir: string): string {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  return git(dir, 'rev-parse', 'HEAD').trim();
}

/** Copies a folder (without .weave/runs and .weave/cache) into a fresh temp dir. */
export function copyWorkspace(source: string): string {
  const from = fs.realpathSync(source);
  const dir = tempDir();
  fs.cpSync(from, dir, {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(from, src).split(path.sep);
      return (
        !(rel[0] === '.weave' && (rel[1] === 'runs' || rel[1] === 'cache')) && !rel.includes('__pycache__')
      );
    },
  });
  return dir;
}

/** sha256 of every file under dir (the .git folder included, except its object store), for "untouched" checks. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, entry.name);
      const rel = path.relative(dir, abs);
      // Loose objects may be added (the snapshot of the working tree is written as git objects); worktree
      // bookkeeping is pruned again. Everything the user sees — files, index, refs, HEAD — must be identical.
      if (rel === '.git/objects' || rel === '.git/worktrees' || rel === '.git/logs') continue;
      if (entry.isDirectory()) walk(abs);
      else if (entry.isSymbolicLink()) out.set(rel, `link:${fs.readlinkSync(abs)}`);
      else out.set(rel, createHash('sha256').update(fs.readFileSync(abs)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}
