// The set-up environment (what a dependency install gets and what it never gets), the agent's allowlist beside
// it (unchanged: no CA, proxy or registry variable reaches agent or prediction code), credential masking, and
// how a failed or stuck set-up is read back from eval.sh's log and reported while it runs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { containedEnvironment } from '../../../src/core/sandbox/environment';
import {
  makeSetupHome,
  redactUrlCredentials,
  setupVariables,
} from '../../../src/core/sandbox/setupEnvironment';
import { describeSetupFailure, parseEvalLog, SETUP_TAIL_LINES } from '../../../src/core/tasks/run/evalLog';
import { runningSetupCommand, runningSpec, watchSetup } from '../../../src/core/tasks/run/setupProgress';

const USER_ENV: NodeJS.ProcessEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/user',
  NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/proxy-ca.pem',
  SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt',
  REQUESTS_CA_BUNDLE: '/etc/ssl/certs/ca-certificates.crt',
  PIP_CERT: '/etc/ssl/certs/ca-certificates.crt',
  HTTPS_PROXY: 'http://alice:s3cret@proxy.corp:3128',
  http_proxy: 'http://alice:s3cret@proxy.corp:3128',
  no_proxy: 'localhost,127.0.0.1',
  npm_config_registry: 'https://npm.corp/',
  NPM_CONFIG_CAFILE: '/etc/ssl/certs/ca-certificates.crt',
  PIP_INDEX_URL: 'https://bob:token@pypi.corp/simple',
  PIP_FIND_LINKS: '/srv/wheels',
  // Never passed: keys, registry credentials, the user's own caches and config files.
  OPENAI_API_KEY: 'sk-test-key',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  GITHUB_TOKEN: 'ghp_token',
  npm_config__authToken: 'npm-token',
  'npm_config_//npm.corp/:_authToken': 'npm-token',
  NPM_CONFIG_USERCONFIG: '/home/user/.npmrc',
  npm_config_cache: '/home/user/.npm',
  PIP_CONFIG_FILE: '/home/user/.pip.conf',
  PIP_CACHE_DIR: '/home/user/.cache/pip',
};

describe('the set-up environment', () => {
  it('passes the CA, proxy and registry settings, with a private HOME and caches', () => {
    const env = setupVariables('/scratch/setup-home', USER_ENV);
    for (const name of [
      'NODE_EXTRA_CA_CERTS',
      'SSL_CERT_FILE',
      'REQUESTS_CA_BUNDLE',
      'PIP_CERT',
      'HTTPS_PROXY',
      'http_proxy',
      'no_proxy',
      'npm_config_registry',
      'NPM_CONFIG_CAFILE',
      'PIP_INDEX_URL',
      'PIP_FIND_LINKS',
    ])
      assert.equal(env[name], USER_ENV[name], name);
    assert.equal(env.HOME, '/scratch/setup-home');
    assert.equal(env.npm_config_cache, '/scratch/setup-home/.cache/npm');
    assert.equal(env.PIP_CACHE_DIR, '/scratch/setup-home/.cache/pip');
    assert.equal(env.XDG_CACHE_HOME, '/scratch/setup-home/.cache');
  });

  it('never passes keys, registry credentials or the user’s caches and config files', () => {
    const env = setupVariables('/scratch/setup-home', USER_ENV);
    for (const name of [
      'OPENAI_API_KEY',
      'AWS_SECRET_ACCESS_KEY',
      'GITHUB_TOKEN',
      'npm_config__authToken',
      'npm_config_//npm.corp/:_authToken',
      'NPM_CONFIG_USERCONFIG',
      'PIP_CONFIG_FILE',
    ])
      assert.equal(env[name], undefined, name);
    const values = Object.values(env);
    for (const value of ['/home/user', '/home/user/.npm', '/home/user/.cache/pip', 'npm-token'])
      assert.ok(!values.includes(value), value);
  });

  it('leaves the agent’s and the predictions’ allowlist without any of it', () => {
    const env = containedEnvironment({}, USER_ENV);
    for (const name of Object.keys(USER_ENV).filter((n) => n !== 'PATH' && n !== 'HOME'))
      assert.equal(env[name], undefined, name);
  });

  it('makes the private HOME with its cache folder inside the scratch folder', async () => {
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-setup-home-'));
    try {
      const home = await makeSetupHome(scratch);
      assert.equal(path.dirname(home), scratch);
      assert.ok((await fs.stat(path.join(home, '.cache'))).isDirectory());
    } finally {
      await fs.rm(scratch, { recursive: true, force: true });
    }
  });

  it('masks credentials in URLs, whatever the scheme', () => {
    assert.equal(
      redactUrlCredentials('proxy http://alice:s3cret@proxy.corp:3128 and https://tok@npm.corp/x'),
      'proxy http://***@proxy.corp:3128 and https://***@npm.corp/x',
    );
    assert.equal(
      redactUrlCredentials('mail alice@corp.example, https://npm.corp/'),
      'mail alice@corp.example, https://npm.corp/',
    );
  });
});

