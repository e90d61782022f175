// The backstop of an agent's own session in the user's tree (Claude Code, Codex, Cursor through `weave guard`).
// The guard reads each tool call before it runs and refuses what it can see; a shell is a programming language,
// so some writes get past it. The backstop does not read commands at all: when a session starts, the protected set
// (the sandbox's one definition, `sessionProtectedPaths`) is recorded with its content, and the Stop hook, the git
// hooks and `weave check` compare the tree against that record, whatever path changed it.
//
// The record lives outside the work tree, in Weave's state folder keyed by the workspace's real path
// (sessionFolder.ts: core/stateDir.ts, then `sessions/<hash>/`): the agent's tools write the work tree (and
// `.weave/`, were a write to get past the guard), and a record there could be rewritten with the tests it
// describes. The guard refuses writes to the state folder as it does `.weave/`.
// A record holds each path's SHA-256 and a copy of its content (the set is small: tests, runner configs, the spec
// file), so `weave guard --restore` can put every protected file back as it was when the session started.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SpecFile } from '../../shared/specSchema';
import { manifestKeyChanges, UnreadableManifest } from './diffPolicy/manifestKeys';
import { normalisePath, policyScopeOf } from './diffPolicy/scope';
import { isKeyedManifest, protectedPaths, type TamperedFile } from './protectedFiles';
import { observedLoadsOf } from './observedLoads';
import { RECORD_VERSION, sessionDir, type SessionOrigin, type SessionRecord } from './sessionFolder';

export { readSessionRecord, sessionDir, type SessionOrigin, type SessionRecord } from './sessionFolder';

const LINK_PREFIX = 'symlink:';

/**
 * Today's protected set of a workspace, workspace-relative: what the sandbox hashes around every contained run
 * (`protectedFiles.ts`: `.weave/**` but its runs and caches, runner configurations and auto-loaded files, helpers
 * in the test folders, keyed manifests) plus every spec's test files, existing or not. The backstop asks only this
 * function, so a richer set (what the spec command loads) plugs in here.
 */
export async function sessionProtectedPaths(workspaceDir: string, specFile: SpecFile): Promise<string[]> {
  const scope = policyScopeOf(specFile.specs, specFile.defaults.cwd);
  const observed = await observedLoadsOf(workspaceDir, specFile.specs, specFile.defaults);
  const paths = new Set([...(await protectedPaths(workspaceDir, specFile, observed)), ...scope.testFiles]);
  paths.add('.weave/specs.json');
  return [...paths].sort();
}

/**
 * Records the protected set as it is now, replacing any earlier record. The copy is written beside the new
 * record first and the record renamed into place last, so a reader never sees a record whose copies are missing.
 */
export async function recordSession(
  workspaceDir: string,
  specFile: SpecFile,
  origin: SessionOrigin,
): Promise<SessionRecord> {
  const workspace = await fs.realpath(workspaceDir);
  const dir = sessionDir(workspace);
  const blobs = path.join(dir, 'content');
  await fs.mkdir(blobs, { recursive: true, mode: 0o700 });
  const files: Record<string, string | null> = {};
  for (const rel of await sessionProtectedPaths(workspace, specFile)) {
    const content = await readProtected(workspace, rel);
    if (content === undefined) {
      files[rel] = null;
      continue;
    }
    const hash = digest(content);
    files[rel] = hash;
    await fs.writeFile(path.join(blobs, hash), content, { flag: 'w', mode: 0o600 });
  }
  const record: SessionRecord = {
    version: RECORD_VERSION,
    workspace,
    agent: origin.agent,
    ...(origin.sessionId !== undefined ? { sessionId: origin.sessionId } : {}),
    startedAt: new Date().toISOString(),
    files,
  };
  const partial = path.join(dir, `record.json.${process.pid}.tmp`);
  await fs.writeFile(partial, `${JSON.stringify(record, null, 1)}\n`, { mode: 0o600 });
  await fs.rename(partial, path.join(dir, 'record.json'));
  return record;
}

/** Forgets the workspace's record (the session ended with nothing changed, or a person accepted the changes). */
export async function clearSession(workspaceDir: string): Promise<void> {
  await fs.rm(sessionDir(workspaceDir), { recursive: true, force: true });
}

/**
 * The protected files that differ from the record: changed, created or deleted since the session started. The set
 * compared is the recorded one plus today's (a runner configuration that appeared is a change), read without
 * following a link on the way; package.json and pyproject.toml count only when a test key differs.
 */
export async function sessionChanges(
  workspaceDir: string,
  record: SessionRecord,
  specFile: SpecFile | undefined,
): Promise<TamperedFile[]> {
  const workspace = await fs.realpath(workspaceDir);
  return sessionChangesIn(workspace, record, specFile, (rel) => readProtected(workspace, rel));
}

/**
 * The same comparison against another tree than the work tree: `read` gives a workspace-relative path's content in
 * the form readProtected does (a link as `symlink:TARGET`, a link on the way as `symlink:parent …`), undefined when
 * absent. The git pre-push hook passes a commit's tree here.
 */
