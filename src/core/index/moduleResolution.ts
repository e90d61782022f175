// What every language's import resolver shares: the answer for one specifier (workspace files, something
// outside the workspace, or untraceable with the reason) and the workspace's file list, indexed by folder, that
// resolvers look files up in (no disk access: the list is the workspace as git sees it).
import path from 'node:path/posix';

export type ModuleResolution =
  /**
   * `conditional`: files only some loaders take (package.json exports' "import" target of a folder a file may
   * `require`), with the entry, so that an explanation says "may load" rather than claim an import chain.
   */
  | { kind: 'files'; files: string[]; conditional?: Record<string, string> }
  | { kind: 'external' }
  | { kind: 'untraceable'; reason: string };

/** The workspace's files (workspace-relative, '/' separators) as the resolvers look them up. */
export interface WorkspaceFileSet {
  files: ReadonlySet<string>;
  has(file: string): boolean;
  /** The files directly in `dir` ('.' for the root), in listing order. */
  inDir(dir: string): readonly string[];
  /** Every folder that holds a file, with its files. */
  folders(): Iterable<[string, readonly string[]]>;
}

export function workspaceFileSet(files: Iterable<string>): WorkspaceFileSet {
  const fileSet = new Set(files);
  const byDir = new Map<string, string[]>();
  for (const f of fileSet) {
    const dir = path.dirname(f);
    const list = byDir.get(dir);
    if (list) list.push(f);
    else byDir.set(dir, [f]);
  }
  return {
    files: fileSet,
    has: (f) => fileSet.has(f),
    inDir: (dir) => byDir.get(dir) ?? [],
    folders: () => byDir.entries(),
  };
}

/** A resolver's answer for what it found: the files, or "outside the workspace" when there are none. */
export function filesOrExternal(files: string[]): ModuleResolution {
  return files.length > 0 ? { kind: 'files', files } : { kind: 'external' };
}

/** Workspace-relative join with '' for the root ('test' + '..' → ''). */
export function workspaceJoin(dir: string, rel: string): string {
  const joined = path.normalize(path.join(dir === '' ? '.' : dir, rel));
  const trimmed = joined.replace(/\/$/, '');
  return trimmed === '.' ? '' : trimmed.replace(/^\.\//, '');
}

/** A file's folder, '' for the root. */
export function workspaceDirname(file: string): string {
  const dir = path.dirname(file);
  return dir === '.' ? '' : dir;
}
