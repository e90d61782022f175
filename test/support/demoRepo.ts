// Test fixtures for the bench: the demo workspace (examples/) copied into a fresh temp git repository, and
// helpers to read everything an export wrote. Nothing here touches /work/main's own repository.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export { REPO_ROOT, EXAMPLES, CLI } from './paths';
import { EXAMPLES } from './paths';

export function readPatch(name: string): string {
  return fs.readFileSync(path.join(EXAMPLES, 'patches', name), 'utf8');
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
}

export interface DemoRepo {
  root: string;
  /** The workspace folder (root, or root/<subdir>). */
  workspace: string;
  cleanup(): void;
}

/** examples/ committed in a temp repo (optionally in a subfolder), with an identity for commits. */
export function makeDemoRepo(options: { subdir?: string } = {}): DemoRepo {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-test-'));
  const workspace = options.subdir === undefined ? root : path.join(root, options.subdir);
  fs.cpSync(EXAMPLES, workspace, {
    recursive: true,
    filter: (src) =>
      !src.includes(`${path.sep}node_modules`) && !src.includes(`${path.sep}.weave${path.sep}runs`),
  });
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Test');
  git(root, 'config', 'user.email', 'test@example.invalid');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'demo');
  return { root, workspace, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

export function applyPatch(dir: string, patch: string): void {
  execFileSync('git', ['apply', '-'], { cwd: dir, input: patch });
}

/** Every file under `dir` (including .git) with a content hash: equal maps = a byte-identical tree. */
export function treeFingerprint(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full);
    if (entry.isSymbolicLink()) out.set(rel, `link:${fs.readlinkSync(full)}`);
    else if (entry.isFile()) {
      const stat = fs.statSync(full);
      out.set(
        rel,
        `${stat.mode.toString(8)}:${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`,
      );
    }
  }
  return out;
}

/** Every exported file's text (recursively), plus the files of a clone of its base.bundle (prefixed "base:"). */
export function exportedTexts(taskDir: string): Map<string, string> {
  const texts = new Map<string, string>();
  // Every file, the Harbor task's (harbor/…, its environment/repo included) too.
  for (const entry of fs.readdirSync(taskDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === 'base.bundle') continue;
    const full = path.join(entry.parentPath, entry.name);
    texts.set(path.relative(taskDir, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
  }
  const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-clone-'));
  try {
    git(clone, 'clone', '-q', path.join(taskDir, 'base.bundle'), 'repo');
    const repo = path.join(clone, 'repo');
    for (const file of git(repo, 'ls-files', '-z').split('\0').filter(Boolean)) {
      texts.set(`base:${file}`, fs.readFileSync(path.join(repo, file), 'utf8'));
    }
  } finally {
    fs.rmSync(clone, { recursive: true, force: true });
  }
  return texts;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
