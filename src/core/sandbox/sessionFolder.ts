// Where an agent session's record lives and how it is read (sessionRecord.ts makes and compares it). Apart
// because `weave guard` reads the record on every hook event to know whether its session is recorded: this part
// uses synchronous file reads and the plain-JavaScript SHA-256 only, so a hook process loads neither
// fs.promises nor node:crypto (together ~20 ms of CPU per event, measured 2026-12-07).
import fs from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../sha256';
import { weaveStateDir } from '../stateDir';
import { normalisePath } from './diffPolicy/scope';

export const RECORD_VERSION = 1;

/** Who started the session the record belongs to, as the hook event said. */
export interface SessionOrigin {
  agent: string;
  /** The agent's session id (absent when its hook events carry none). */
  sessionId?: string;
}

export interface SessionRecord extends SessionOrigin {
  version: number;
  /** The workspace's real path. */
  workspace: string;
  startedAt: string;
  /** Workspace-relative path → SHA-256 of its content (a link: of `symlink:TARGET`), null when it did not exist. */
  files: Record<string, string | null>;
}

/** The record's folder for one workspace (its real path hashed, so any spelling of it finds the same record). */
export function sessionDir(workspaceDir: string): string {
  return path.join(weaveStateDir(), 'sessions', workspaceKey(workspaceDir));
}

/**
 * Where what checks of one workspace saw its specs load is kept (observedLoads.ts): beside the sessions, not in
 * a session's folder, which ends with the session (clearSession) while an observation stays true.
 */
export function observedLoadsFile(workspaceDir: string): string {
  return path.join(weaveStateDir(), 'observed-loads', `${workspaceKey(workspaceDir)}.json`);
}

function workspaceKey(workspaceDir: string): string {
  let real: string;
  try {
    real = fs.realpathSync(workspaceDir);
  } catch {
    real = path.resolve(workspaceDir);
  }
  return sha256Hex(real).slice(0, 24);
}

export async function readSessionRecord(workspaceDir: string): Promise<SessionRecord | undefined> {
  const file = path.join(sessionDir(workspaceDir), 'record.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: the session record is not JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
  if (!isRecordShape(value))
    throw new Error(`${file}: not a session record of version ${RECORD_VERSION}; remove it to start again`);
  return value;
}

function isRecordShape(value: unknown): value is SessionRecord {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<SessionRecord>;
  return (
    v.version === RECORD_VERSION &&
    typeof v.workspace === 'string' &&
    typeof v.agent === 'string' &&
    typeof v.startedAt === 'string' &&
    typeof v.files === 'object' &&
    v.files !== null &&
    Object.entries(v.files).every(
      ([rel, h]) => isInsidePath(rel) && (h === null || (typeof h === 'string' && /^[0-9a-f]{64}$/.test(h))),
    )
  );
}

/** A record's paths name files in the workspace only: a record edited to say `../x` restores nothing outside. */
function isInsidePath(rel: string): boolean {
  return (
    rel !== '' &&
    normalisePath(rel) === rel &&
    !rel.startsWith('../') &&
    rel !== '..' &&
    !path.isAbsolute(rel)
  );
}
