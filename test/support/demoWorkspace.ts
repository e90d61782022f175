// Test fixtures for the agent: a copy of the demo workspace (examples/) in a fresh temp git repository, a
// fingerprint of a tree (to prove the user's files did not change), and the checks that nothing was left
// behind (worktrees, child processes).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Each test file gets its own temp folder, so "no scratch checkout left" only sees this file's runs even when
// other test files run at the same time.
const privateTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-agent-tests-'));
process.env.TMPDIR = privateTmp;
process.on('exit', () => fs.rmSync(privateTmp, { recursive: true, force: true }));

export { REPO_ROOT } from './paths';
import { REPO_ROOT } from './paths';
export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

export interface DemoRepo {
  /** The repository root. */
  root: string;
  /** The demo workspace (the repo root, or a subfolder of it). */
  workspace: string;
  /** False for a plain folder (no repository). */
  git: boolean;
  dispose(): void;
}

function gitIn(cwd: string, args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Weave Test', '-c', 'user.email=test@weave.invalid', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Copies examples/ (without .weave/runs) into a new git repo, committed; `subfolder` nests it one level. */
export function createDemoRepo(options: { subfolder?: string; git?: boolean } = {}): DemoRepo {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'weave-agent-test-')));
  const workspace = options.subfolder ? path.join(root, options.subfolder) : root;
  fs.cpSync(EXAMPLES_DIR, workspace, {
    recursive: true,
    filter: (src) => !path.relative(EXAMPLES_DIR, src).startsWith(path.join('.weave', 'runs')),
  });
  if (options.git !== false) {
    gitIn(root, ['init', '-q', '-b', 'main']);
    gitIn(root, ['add', '-A']);
    gitIn(root, ['commit', '-q', '-m', 'demo']);
  }
  return {
    root,
    workspace,
    git: options.git !== false,
    dispose: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

export function git(cwd: string, args: string[]): string {
  return gitIn(cwd, args);
}

/** sha256 over every file's path and bytes under `dir` (skipping .git and Weave's run state). */
export function fingerprint(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string): void => {
    for (const entry of fs
      .readdirSync(d, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(d, entry.name);
      const rel = path.relative(dir, full);
      if (entry.name === '.git' || rel.endsWith(path.join('.weave', 'runs'))) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isSymbolicLink()) hash.update(`${rel}\0->${fs.readlinkSync(full)}\0`);
      else {
        hash.update(rel + '\0');
        hash.update(fs.readFileSync(full));
        hash.update('\0');
      }
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/** Worktrees git knows about besides the main one. */
export function extraWorktrees(root: string): string[] {
  return git(root, ['worktree', 'list', '--porcelain'])
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .slice(1);
}

/** Scratch copies (core/workspace: worktree and standalone kinds) left in the temp folder. */
export function leftoverCheckouts(): string[] {
  return fs
    .readdirSync(os.tmpdir())
    .filter((n) => n.startsWith('weave-checkout-') || n.startsWith('weave-sandbox-'));
}

/** Live child processes of this test process (spec tests must all have exited). */
export function childProcesses(): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may contain spaces): state, ppid, ...
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid && fields[0] !== 'Z') out.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}