describe('a failed set-up read back from eval.sh’s log', () => {
  const npmError = Array.from({ length: 60 }, (_, i) => `npm error line ${i + 1}`);

  it('names the command, its exit code and its last lines', () => {
    const log = [
      '>>>>> WEAVE[n1] PATCH method=none',
      '>>>>> WEAVE[n1] TEST PATCH APPLIED (empty)',
      '>>>>> WEAVE[n1] SETUP npm install --no-audit --no-fund',
      ...npmError,
      '>>>>> WEAVE[n1] SETUP FAILED exit=1',
      '>>>>> WEAVE[n1] EVAL END exit=5',
    ].join('\n');
    const parsed = parseEvalLog(log, [], 'n1');
    assert.equal(parsed.setupFailed, true);
    assert.deepEqual(parsed.setupFailure, {
      command: 'npm install --no-audit --no-fund',
      finished: true,
      exitCode: 1,
      lastLines: npmError.slice(-SETUP_TAIL_LINES),
    });
    const text = describeSetupFailure(parsed.setupFailure!);
    assert.match(
      text,
      /^environment set-up failed: `npm install --no-audit --no-fund` exited 1; its last 40 lines:\n/,
    );
    assert.match(text, /npm error line 60$/);
    assert.doesNotMatch(text, /npm error line 20\n/);
  });

  it('reports the command a stopped run was in, and nothing for a set-up that went on to the specs', () => {
    const stuck = '>>>>> WEAVE[n1] SETUP pip install -e .\nRetrying (Retry(total=4))\n';
    const parsed = parseEvalLog(stuck, [], 'n1', 'task timed out after 300 s');
    assert.equal(parsed.setupFailed, false);
    assert.equal(parsed.setupFailure?.finished, false);
    assert.match(
      describeSetupFailure(parsed.setupFailure!, 'the run timed out after 300 s'),
      /`pip install -e \.` did not finish \(the run timed out after 300 s\); its last line:\n {4}Retrying/,
    );
    const fine = `${stuck}>>>>> WEAVE[n1] SPEC START a\n`;
    assert.equal(parseEvalLog(fine, [], 'n1').setupFailure, undefined);
  });

  it('reads the bare SETUP FAILED of tasks exported before exit codes were in the marker', () => {
    const log = '>>>>> WEAVE[n1] SETUP npm ci\nnpm error missing lockfile\n>>>>> WEAVE[n1] SETUP FAILED\n';
    const parsed = parseEvalLog(log, [], 'n1');
    assert.equal(parsed.setupFailed, true);
    assert.match(
      describeSetupFailure(parsed.setupFailure!),
      /`npm ci` failed; its last line:\n {4}npm error missing lockfile$/,
    );
  });

  it('ignores markers without the run’s nonce (printed by an install script)', () => {
    const log = [
      '>>>>> WEAVE[n1] SETUP npm ci',
      '>>>>> WEAVE[forged] SETUP FAILED exit=1',
      '>>>>> WEAVE[n1] SPEC START a',
    ].join('\n');
    const parsed = parseEvalLog(log, [], 'n1');
    assert.equal(parsed.setupFailed, false);
    assert.equal(parsed.setupFailure, undefined);
  });

  it('masks a proxy’s credentials in what it reports', () => {
    const log =
      '>>>>> WEAVE[] SETUP npm ci\nproxy http://alice:s3cret@proxy.corp:3128 refused\n>>>>> WEAVE[] SETUP FAILED exit=1\n';
    const text = describeSetupFailure(parseEvalLog(log, [], '').setupFailure!);
    assert.doesNotMatch(text, /s3cret/);
    assert.match(text, /http:\/\/\*\*\*@proxy\.corp:3128/);
  });
});

