// `npm test`: every test on a machine that has nothing but Node, npm, git and apt (the README's second command).
//   1. set-up (skipped parts are cheap checks): the real-VS-Code tools, Node 24 and the agent CLIs
//      (test/vscode/install-tools.sh, into ~/.cache/weave/vscode-tools or $WEAVE_VSCODE_TOOLS), the Docker engine
//      and base images (test/docker/install-docker.sh, ~/.cache/weave/docker-images or $WEAVE_DOCKER_IMAGES).
//      Debian packages need root: the install scripts say which are missing and stop when not root.
//   2. this script again under the cache's Node 24 (the shell's Node may be 20), which runs the phases: build,
//      types, lint + format, unit, e2e, real VS Code; each phase's time is printed, and a summary at the end.
// `npm run setup` (= --setup-only) does step 1 and shows which Node step 2 would run on, then stops.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { mustReexec, projectNode, reexecUnder, root, toolsDir } from './toolchain.mjs';

const SETUP_DONE = 'WEAVE_TEST_SETUP_DONE';
const args = process.argv.slice(2);
const setupOnly = args.includes('--setup-only');
const SETUP_TIMES = 'WEAVE_TEST_SETUP_TIMES';
// [phase, milliseconds]: the set-up's phases come from the process that ran them, before the hand-over.
const timings = process.env[SETUP_DONE] === '1' ? JSON.parse(process.env[SETUP_TIMES] ?? '[]') : [];

function log(text) {
  console.log(`[test] ${text}`);
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Runs one phase's command (inheriting the terminal), records its time; exits with its status on failure. */
function phase(name, command, commandArgs, options = {}) {
  log(`${name}: ${[command, ...commandArgs].join(' ')}`);
  const started = Date.now();
  const r = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', ...options });
  const took = Date.now() - started;
  timings.push([name, took]);
  if (r.error) {
    log(`${name}: could not start ${command}: ${r.error.message}`);
    process.exit(1);
  }
  if (r.status !== 0) {
    log(`${name} FAILED (exit ${r.status ?? r.signal}) after ${seconds(took)}`);
    printTimings();
    process.exit(r.status ?? 1);
  }
  log(`${name} done in ${seconds(took)}`);
  return r;
}

function printTimings() {
  if (timings.length === 0) return;
  log('phase times:');
  for (const [name, ms] of timings) console.log(`  ${name.padEnd(10)} ${seconds(ms).padStart(9)}`);
}

if (process.env[SETUP_DONE] !== '1') {
  const tools = toolsDir();
  phase('tools', 'bash', ['test/vscode/install-tools.sh'], { stdio: ['ignore', 'ignore', 'inherit'] });
  phase('docker', 'bash', ['test/docker/install-docker.sh'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const node = projectNode(tools);
  if (mustReexec(process.execPath, node)) {
    log(`node ${process.version} (${process.execPath}) → the tool cache's ${node}`);
    const handOver = { [SETUP_DONE]: '1', [SETUP_TIMES]: JSON.stringify(timings) };
    process.exit(reexecUnder(node, path.join(root, 'scripts/test.mjs'), args, handOver));
  }
}

log(`node ${process.version} at ${process.execPath}`);
if (setupOnly) {
  printTimings();
  log('set-up complete: `npm test` runs every suite on this Node');
  process.exit(0);
}
phase('build', 'npm', ['run', '--silent', 'build']);
phase('typecheck', 'npm', ['run', '--silent', 'typecheck']);
phase('lint', 'npm', ['run', '--silent', 'lint']);
phase('unit', process.execPath, ['scripts/run-node-tests.mjs', '--layer', 'unit']);
phase('e2e', process.execPath, ['scripts/run-node-tests.mjs', '--layer', 'e2e']);
phase('vscode', process.execPath, ['out/test/vscode/runInHost.js']);
printTimings();
