// Lists a workspace's files the way the user's git sees them. In a git work tree that does not ignore the
// workspace itself: `git ls-files -co --exclude-standard` (tracked + untracked-not-ignored; git applies every
// .gitignore, .git/info/exclude and the global excludes file). Otherwise (no git, or a workspace that its
// enclosing repository ignores): a directory walk that applies the .gitignore files it meets (see
// gitignore.ts), never follows a symlink back into a folder it is already in, and reports such loops.
// node_modules, .git and .weave are never listed, nor is a git submodule (a gitlink, mode 160000): it is a
// folder of another repository, not a file; the listing names it apart, in `submodules`.
import fs from 'node:fs';
import path from 'node:path';
import { git, runGit } from '../git/git';
import { GitignoreRules } from './gitignore';
import type { SkippedFile } from './types';

const alwaysExcluded = new Set(['node_modules', '.git', '.weave']);
/** The mode git records a submodule's commit with. */
const GITLINK_MODE = '160000';

export interface WorkspaceListing {
  /** Workspace-relative paths with '/' separators, sorted. */
  files: string[];
  /** Git submodules (gitlink entries), workspace-relative: not files, and Weave does not look inside them. */
  submodules: string[];
  skipped: SkippedFile[];
  source: 'git' | 'walk';
}

export async function listWorkspaceFiles(workspaceDir: string): Promise<WorkspaceListing> {
  const fromGit = await gitListing(workspaceDir);
  const listing = fromGit ?? walkListing(workspaceDir);
  listing.files = listing.files
    .filter((f) => !f.split('/').some((segment) => alwaysExcluded.has(segment)))
    .sort();
  return listing;
}

async function gitListing(workspaceDir: string): Promise<WorkspaceListing | undefined> {
  try {
    const inside = await git(['rev-parse', '--is-inside-work-tree'], workspaceDir);
    if (inside.trim() !== 'true') return undefined;
  } catch {
    return undefined;
  }
  // `check-ignore .` exits 0 when the workspace folder itself is ignored (ls-files would list nothing), 1 when
  // it is not; anything else is an error. Only a clear 1 lets git list the files; otherwise walk.
  try {
    const { exitCode } = await runGit(['check-ignore', '-q', '--no-index', '.'], workspaceDir, {
      allowExitCodes: [1],
    });
    if (exitCode !== 1) return undefined;
  } catch {
    return undefined;
  }
  // `--stage` prefixes tracked entries with their mode (`160000 <sha> 0\t<path>` for a gitlink); untracked
  // files come bare.
  const stdout = await git(
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--stage'],
    workspaceDir,
  );
  const files = new Set<string>();
  const submodules = new Set<string>();
  for (const entry of stdout.split('\0')) {
    if (entry.length === 0) continue;
    const staged = /^(\d{6}) [0-9a-f]{40,64} \d\t/.exec(entry);
    if (staged === null) files.add(entry);
    else if (staged[1] === GITLINK_MODE) submodules.add(entry.slice(staged[0].length));
    else files.add(entry.slice(staged[0].length));
  }
  return { files: [...files], submodules: [...submodules].sort(), skipped: [], source: 'git' };
}

function walkListing(workspaceDir: string): WorkspaceListing {
  const files: string[] = [];
  const skipped: SkippedFile[] = [];
  const root = fs.realpathSync(workspaceDir);

  const walk = (dir: string, rel: string, realChain: string[], rules: GitignoreRules): void => {
    const here = rules.withFile(path.join(dir, '.gitignore'), rel);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      if (rel !== '') skipped.push({ path: rel, reason: 'unreadable' });
      return;
    }
    for (const entry of entries) {
      if (alwaysExcluded.has(entry.name)) continue;
      const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const absPath = path.join(dir, entry.name);
      let isDir = entry.isDirectory();
      let real = absPath;
      if (entry.isSymbolicLink()) {
        try {
          isDir = fs.statSync(absPath).isDirectory();
          real = fs.realpathSync(absPath);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ELOOP') skipped.push({ path: relPath, reason: 'symlink-loop' });
          continue; // a dangling link is not a file
        }
      }
      if (here.ignores(relPath, isDir)) continue;
      if (!isDir) {
        files.push(relPath);
        continue;
      }
      // A folder that is (a link to) one of its own ancestors would be walked forever.
      if (realChain.includes(real)) {
        skipped.push({ path: relPath, reason: 'symlink-loop' });
        continue;
      }
      walk(absPath, relPath, [...realChain, real], here);
    }
  };
  walk(root, '', [root], new GitignoreRules());
  return { files, submodules: [], skipped, source: 'walk' };
}
