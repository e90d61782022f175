// The guard records agent sessions in Weave's state folder (src/core/stateDir.ts), by default in the user's home:
// tests that run it point WEAVE_STATE_DIR (inherited by every process they start) at a folder of their own.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

export function isolateWeaveState(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weave-state-'));
  process.env.WEAVE_STATE_DIR = dir;
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
