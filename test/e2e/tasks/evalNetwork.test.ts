// weave eval's containment of the network: a task's set-up (which installs dependencies) runs with the host's
// network, the spec runs that follow — the prediction's code — in a separate sandbox without it. Both sides try
// the same thing, a TCP connection to a listener this test opens on the host's 127.0.0.1, so the set-up's
// connection is the positive control for the prediction's.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import { after, test } from 'node:test';
import { detectSandbox } from '../../../src/core/sandbox/bwrap';
import { runTaskPatch } from '../../../src/core/tasks/run/taskRunner';
import { gitIn, makeRepo } from '../../support/gitRepo';
import { until } from '../../support/polling';
import { nodeTaskSpec, taskFolderOf } from '../../support/taskFolder';

const received: string[] = [];
const server = createServer((socket: Socket) => {
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString('utf8')));
  socket.on('end', () => received.push(text.trim()));
});
const dirs: string[] = [];
after(async () => {
  server.close();
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

const BASE_LIB = "exports.probe = async () => 'offline';\n";
const SPEC_TEST =
  "require('../lib').probe().then((r) => { console.log('PROBE ' + r); process.exitCode = r === 'reached' ? 0 : 1; });\n";

function connectingLib(port: number): string {
  return [
    "const net = require('node:net');",
    'exports.probe = () => new Promise((resolve) => {',
    `  const s = net.connect(${port}, '127.0.0.1', () => { s.end('prediction'); resolve('reached'); });`,
    "  s.on('error', (e) => resolve('blocked ' + e.code));",
    '});',
    '',
  ].join('\n');
}

test('eval: set-up reaches the host network, the prediction’s spec runs cannot', async () => {
  assert.ok((await detectSandbox()).available, 'bubblewrap must work here: this test is about the sandbox');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  const port = address.port;

  const repo = await makeRepo({ 'lib.js': BASE_LIB, 'test/lib.test.js': SPEC_TEST });
  dirs.push(repo);
  await fs.writeFile(path.join(repo, 'lib.js'), connectingLib(port));
  const prediction = gitIn(repo, 'diff');
  gitIn(repo, 'checkout', '--', 'lib.js');

  const specs = [
    nodeTaskSpec(
      'offline',
      'security',
      'the code under test cannot reach the host',
      'node test/lib.test.js',
      'test/lib.test.js',
    ),
  ];
  const setup = `node -e "const s = require('node:net').connect(${port}, '127.0.0.1', () => s.end('setup')); s.on('error', (e) => { console.error(e.message); process.exit(1); })"`;
  const { taskDir, baseCommit } = await taskFolderOf(repo, 'network', specs, [setup]);

  const run = await runTaskPatch({
    taskDir,
    baseCommit,
    specs,
    protectedFiles: [],
    patch: prediction,
    timeoutMs: 60_000,
    runSetup: true,
  });

  assert.equal(run.parsed.setupFailed, false, run.log);
  assert.equal(run.parsed.patchMethod, 'git-apply', run.log);
  await until('the set-up’s connection', () => received.includes('setup'), 10_000);
  const spec = run.parsed.specs.offline;
  assert.ok(spec, run.log);
  assert.match(spec.outputTail, /PROBE blocked/, run.log);
  assert.equal(spec.verdict, 'fail');
  assert.deepEqual(received, ['setup'], 'only the set-up reached the listener');
});