export async function sessionChangesIn(
  workspace: string,
  record: SessionRecord,
  specFile: SpecFile | undefined,
  read: (rel: string) => Promise<Buffer | undefined>,
): Promise<TamperedFile[]> {
  const now = specFile ? await sessionProtectedPaths(workspace, specFile) : [];
  const paths = new Set([...Object.keys(record.files), ...now]);
  const changes: TamperedFile[] = [];
  for (const rel of [...paths].sort()) {
    const before = record.files[rel] ?? null;
    const content = await read(rel);
    const after = content === undefined ? null : digest(content);
    if (before === after) continue;
    if (isKeyedManifest(rel)) {
      const old = before === null ? undefined : await recordedContent(workspace, before);
      if (!testKeysDiffer(rel, old, content)) continue;
    }
    changes.push({ path: rel, change: before === null ? 'created' : after === null ? 'deleted' : 'changed' });
  }
  return changes;
}

/**
 * Puts every differing protected file back as recorded: a file that appeared is removed, a changed or deleted one
 * rewritten from the copy. A folder on the way that became a link or a file is made a folder again and the path
 * itself is removed before writing (never followed), so a restore never writes outside the workspace.
 */
export async function restoreSession(
  workspaceDir: string,
  record: SessionRecord,
  changes: readonly TamperedFile[],
): Promise<void> {
  const workspace = await fs.realpath(workspaceDir);
  for (const { path: rel } of changes) {
    await repairParents(workspace, rel);
    const file = path.join(workspace, rel);
    await fs.rm(file, { force: true, recursive: true });
    const hash = record.files[rel] ?? null;
    if (hash === null) continue;
    const content = await recordedContent(workspace, hash);
    if (content === undefined)
      throw new Error(`the recorded copy of ${rel} is missing from the session record`);
    if (content.subarray(0, LINK_PREFIX.length).toString() === LINK_PREFIX)
      await fs.symlink(content.subarray(LINK_PREFIX.length).toString(), file);
    else await fs.writeFile(file, content, { flag: 'wx' });
  }
}

/** Which specs the changes concern: a spec's own test file → that spec; anything else (shared) → every spec. */
export function specsConcerned(
  changes: readonly TamperedFile[],
  specFile: SpecFile,
): Map<string, TamperedFile[]> {
  const concerned = new Map<string, TamperedFile[]>();
  for (const change of changes) {
    const owners = specFile.specs.filter((s) => s.test.files.some((f) => normalisePath(f) === change.path));
    for (const spec of owners.length > 0 ? owners : specFile.specs)
      concerned.set(spec.id, [...(concerned.get(spec.id) ?? []), change]);
  }
  return concerned;
}

/** One line per change, for the Stop hook, the git hook and `weave check`. */
export function describeSessionChanges(changes: readonly TamperedFile[]): string {
  return changes.map((c) => `  ${c.path} (${c.change})`).join('\n');
}

/** A recorded file's content as the session started (undefined: it did not exist, or was not recorded). */
export async function recordedFile(
  workspaceDir: string,
  record: SessionRecord,
  rel: string,
): Promise<Buffer | undefined> {
  const hash = record.files[rel] ?? null;
  return hash === null ? undefined : recordedContent(await fs.realpath(workspaceDir), hash);
}

async function recordedContent(workspace: string, hash: string): Promise<Buffer | undefined> {
  return fs.readFile(path.join(sessionDir(workspace), 'content', hash)).catch(() => undefined);
}

/** How a link is recorded: `symlink:TARGET` (and `symlink:parent P -> TARGET` for a link on the way). */
export const SYMLINK_PREFIX = LINK_PREFIX;

/** A protected path's content (a link as `symlink:TARGET`); undefined when absent or behind a non-folder parent. */
async function readProtected(workspace: string, rel: string): Promise<Buffer | undefined> {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) {
    const stat = await fs.lstat(path.join(workspace, ...parts.slice(0, i))).catch(() => undefined);
    if (stat === undefined) return undefined;
    if (stat.isSymbolicLink()) {
      const target = await fs.readlink(path.join(workspace, ...parts.slice(0, i))).catch(() => '?');
      return Buffer.from(`${LINK_PREFIX}parent ${parts.slice(0, i).join('/')} -> ${target}`);
    }
    if (!stat.isDirectory()) return undefined;
  }
  const file = path.join(workspace, rel);
  try {
    const stat = await fs.lstat(file);
    if (stat.isSymbolicLink()) return Buffer.from(`${LINK_PREFIX}${await fs.readlink(file)}`);
    return stat.isFile() ? await fs.readFile(file) : undefined;
  } catch {
    return undefined;
  }
}

async function repairParents(workspace: string, rel: string): Promise<void> {
  const parts = rel.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const folder = path.join(workspace, ...parts.slice(0, i));
    const stat = await fs.lstat(folder).catch(() => undefined);
    if (stat?.isDirectory()) continue;
    if (stat !== undefined) await fs.rm(folder, { force: true });
    await fs.mkdir(folder);
  }
}

function testKeysDiffer(rel: string, before: Buffer | undefined, after: Buffer | undefined): boolean {
  const keys = manifestKeyChanges(rel, before?.toString('utf8'), after?.toString('utf8'));
  return keys instanceof UnreadableManifest || keys.some((k) => k.kind === 'test-infrastructure');
}

function digest(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
