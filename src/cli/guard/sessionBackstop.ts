// The session backstop's decisions for the faces that use it: the guard's session events (start, Stop, end), the
// git hooks and `weave check` through `sessionTampering`, and `weave guard --restore` / `--accept-tests`. The record
// itself (where it lives, what it holds, how a tree is compared with it) is core/sandbox/sessionRecord.ts.
import { promises as fs } from 'node:fs';
import { loadSpecFile, parseSpecText, SPEC_FILE_RELATIVE_PATH } from '../../core/spec';
import type { TamperedFile } from '../../core/sandbox/protectedFiles';
import { commitFileReader } from '../../core/sandbox/sessionCommit';
import {
  clearSession,
  readSessionRecord,
  recordedFile,
  recordSession,
  sessionChanges,
  sessionChangesIn,
  specsConcerned,
  type SessionOrigin,
  type SessionRecord,
} from '../../core/sandbox/sessionRecord';
import type { SpecFile } from '../../shared/specSchema';

export const RESTORE_COMMAND = 'weave guard --restore';
export const ACCEPT_COMMAND = 'weave guard --accept-tests';

export interface SessionState {
  record: SessionRecord;
  changes: TamperedFile[];
  /** The specs to compare with: today's spec file, or the recorded one when today's does not load. */
  specFile: SpecFile | undefined;
}

/** The workspace's session record and what differs from it, or undefined when no session is recorded. */
export async function sessionState(workspaceDir: string): Promise<SessionState | undefined> {
  const record = await readSessionRecord(workspaceDir);
  if (record === undefined) return undefined;
  const specFile = await specsForComparison(workspaceDir, record);
  return { record, changes: await sessionChanges(workspaceDir, record, specFile), specFile };
}

/** Spec id → the changed protected files that concern it (every spec for a shared file); empty when none. */
export async function sessionTampering(
  workspaceDir: string,
): Promise<{ state: SessionState; concerned: Map<string, TamperedFile[]> } | undefined> {
  const state = await sessionState(workspaceDir);
  if (state === undefined || state.changes.length === 0 || state.specFile === undefined) return undefined;
  return { state, concerned: specsConcerned(state.changes, state.specFile) };
}

/**
 * A session starts (its start event, or the first event of a session the record does not know): record the
 * protected set. An earlier record is replaced only when nothing differs from it — changes left by an earlier
 * session stay visible until they are restored or accepted, so a new session cannot launder them.
 */
export async function startSession(workspaceDir: string, origin: SessionOrigin): Promise<void> {
  const state = await sessionState(workspaceDir);
  if (state !== undefined) {
    const same = origin.sessionId !== undefined && state.record.sessionId === origin.sessionId;
    if (same || state.changes.length > 0) return;
  }
  const loaded = await loadSpecFile(workspaceDir);
  // With no valid spec file there is no test set to record; `.weave/` itself stays the guard's to refuse.
  if (loaded.ok) await recordSession(workspaceDir, loaded.specFile, origin);
}

/** A session ends: with nothing changed, its record goes; otherwise it stays for the git hooks and `weave check`. */
export async function endSession(workspaceDir: string): Promise<void> {
  const state = await sessionState(workspaceDir);
  if (state !== undefined && state.changes.length === 0) await clearSession(workspaceDir);
}

/** What the Stop hook and the git hooks say when protected files changed during the session. */
export function changedDuringSession(state: SessionState): string {
  const list = state.changes.map((c) => `  ${c.path} (${c.change})`).join('\n');
  return (
    `Weave: protected files changed since this agent session started (${state.record.agent}, ` +
    `${state.record.startedAt}):\n${list}\n` +
    'Spec tests, their runner configuration and .weave/ define the task: they are not yours to change. Put them ' +
    `back with \`${RESTORE_COMMAND}\` and change the code under test instead. (A person who meant this change ` +
    `accepts it with \`${ACCEPT_COMMAND}\` in a terminal.)`
  );
}

/** One ref a `git push` sends, as git hands it to the pre-push hook on stdin. */
export interface PushedRef {
  localRef: string;
  localCommit: string;
  remoteRef: string;
}

/** The pre-push hook's stdin (`<local ref> <local sha> <remote ref> <remote sha>` per line); deletions skipped. */
export function parsePushLines(text: string): PushedRef[] {
  const refs: PushedRef[] = [];
  for (const line of text.split('\n')) {
    const [localRef, localCommit, remoteRef] = line.trim().split(/\s+/);
    if (localRef === undefined || localCommit === undefined || remoteRef === undefined) continue;
    if (/^0+$/.test(localCommit)) continue; // a ref being deleted carries no files
    refs.push({ localRef, localCommit, remoteRef });
  }
  return refs;
}

/**
 * The pushed refs whose commit holds protected files that differ from the session's record — the pre-commit
 * hook's comparison, made against the commit pushed instead of the work tree (a commit made with --no-verify, or
 * while the work tree was put back afterwards, is still caught). Undefined when no session is recorded.
 */
export async function pushTampering(
  workspaceDir: string,
  refs: readonly PushedRef[],
): Promise<{ state: SessionState; refused: Array<{ ref: PushedRef; changes: TamperedFile[] }> } | undefined> {
  const state = await sessionState(workspaceDir);
  if (state === undefined) return undefined;
  const workspace = await fs.realpath(workspaceDir);
  const refused: Array<{ ref: PushedRef; changes: TamperedFile[] }> = [];
  for (const ref of refs) {
    const read = await commitFileReader(workspace, ref.localCommit);
    const changes = await sessionChangesIn(workspace, state.record, state.specFile, read);
    if (changes.length > 0) refused.push({ ref, changes });
  }
  return { state, refused };
}

/** What the pre-push hook says when it refuses. */
export function pushRefused(
  state: SessionState,
  refused: Array<{ ref: PushedRef; changes: TamperedFile[] }>,
): string {
  const lists = refused.map(
    ({ ref, changes }) =>
      `  ${ref.localRef} -> ${ref.remoteRef} (${ref.localCommit.slice(0, 12)}):\n` +
      changes.map((c) => `    ${c.path} (${c.change})`).join('\n'),
  );
  return (
    `Weave: the push carries protected files changed since the agent session started (${state.record.agent}, ` +
    `${state.record.startedAt}):\n${lists.join('\n')}\n` +
    `Push refused. Put them back (\`${RESTORE_COMMAND}\`, then commit), or, if a person meant this change, accept ` +
    `it with \`${ACCEPT_COMMAND}\` in a terminal and push again. (git push --no-verify skips this hook.)`
  );
}

async function specsForComparison(
  workspaceDir: string,
  record: SessionRecord,
): Promise<SpecFile | undefined> {
  const loaded = await loadSpecFile(workspaceDir);
  if (loaded.ok) return loaded.specFile;
  const recorded = await recordedFile(workspaceDir, record, SPEC_FILE_RELATIVE_PATH);
  if (recorded === undefined) return undefined;
  const parsed = parseSpecText(recorded.toString('utf8'), SPEC_FILE_RELATIVE_PATH);
  return parsed.ok ? parsed.specFile : undefined;
}
