// Confines every path the agent names to its worktree: no absolute paths, no `..`, no symlink that leads
// out (checked with realpath on the deepest existing ancestor), and a read-only set (spec test files,
// .weave/, .git/, and the files the specs load: the protected set's loaded part, sandbox/protectionScope.ts) that
// the agent may read but never write.
import fs from 'node:fs/promises';
import path from 'node:path';
import { isSupportFileName } from '../sandbox/protectedFiles';

export class PathRefusal extends Error {
  constructor(
    message: string,
    /** 'outside': escapes the worktree; 'protected': a read-only file. */
    readonly reason: 'outside' | 'protected' | 'invalid',
    /** The normalised workspace-relative path, when the path was inside the workspace. */
    readonly relative?: string,
  ) {
    super(message);
    this.name = 'PathRefusal';
  }
}

export interface ConfinedPath {
  /** Absolute path inside the worktree. */
  absolute: string;
  /** Workspace-relative, '/'-separated, '.' for the root. */
  relative: string;
  /** `absolute` with every symbolic link resolved (inside the worktree): what the tools open, no-follow. */
  real: string;
}

export class WorkspaceJail {
  private constructor(
    readonly root: string,
    private readonly realRoot: string,
    private readonly protectedFiles: Set<string>,
    /** The files the specs load (workspace-relative → why), as the run's tamper guard has them now. */
    private readonly loadedFiles: () => ReadonlyMap<string, string>,
  ) {}

  static async create(
    root: string,
    protectedFiles: Iterable<string>,
    loadedFiles: () => ReadonlyMap<string, string> = () => new Map(),
  ): Promise<WorkspaceJail> {
    const realRoot = await fs.realpath(root);
    const normalised = new Set<string>();
    for (const f of protectedFiles) {
      const n = lexicalNormalise(f);
      if (n !== undefined) normalised.add(n);
    }
    return new WorkspaceJail(root, realRoot, normalised, loadedFiles);
  }

  /** Resolves a path the model wrote; throws PathRefusal with a message meant for the model. */
  async resolve(requested: unknown): Promise<ConfinedPath> {
    if (typeof requested !== 'string' || requested.trim() === '') {
      throw new PathRefusal(
        'path must be a non-empty workspace-relative path such as "src/client.js"',
        'invalid',
      );
    }
    const text = requested.trim().replace(/\\/g, '/');
    if (path.posix.isAbsolute(text) || /^[A-Za-z]:/.test(text) || text.startsWith('~')) {
      throw new PathRefusal(
        `'${requested}' is absolute: use a path relative to the workspace root`,
        'outside',
      );
    }
    if (text.split('/').includes('..')) {
      throw new PathRefusal(
        `'${requested}' contains '..': only paths inside the workspace are allowed`,
        'outside',
      );
    }
    const relative = lexicalNormalise(text) ?? '.';
    const absolute = relative === '.' ? this.root : path.join(this.root, ...relative.split('/'));
    const real = await realpathOfDeepestExisting(absolute);
    if (real !== this.realRoot && !real.startsWith(this.realRoot + path.sep)) {
      throw new PathRefusal(
        `'${requested}' leads outside the workspace (through a symbolic link)`,
        'outside',
      );
    }
    return { absolute, relative, real };
  }

  /** Resolves a path the agent wants to change; read-only files are refused. */
  async resolveForWrite(requested: unknown): Promise<ConfinedPath> {
    const resolved = await this.resolve(requested);
    const reason = await this.protectionOf(resolved);
    if (reason)
      throw new PathRefusal(`'${resolved.relative}' is read-only: ${reason}`, 'protected', resolved.relative);
    return resolved;
  }

  isProtectedRelative(relative: string): string | undefined {
    const first = relative.split('/')[0];
    if (first === '.weave') return 'Weave’s own state and the spec file may not be edited';
    if (first === '.git') return 'the repository’s metadata may not be edited';
    if (this.protectedFiles.has(relative))
      return 'it is a spec’s test file (the constraint itself), change the code under test instead';
    if (isSupportFileName(path.posix.basename(relative)))
      return 'it is a test-support file (conftest.py, runner configuration) that decides how the spec tests run';
    const loaded = this.loadedFiles().get(relative);
    if (loaded !== undefined)
      return `a spec's test loads it, so it decides how the spec runs (${loaded}); change the code under test instead`;
    return undefined;
  }

  private async protectionOf(resolved: ConfinedPath): Promise<string | undefined> {
    const direct = this.isProtectedRelative(resolved.relative);
    if (direct) return direct;
    // A symlink inside the workspace that points at a protected file is the same file.
    const real = await realpathOfDeepestExisting(resolved.absolute);
    const realRelative = path.relative(this.realRoot, real).split(path.sep).join('/');
    return realRelative ? this.isProtectedRelative(realRelative) : undefined;
  }
}

function lexicalNormalise(p: string): string | undefined {
  const n = path.posix
    .normalize(p.replace(/\\/g, '/'))
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
  if (n === '' || n === '.') return '.';
  if (n.startsWith('../') || n === '..' || path.posix.isAbsolute(n)) return undefined;
  return n;
}

async function realpathOfDeepestExisting(absolute: string): Promise<string> {
  let current = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await fs.realpath(current);
      return rest.length === 0 ? real : path.join(real, ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}