describe('set-up progress', () => {
  it('knows the running command only while a set-up marker is the last one', () => {
    assert.equal(runningSetupCommand('>>>>> WEAVE[n] SETUP npm ci\nadded 3 packages\n', 'n'), 'npm ci');
    assert.equal(
      runningSetupCommand('>>>>> WEAVE[n] SETUP npm ci\n>>>>> WEAVE[n] SETUP FAILED exit=1\n', 'n'),
      undefined,
    );
    assert.equal(
      runningSetupCommand('>>>>> WEAVE[n] SETUP npm ci\n>>>>> WEAVE[x] SPEC START a\n', 'n'),
      'npm ci',
    );
    assert.equal(runningSetupCommand('>>>>> WEAVE[n] PATCH method=none\n', 'n'), undefined);
  });

  it('reports the running command every interval, with the run’s label, until stopped', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-setup-progress-'));
    const logFile = path.join(dir, 'eval.log');
    await fs.writeFile(logFile, '>>>>> WEAVE[n] SETUP npm install --no-audit --no-fund\n');
    const lines: string[] = [];
    let stop = (): void => undefined;
    try {
      await new Promise<void>((resolve) => {
        stop = watchSetup({
          logFile,
          nonce: 'n',
          label: 'gold patch',
          intervalMs: 10,
          report: (line) => {
            lines.push(line);
            if (lines.length === 2) resolve();
          },
        });
      });
    } finally {
      stop();
      await fs.rm(dir, { recursive: true, force: true });
    }
    assert.match(
      lines[0] ?? '',
      /^gold patch: environment set-up running for \d+ s: npm install --no-audit --no-fund$/,
    );
  });

  it('knows which spec of how many runs: the last start without its end, by the run’s nonce only', () => {
    const ids = ['a', 'b', 'c'];
    const start = (id: string, nonce = 'n'): string => `>>>>> WEAVE[${nonce}] SPEC START ${id}\n`;
    const end = (id: string): string => `<<<<< WEAVE[n] SPEC END ${id} exit=0 timed_out=0 seconds=1\n`;
    assert.equal(runningSpec('', 'n', ids), undefined);
    assert.deepEqual(runningSpec(`${start('a')}ok\n`, 'n', ids), { id: 'a', number: 1, of: 3 });
    // Between specs nothing runs; the next start is counted by its place in the spec list.
    assert.equal(runningSpec(`${start('a')}${end('a')}`, 'n', ids), undefined);
    assert.deepEqual(runningSpec(`${start('a')}${end('a')}${start('b')}`, 'n', ids), {
      id: 'b',
      number: 2,
      of: 3,
    });
    // A spec's output that forges a start without the nonce is output, not progress.
    assert.deepEqual(runningSpec(`${start('b')}${start('c', 'forged')}`, 'n', ids), {
      id: 'b',
      number: 2,
      of: 3,
    });
  });

  it('reports "spec N of M running" once per spec after the set-up', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-spec-progress-'));
    const logFile = path.join(dir, 'eval.log');
    await fs.writeFile(
      logFile,
      '>>>>> WEAVE[n] SETUP npm ci\n>>>>> WEAVE[n] SETUP-DONE\n>>>>> WEAVE[n] SPEC START cache-hit\n',
    );
    const lines: string[] = [];
    let stop = (): void => undefined;
    try {
      await new Promise<void>((resolve) => {
        stop = watchSetup({
          logFile,
          nonce: 'n',
          label: 'gold patch',
          intervalMs: 10,
          specIds: ['no-stale-read', 'cache-hit'],
          report: (line) => {
            lines.push(line);
            if (lines.length === 1)
              void fs.appendFile(
                logFile,
                '<<<<< WEAVE[n] SPEC END cache-hit exit=0 timed_out=0 seconds=0\n>>>>> WEAVE[n] SPEC START no-stale-read\n',
              );
            if (lines.length === 2) resolve();
          },
        });
      });
    } finally {
      stop();
      await fs.rm(dir, { recursive: true, force: true });
    }
    assert.deepEqual(lines, [
      'gold patch: spec 2 of 2 running (cache-hit)',
      'gold patch: spec 1 of 2 running (no-stale-read)',
    ]);
  });
});
