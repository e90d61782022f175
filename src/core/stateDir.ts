// Weave's state outside any work tree: the agent session records (sandbox/sessionRecord.ts). `$WEAVE_STATE_DIR`,
// else `$XDG_STATE_HOME/weave`, else `~/.local/state/weave` (the XDG base directory rule for state that should
// persist but is not worth backing up). Kept out of the work tree because
// an agent's tools write there; kept per user because another user must not be able to prepare it.
import os from 'node:os';
import path from 'node:path';

export function weaveStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WEAVE_STATE_DIR) return path.resolve(env.WEAVE_STATE_DIR);
  if (env.XDG_STATE_HOME) return path.join(path.resolve(env.XDG_STATE_HOME), 'weave');
  return path.join(os.homedir(), '.local', 'state', 'weave');
}
