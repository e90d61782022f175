// Contained spec runs (runSpecs with a containment), case by case: what a spec test running hostile code can
// and cannot do. Real bubblewrap, real processes, real git; each case also has its positive control where one
// exists (host network reaches the server; the spec's own env arrives), so the assertion can fail.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { runSpecs } from '../../../src/core/check/runSpecs';
import type { SpecResult } from '../../../src/core/check/types';
import { WORKING_TREE, withCopiedWorkspace } from '../../../src/core/workspace';
import type { NetworkAccess } from '../../../src/core/sandbox/bwrap';
import { loadSpecFile } from '../../../src/core/spec/load';
import { makeRepo, snapshot } from '../../support/gitRepo';

const PASSING_TEST = "require('node:test')('ok', () => {});\n";

interface Case {
  command: string;
  files?: Record<string, string>;
  env?: Record<string, string>;
  network?: NetworkAccess;
  forceUnsandboxed?: boolean;
  /** The spec file's `defaults.writeCapMiB`. */
  writeCapMiB?: number;
}

const repos: string[] = [];
after(async () => {
  for (const r of repos) await fs.rm(r, { recursive: true, force: true });
});

/** Runs one spec (`t`, test file test/t.test.js) contained in a standalone checkout of a fresh repo. */
async function contained(c: Case): Promise<{ result: SpecResult; repo: string; untouched: boolean }> {
  const specs = {
    version: 1,
    goal: 'containment',
    ...(c.writeCapMiB !== undefined ? { defaults: { writeCapMiB: c.writeCapMiB } } : {}),
    specs: [
      {
        id: 't',
        title: 't',
        kind: 'security',
        statement: 's',
        test: { command: c.command, files: ['test/t.test.js'], env: c.env ?? {} },
      },
    ],
  };
  const repo = await makeRepo({
    '.weave/specs.json': JSON.stringify(specs, null, 2),
    'test/t.test.js': PASSING_TEST,
    'test/helper.js': 'module.exports = 1;\n',
    ...c.files,
  });
  repos.push(repo);
  const before = await snapshot(repo);
  const loaded = await loadSpecFile(repo);
  assert.ok(loaded.ok);
  const contain = {
    specFile: loaded.specFile,
    network: c.network ?? 'none',
    ...(c.forceUnsandboxed ? { forceUnsandboxed: true } : {}),
  };
  const result = await withCopiedWorkspace(
    repo,
    { kind: 'standalone', ref: WORKING_TREE, contain },
    async (checkout) => {
      const { containment } = checkout;
      const [r] = await runSpecs({
        workspaceDir: checkout.dir,
        specFile: loaded.specFile,
        containment,
      });
      // The guard restored the checkout: what the next run sees is the pristine protected set.
      assert.equal(await fs.readFile(path.join(checkout.dir, 'test/t.test.js'), 'utf8'), PASSING_TEST);
      return r as SpecResult;
    },
  );
  const untouched = JSON.stringify([...(await snapshot(repo))]) === JSON.stringify([...before]);
  return { result, repo, untouched };
}

