// Weave's state outside any work tree: the agent session records (sandbox/sessionRecord.ts). `$WEAVE_STATE_DIR`,
// else `$XDG_STATE_HOME/weave`, else `~/.local/state/weave` (the XDG base directory rule for state that should
// persist but is not worth backing up). Kept out of the work tree because
// an agent's tools write there; kept per user because another user must not be able to prepare it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function weaveStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WEAVE_STATE_DIR) return path.resolve(env.WEAVE_STATE_DIR);
  if (env.XDG_STATE_HOME) return path.join(path.resolve(env.XDG_STATE_HOME), 'weave');
  return path.join(os.homedir(), '.local', 'state', 'weave');
}

/**
 * The running program, for caches in the state folder that its code computed: __filename is the bundle
 * (dist/guard-program.js, dist/cli-program.js) or this transpiled module (out/), and a rebuild changes its stamp.
 */
export function programStamp(): string {
  const stat = fs.statSync(__filename);
  return `${__filename}:${stat.size}:${stat.ctimeMs}`;
}

/**
 * Writes a cache file in the state folder whole (a reader sees the old file or the new one, never a part). A state
 * folder that cannot be written costs speed only: what was computed is used as is.
 */
export function writeStateFile(file: string, text: string): void {
  const partial = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(partial, text, { mode: 0o600 });
    fs.renameSync(partial, file);
  } catch {
    try {
      fs.rmSync(partial, { force: true });
    } catch {
      // Left for the next write to replace; nothing depends on it.
    }
  }
}
