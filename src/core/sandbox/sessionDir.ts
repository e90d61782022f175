// The state folder of one workspace's agent sessions (outside the work tree, which the guard refuses writes to):
// the session record (sessionRecord.ts) and the guard's loaded-set cache live there; what checks saw the specs
// load (observedLoads.ts) is kept beside it. Its own module so that those can share it without importing each other.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { weaveStateDir } from '../stateDir';

/** The record's folder for one workspace (its real path hashed, so any spelling of it finds the same record). */
export async function sessionDir(workspaceDir: string): Promise<string> {
  return path.join(weaveStateDir(), 'sessions', await workspaceKey(workspaceDir));
}

/**
 * Where what checks of one workspace saw its specs load is kept (observedLoads.ts): beside the sessions, not in
 * a session's folder, which ends with the session (clearSession) while an observation stays true.
 */
export async function observedLoadsFile(workspaceDir: string): Promise<string> {
  return path.join(weaveStateDir(), 'observed-loads', `${await workspaceKey(workspaceDir)}.json`);
}

async function workspaceKey(workspaceDir: string): Promise<string> {
  const real = await fs.realpath(workspaceDir).catch(() => path.resolve(workspaceDir));
  return createHash('sha256').update(real).digest('hex').slice(0, 24);
}