describe('contained spec runs', () => {
  test('a run that rewrites its own test file is tampered: it wrote a scratch copy, and the attempt is recorded', async () => {
    const { result, untouched } = await contained({
      command: `echo "require('node:test')('x', () => {});" > test/t.test.js && node --test`,
    });
    // The rewrite "worked" inside (the runner ran the rewritten test and passed), which is the attempt.
    assert.equal(result.verdict, 'tampered', result.reason);
    assert.equal(result.verdictBeforeTampering, 'pass');
    assert.deepEqual(
      result.attempts?.map((a) => `${a.kind} ${a.target} ${a.spec}`),
      ['protected-write test/t.test.js t'],
    );
    assert.match(result.reason ?? '', /attempts: t: wrote to protected test\/t\.test\.js/);
    assert.ok(!Number.isNaN(Date.parse(result.attempts?.[0]?.at ?? '')));
    assert.equal(result.tampered, undefined, 'the checkout itself did not change, so nothing to restore');
    assert.equal(result.sandboxed, true);
    assert.ok(untouched);
  });

  test('emptying a helper is an attempt; specs.json stays read-only; a conftest.py created at run time is tampering', async () => {
    const { result } = await contained({
      command:
        'echo "import pytest" > conftest.py; echo "{}" > .weave/specs.json; : > test/helper.js; node --test',
    });
    assert.equal((result.output.match(/Read-only file system/g) ?? []).length, 1, result.output);
    assert.equal(result.verdict, 'tampered');
    assert.deepEqual(
      result.tampered?.map((f) => `${f.path}:${f.change}`),
      ['conftest.py:created'],
    );
    assert.deepEqual(
      result.attempts?.map((a) => `${a.kind} ${a.target}`),
      ['protected-write test/helper.js'],
    );
  });

  test('a process left running when the command finished is an attempt, and the run cannot pass', async () => {
    const { result } = await contained({
      command: 'sh -c "exec sleep 600" >/dev/null 2>&1 & node --test',
    });
    assert.equal(result.verdict, 'tampered', result.reason);
    assert.equal(result.verdictBeforeTampering, 'fail', 'the command exited 0; the observation made it fail');
    assert.deepEqual(
      result.attempts?.map((a) => `${a.kind} ${a.target.replace(/\d+/, 'N')}`),
      ['process-left pid N: sleep'],
    );
  });

  test('an honest run leaves no attempt: it writes /tmp and its own outputs, rereads its test, stops its server', async () => {
    const { result } = await contained({
      command: [
        'echo out > /tmp/scratch.txt',
        'mkdir -p out && echo report > out/report.txt',
        'cat test/t.test.js test/helper.js > /dev/null',
        "node -e \"require('node:fs').writeFileSync('test/t.test.js', require('node:fs').readFileSync('test/t.test.js'))\"",
        'sleep 600 & server=$!',
        'node --test',
        'kill $server',
      ].join('; '),
    });
    assert.equal(result.verdict, 'pass', `${result.reason ?? ''}\n${result.output}`);
    assert.equal(result.attempts, undefined);
  });

  // Each reaches for a non-loopback address from a run without network: refused with ENETUNREACH (or a failed
  // lookup), counted by the kernel in the run's own network namespace, and the command's exit 0 does not stand.
  const reaches: Array<[string, string, RegExp, RegExp]> = [
    [
      'a TCP connect to 1.2.3.4',
      `node -e "require('net').connect(80,'1.2.3.4').on('error',e=>console.log('TCP',e.code))"`,
      /TCP ENETUNREACH/,
      /\(IPv4 1, IPv6 0\)/,
    ],
    [
      'a UDP datagram to 8.8.8.8',
      `node -e "const s=require('dgram').createSocket('udp4');s.send('x',53,'8.8.8.8',e=>{console.log('UDP',e&&e.code);s.close()})"`,
      /UDP ENETUNREACH/,
      /\(IPv4 1, IPv6 0\)/,
    ],
    [
      'a name lookup',
      `node -e "require('dns').lookup('example.com',e=>console.log('DNS',e&&e.code))"`,
      /DNS E/,
      /\(IPv4 [1-9]\d*, IPv6 0\)/,
    ],
    [
      'an IPv6 connect',
      `node -e "require('net').connect(80,'2001:db8::1').on('error',e=>console.log('TCP6',e.code))"`,
      /TCP6 ENETUNREACH/,
      /\(IPv4 0, IPv6 1\)/,
    ],
  ];
  for (const [what, reach, refused, counted] of reaches) {
    test(`${what} is a network attempt: tampered, though the command exited 0`, async () => {
      const { result, untouched } = await contained({ command: `${reach}; node --test` });
      assert.match(result.output, refused, 'the sandbox refused it');
      assert.equal(result.verdict, 'tampered', result.reason);
      assert.equal(
        result.verdictBeforeTampering,
        'fail',
        'the command exited 0; the observation made it fail',
      );
      assert.equal(result.exitCode, 87);
      assert.deepEqual(
        result.attempts?.map((a) => a.kind),
        ['network'],
      );
      assert.match(result.attempts?.[0]?.target ?? '', counted);
      assert.match(
        result.reason ?? '',
        /attempts: t: tried to reach the network: \d+ outbound connection attempts?/,
      );
      assert.ok(untouched);
    });
  }

  test('an honest run on loopback makes no network attempt: its own server, localhost, npm test', async () => {
    const { result } = await contained({
      command: [
        `node -e "const h=require('http');const s=h.createServer((q,r)=>r.end('own')).listen(0,'127.0.0.1',()=>h.get('http://localhost:'+s.address().port,r=>r.on('data',d=>{console.log('OWN',String(d));s.close()})))"`,
        `node -e "require('dns').lookup('localhost',(e,a)=>console.log('LOCALHOST',e?e.code:a))"`,
        'npm test',
      ].join(' && '),
      files: {
        'package.json': JSON.stringify({ name: 't', version: '1.0.0', scripts: { test: 'node --test' } }),
      },
    });
    assert.match(result.output, /OWN own/);
    assert.match(result.output, /LOCALHOST (127\.0\.0\.1|::1)/);
    assert.equal(result.verdict, 'pass', `${result.reason ?? ''}\n${result.output}`);
    assert.equal(result.attempts, undefined);
  });

  const write = (files: number, mib: number, how: 'head' | 'fallocate' = 'head'): string =>
    Array.from({ length: files }, (_, i) =>
      how === 'head'
        ? `head -c ${mib * 1024 * 1024} /dev/zero > out${i}.bin`
        : `fallocate -l ${mib}M out${i}.bin`,
    ).join(' && ');

  test('a run that writes past the checkout write cap in files each under the file limit is tampered', async () => {
    // 4 × (cap / 3): every file is far below RLIMIT_FSIZE, only the total is over.
    const { result } = await contained({ command: `${write(4, 10)} && node --test`, writeCapMiB: 30 });
    assert.equal(result.verdict, 'tampered', result.reason);
    assert.equal(result.verdictBeforeTampering, 'pass');
    assert.deepEqual(
      result.attempts?.map((a) => `${a.kind} ${a.target}`),
      ['write-cap 40 MiB written into the checkout (cap 30 MiB)'],
    );
    assert.match(result.reason ?? '', /went past the checkout's write cap/);
  });

  test('the default cap is 1 GiB: 4 × 400 MiB is tampered (allocated, so the disk is not written)', async () => {
    const { result } = await contained({ command: `${write(4, 400, 'fallocate')} && node --test` });
    assert.equal(result.verdict, 'tampered', `${result.reason ?? ''}\n${result.output}`);
    assert.deepEqual(
      result.attempts?.map((a) => `${a.kind} ${a.target}`),
      ['write-cap 1600 MiB written into the checkout (cap 1024 MiB)'],
    );
  });

  test('an honest run writing under the cap passes', async () => {
    const { result } = await contained({ command: `${write(2, 10)} && node --test`, writeCapMiB: 30 });
    assert.equal(result.verdict, 'pass', `${result.reason ?? ''}\n${result.output}`);
    assert.equal(result.attempts, undefined);
  });

  test('renaming, deleting or replacing a protected file by a link fails inside', async () => {
    const { result, untouched } = await contained({
      command: [
        'mv test/t.test.js test/moved.js',
        'rm -f test/helper.js',
        'ln -sf /etc/passwd test/helper.js',
        'rm -rf .weave',
        'ls test/t.test.js test/helper.js .weave/specs.json && node --test',
      ].join('; '),
    });
    assert.equal((result.output.match(/Device or resource busy/g) ?? []).length >= 3, true, result.output);
    assert.equal(result.verdict, 'pass', result.reason);
    assert.equal(result.tampered, undefined);
    assert.ok(untouched);
  });

  test('adding a new test file of its own is not tampering', async () => {
    const { result } = await contained({
      command: `echo "require('node:test')('mine', () => {});" > test/extra.test.js && node --test`,
    });
    assert.equal(result.verdict, 'pass', result.reason);
  });

  test("the user's repository is hidden and read-only; writes outside the checkout fail or vanish", async () => {
    const outside = path.join(os.homedir(), `weave-escape-${process.pid}`);
    const tmpFile = path.join(os.tmpdir(), `weave-escape-${process.pid}`);
    const probe = await makeRepo({ 'marker.txt': 'here' });
    repos.push(probe);
    const { result, repo, untouched } = await contained({
      command: [
        `ls -A "${probe}" | wc -l`,
        `echo x > "${outside}" 2>/dev/null && echo WROTE-HOME`,
        `echo x > "${tmpFile}" && echo WROTE-TMP`,
        `echo x > "${probe}/marker.txt" 2>/dev/null && echo WROTE-REPO`,
        'node --test',
      ].join('; '),
    });
    assert.ok(untouched);
    assert.equal(result.verdict, 'pass', result.reason);
    assert.doesNotMatch(result.output, /WROTE-HOME|WROTE-REPO/);
    assert.match(result.output, /WROTE-TMP/, 'a private /tmp is writable');
    await assert.rejects(fs.access(outside));
    await assert.rejects(fs.access(tmpFile), 'the private /tmp vanished with the run');
    assert.equal(await fs.readFile(path.join(probe, 'marker.txt'), 'utf8'), 'here');
    assert.ok(repo);
  });

  test('no network by default (a private loopback works); host network only when allowed', async (t) => {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('reached');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => server.close());
    const port = (server.address() as { port: number }).port;
    const fetchIt = `node -e "require('http').get('http://127.0.0.1:${port}/x', r => r.on('data', d => console.log(String(d)))).on('error', e => console.log('NET', e.code))"`;
    const ownServer = `node -e "const s=require('http').createServer((q,r)=>r.end('own')).listen(0,'127.0.0.1',()=>require('http').get('http://127.0.0.1:'+s.address().port,r=>r.on('data',d=>{console.log('OWN',String(d));s.close()})))"`;

    const none = await contained({ command: `${fetchIt}; ${ownServer}; node --test` });
    assert.match(none.result.output, /NET ECONNREFUSED/);
    assert.match(none.result.output, /OWN own/);
    assert.deepEqual(hits, []);

    const host = await contained({ command: `${fetchIt}; node --test`, network: 'host' });
    assert.match(host.result.output, /reached/);
    assert.deepEqual(hits, ['/x']);
  });

  test("the environment is an allowlist plus the spec's env: no credentials", async () => {
    const saved = { ...process.env };
    process.env.OPENAI_API_KEY = 'sk-leak-test-1';
    process.env.WEAVE_API_KEY = 'leak-test-2';
    process.env.AWS_SECRET_ACCESS_KEY = 'leak-test-3';
    try {
      const { result } = await contained({
        command: 'env; node --test',
        env: { SPEC_OWN: 'from-the-spec' },
      });
      assert.match(result.output, /SPEC_OWN=from-the-spec/);
      assert.match(result.output, /^PATH=/m);
      assert.doesNotMatch(result.output, /leak-test|OPENAI_API_KEY|WEAVE_API_KEY|AWS_SECRET/);
    } finally {
      for (const name of ['OPENAI_API_KEY', 'WEAVE_API_KEY', 'AWS_SECRET_ACCESS_KEY']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });

  test("the checkout's own .git is read-only and has no pointer home", async () => {
    const { result } = await contained({
      command:
        'git rev-parse --git-common-dir; echo "[core]" >> .git/config 2>/dev/null && echo WROTE-GIT; cat .git/HEAD; node --test',
    });
    assert.equal(result.verdict, 'pass', result.reason);
    assert.match(result.output, /^\.git$/m, 'the repository is the checkout’s own');
    assert.doesNotMatch(result.output, /WROTE-GIT/);
  });

  test('an explicit opt-out runs unsandboxed and says so', async () => {
    const { result } = await contained({ command: 'node --test', forceUnsandboxed: true });
    assert.equal(result.sandboxed, false);
    assert.equal(result.verdict, 'pass');
  });
});
