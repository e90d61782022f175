// weave eval shows a prediction only its own checkout. The attacker's recipe: the code under test looks for the task
// folder (it knows the layout: gold.patch beside eval.sh), or for the path in another process's /proc/*/cmdline,
// and applies the gold patch to itself. Here the spec passes exactly when the prediction's code could read
// gold.patch, so a resolved spec would mean the task folder was visible.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { detectSandbox } from '../../../src/core/sandbox/bwrap';
import { runTaskPatch } from '../../../src/core/tasks/run/taskRunner';
import { gitIn, makeRepo } from '../../support/gitRepo';
import { nodeTaskSpec, taskFolderOf } from '../../support/taskFolder';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

const BASE_LIB = "exports.look = () => 'nothing';\n";
const SPEC_TEST =
  "const r = require('../lib').look(); console.log('LOOK ' + r); process.exitCode = r.startsWith('found') ? 0 : 1;\n";

/** The prediction: read gold.patch by its path, or find the task folder in any visible process's command line. */
function lookingLib(taskDir: string): string {
  return [
    "const fs = require('node:fs');",
    'exports.look = () => {',
    `  try { return 'found ' + fs.readFileSync(${JSON.stringify(path.join(taskDir, 'gold.patch'))}, 'utf8').length; } catch {}`,
    "  for (const pid of fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p))) {",
    "    try { const argv = fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8');",
    `      if (argv.includes(${JSON.stringify(taskDir)})) return 'found via /proc/' + pid; } catch {}`,
    '  }',
    "  try { const hit = fs.readdirSync('/tmp', { recursive: true }).find((n) => String(n).endsWith('gold.patch')); if (hit) return 'found /tmp/' + hit; } catch {}",
    "  return 'blocked';",
    '};',
    '',
  ].join('\n');
}

test('eval: the task folder, its gold patch and other processes are invisible to the prediction', async () => {
  assert.ok((await detectSandbox()).available, 'bubblewrap must work here: this test is about the sandbox');
  const repo = await makeRepo({ 'lib.js': BASE_LIB, 'test/lib.test.js': SPEC_TEST });
  dirs.push(repo);
  const specs = [
    nodeTaskSpec('honest', 'security', 'scored on its own code', 'node test/lib.test.js', 'test/lib.test.js'),
  ];
  const { taskDir, baseCommit } = await taskFolderOf(repo, 'isolation', specs, []);
  dirs.push(taskDir);
  await fs.writeFile(path.join(taskDir, 'gold.patch'), 'the gold patch\n');

  await fs.writeFile(path.join(repo, 'lib.js'), lookingLib(taskDir));
  const prediction = gitIn(repo, 'diff');
  gitIn(repo, 'checkout', '--', 'lib.js');

  const run = await runTaskPatch({
    taskDir,
    baseCommit,
    specs,
    protectedFiles: [],
    patch: prediction,
    timeoutMs: 60_000,
    runSetup: false,
  });
  assert.equal(run.parsed.patchMethod, 'git-apply', run.log);
  const spec = run.parsed.specs.honest;
  assert.ok(spec, run.log);
  assert.match(spec.outputTail, /LOOK blocked/, run.log);
  assert.equal(spec.verdict, 'fail');
});
