// The attacks the last review reproduced against a sandbox run by root (as CI runs Weave), each as the code under
// test would try it from inside a spec test: remount the checkout read-write, unmount /proc to reach the host's,
// connect to a unix socket elsewhere on the machine, read credential files, plant links for the guard's restore to
// follow, rewrite another spec's test while it runs, fill /tmp, fork 2,000 processes, write a huge file. Each must
// fail inside, leave the user's files and every file outside the checkout byte-identical, and end in an honest
// verdict (`error (resource limit: …)` for the limits). Real bubblewrap, real processes, as the user Weave runs as.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { runSpecs } from '../../../src/core/check/runSpecs';
import type { SpecResult } from '../../../src/core/check/types';
import { WORKING_TREE, withCopiedWorkspace } from '../../../src/core/workspace';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from '../../../src/core/sandbox/resourceLimits';
import { loadSpecFile } from '../../../src/core/spec/load';
import { makeRepo, snapshot } from '../../support/gitRepo';
import { processesRunning } from './processes';

const PASSING_TEST = "require('node:test')('ok', () => {});\n";
const MIB = 1024 * 1024;

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function scratchDir(prefix: string): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

interface Attack {
  /** Spec id → its command; each spec's test file is test/<id>.test.js (passing). */
  specs: Record<string, string>;
  limits?: SandboxLimits;
}

/** Runs the specs contained (sandbox, guard) in a standalone checkout of a fresh repository. */
async function attack(a: Attack): Promise<{ results: SpecResult[]; untouched: boolean }> {
  const ids = Object.keys(a.specs);
  const specFile = {
    version: 1,
    goal: 'containment as root',
    specs: ids.map((id) => ({
      id,
      title: id,
      kind: 'security',
      statement: 's',
      test: { command: a.specs[id], files: [`test/${id}.test.js`] },
    })),
  };
  const files: Record<string, string> = {
    '.weave/specs.json': JSON.stringify(specFile, null, 2),
    'test/helper.js': 'module.exports = 1;\n',
  };
  for (const id of ids) files[`test/${id}.test.js`] = PASSING_TEST;
  const repo = await makeRepo(files);
  cleanups.push(() => fs.rm(repo, { recursive: true, force: true }));
  const before = await snapshot(repo);
  const loaded = await loadSpecFile(repo);
  assert.ok(loaded.ok);
  const results = await withCopiedWorkspace(
    repo,
    { kind: 'standalone', ref: WORKING_TREE, contain: { specFile: loaded.specFile, ...{ network: 'none' } } },
    async (checkout) => {
      const { containment } = checkout;
      assert.ok(containment.sandbox, 'bubblewrap must work on this machine');
      if (a.limits) containment.sandbox.limits = a.limits;
      return runSpecs({ workspaceDir: checkout.dir, specFile: loaded.specFile, containment });
    },
  );
  const untouched = JSON.stringify([...(await snapshot(repo))]) === JSON.stringify([...before]);
  return { results, untouched };
}

function only(results: SpecResult[]): SpecResult {
  assert.equal(results.length, 1);
  return results[0] as SpecResult;
}

describe('a sandbox started by root holds against code that tries root things', () => {
  test('the code runs unprivileged: no capability, no_new_privs, not root', async () => {
    const { results } = await attack({
      specs: { t: 'id -u; grep -E "^(CapEff|CapPrm|CapBnd|NoNewPrivs):" /proc/self/status; node --test' },
    });
    const r = only(results);
    assert.equal(r.verdict, 'pass', r.reason);
    assert.doesNotMatch(r.output, /^0$/m, 'not uid 0');
    for (const cap of ['CapEff', 'CapPrm', 'CapBnd']) assert.match(r.output, new RegExp(`${cap}:\\s+0+\\b`));
    assert.match(r.output, /NoNewPrivs:\s+1/);
  });

  test('remounting the checkout read-write, unmounting /proc or /tmp, a nested namespace: all fail; the test write is an attempt', async () => {
    const { results, untouched } = await attack({
      specs: {
        t: [
          'umount -l /tmp && echo UNMOUNTED-TMP',
          'umount -l /proc && echo UNMOUNTED-PROC',
          'mount --bind "$PWD" "$PWD" && echo BOUND',
          'mount -o remount,bind,rw "$PWD/test/t.test.js" && echo REMOUNTED',
          // A user namespace of its own gives capabilities over its own mounts only: the binds stay locked.
          'unshare -rm sh -c \'mount -o remount,bind,rw "$PWD/test/t.test.js" && echo NESTED-REMOUNT; echo x > "$PWD/test/t.test.js" && echo NESTED-WROTE\'',
          'echo x > test/t.test.js && echo WROTE',
          'node --test',
        ].join('; '),
      },
    });
    const r = only(results);
    assert.doesNotMatch(r.output, /UNMOUNTED-TMP|UNMOUNTED-PROC|BOUND|REMOUNTED/);
    // The protected test is a writable scratch copy (attemptObservation.ts): the writes land there, from the
    // nested namespace too, and are the attempt; the checkout's file and the user's tree never change.
    assert.equal(r.verdict, 'tampered', r.reason);
    assert.deepEqual(
      r.attempts?.map((a) => `${a.kind} ${a.target}`),
      ['protected-write test/t.test.js'],
    );
    assert.equal(r.tampered, undefined);
    assert.ok(untouched);
  });

  test("no other process's /proc: the host's pids, environ and namespaces are not there", async () => {
    process.env.WEAVE_ROOT_ATTACK_SECRET = 'in-weave-only';
    cleanups.push(async () => {
      delete process.env.WEAVE_ROOT_ATTACK_SECRET;
    });
    const { results } = await attack({
      specs: {
        t: [
          `ls /proc/${process.pid} >/dev/null 2>&1 && echo SEES-WEAVE`,
          'cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n" | grep -c WEAVE_ROOT_ATTACK_SECRET',
          `nsenter --net=/proc/${process.pid}/ns/net true 2>/dev/null && echo NSENTER`,
          'node --test',
        ].join('; '),
      },
    });
    const r = only(results);
    assert.doesNotMatch(r.output, /SEES-WEAVE|NSENTER/);
    assert.match(r.output, /^0$/m, 'no environ holds the secret');
  });

  test('a listening unix socket outside the checkout cannot be reached', async () => {
    const dir = await scratchDir('weave-socket-');
    const socketPath = path.join(dir, 'agent.sock');
    const accepted: string[] = [];
    const server = net.createServer((c) => {
      accepted.push('connection');
      c.end();
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const connect = `require('net').connect(${JSON.stringify(socketPath)}).on('connect', () => console.log('CONNECTED')).on('error', (e) => console.log('REFUSED ' + e.code))`;
    const { results } = await attack({
      specs: { t: `node -e ${JSON.stringify(connect)}; ls /run /var/run 2>&1 | head -2; node --test` },
    });
    const r = only(results);
    assert.match(r.output, /REFUSED ENOENT/);
    assert.doesNotMatch(r.output, /CONNECTED/);
    assert.deepEqual(accepted, []);
    assert.match(r.output, /\/run.*No such file/);
  });

  test('credential files are not there: no home folder, and stores inside a shown toolchain are masked', async () => {
    // A home of its own for this test, holding the stores the attacker printed and a toolchain (~/.cargo) on PATH.
    const home = await scratchDir('weave-home-');
    const stores = [
      '.claude/.credentials.json',
      '.codex/auth.json',
      '.config/github-copilot/hosts.json',
      '.kaggle/kaggle.json',
      '.vault-token',
      '.pgpass',
      '.bash_history',
    ];
    for (const store of stores) {
      await fs.mkdir(path.dirname(path.join(home, store)), { recursive: true });
      await fs.writeFile(path.join(home, store), 'SECRET-IN-HOME');
    }
    await fs.mkdir(path.join(home, '.cargo', 'bin'), { recursive: true });
    await fs.writeFile(path.join(home, '.cargo', 'credentials.toml'), 'SECRET-IN-TOOLCHAIN');
    await fs.chmod(home, 0o755);
    const saved = { HOME: process.env.HOME, PATH: process.env.PATH };
    process.env.HOME = home;
    process.env.PATH = `${path.join(home, '.cargo', 'bin')}:${saved.PATH}`;
    try {
      const { results } = await attack({
        specs: {
          t: [
            `cat ${stores.map((s) => `${home}/${s}`).join(' ')} ${home}/.cargo/credentials.toml 2>/dev/null`,
            `echo "LISTED $(ls -A ${home} | tr '\\n' ' ')"`,
            'echo "HOME=$HOME $(ls -A "$HOME" | wc -l)"',
            `ls -d ${home}/.cargo/bin && echo TOOLCHAIN-SHOWN`,
            'node --test',
          ].join('; '),
        },
      });
      const r = only(results);
      assert.doesNotMatch(r.output, /SECRET-IN/);
      assert.match(r.output, /LISTED \.cargo \n/, 'only the shown toolchain is in the home folder');
      assert.match(r.output, /HOME=\/tmp\/home 0\n/, 'a private, empty HOME');
      assert.match(r.output, /TOOLCHAIN-SHOWN/);
      assert.equal(r.verdict, 'pass', r.reason);
    } finally {
      process.env.HOME = saved.HOME;
      process.env.PATH = saved.PATH;
    }
  });

  test("the guard's restore never follows a link the code planted: another project stays byte-identical", async () => {
    const other = await scratchDir('weave-other-project-');
    await fs.mkdir(path.join(other, 'test'));
    await fs.writeFile(path.join(other, 'test', 't.test.js'), 'OTHER PROJECT\n');
    await fs.writeFile(path.join(other, 'test', 'helper.js'), 'OTHER HELPER\n');
    const otherBefore = await snapshot(other);
    const { results, untouched } = await attack({
      specs: {
        t: `node --test; mv test test.old && ln -s ${other}/test test && echo SWAPPED; exit 0`,
      },
    });
    const r = only(results);
    assert.match(r.output, /SWAPPED/, 'the swap itself is possible: test/ is an ordinary folder');
    assert.equal(r.verdict, 'tampered', r.reason);
    assert.ok(r.tampered?.some((f) => f.path === 'test/t.test.js'));
    assert.deepEqual([...(await snapshot(other))], [...otherBefore], 'the other project is untouched');
    assert.ok(untouched);
  });

  test("one spec cannot rewrite another spec's test while the batch runs: it writes its own copy, an attempt", async () => {
    const { results } = await attack({
      specs: {
        a: `echo "require('node:test')('forged', () => {});" > test/b.test.js; cat test/b.test.js; node --test test/a.test.js`,
        b: 'node --test test/b.test.js',
      },
    });
    const a = results.find((r) => r.id === 'a');
    const b = results.find((r) => r.id === 'b');
    // Each run sees scratch copies of its own: a's write changed a's copy only.
    assert.equal(a?.verdict, 'tampered', a?.reason);
    assert.deepEqual(
      a?.attempts?.map((t) => `${t.kind} ${t.target}`),
      ['protected-write test/b.test.js'],
    );
    assert.equal(b?.verdict, 'pass', b?.reason);
    assert.doesNotMatch(b?.output ?? '', /forged/);
    assert.equal(b?.attempts, undefined);
    assert.ok(results.every((r) => r.tampered === undefined));
  });

  test('a full /tmp is `error (resource limit)`, not a failure', async () => {
    const { results } = await attack({
      limits: { ...DEFAULT_SANDBOX_LIMITS, tmpBytes: 16 * MIB },
      specs: { t: 'for i in 1 2 3 4 5; do head -c 8M /dev/zero > /tmp/fill$i || exit 1; done; node --test' },
    });
    const r = only(results);
    assert.equal(r.verdict, 'error');
    assert.match(r.reason ?? '', /resource limit: \/tmp is full \(16 MiB\)/);
  });

  test('a file past the size limit is `error (resource limit)`', async () => {
    const { results, untouched } = await attack({
      limits: { ...DEFAULT_SANDBOX_LIMITS, fileSizeBytes: 1 * MIB },
      specs: { t: 'head -c 4M /dev/zero > big.bin && node --test' },
    });
    const r = only(results);
    assert.equal(r.verdict, 'error');
    assert.match(r.reason ?? '', /resource limit: a file larger than 1 MiB/);
    assert.ok(untouched);
  });

  test('2,000 processes: the fork bomb is stopped at the limit, said so, its children are attempts, and nothing survives', async () => {
    const token = `9${process.pid}`;
    const { results } = await attack({
      limits: { ...DEFAULT_SANDBOX_LIMITS, processes: 64 },
      specs: { t: `i=0; while [ $i -lt 2000 ]; do sleep ${token} & i=$((i+1)); done; node --test` },
    });
    const r = only(results);
    // The sleeps still running when the shell gave up are processes left behind: evidence, so `tampered`, with
    // what stopped the bomb kept in the reason and the children counted, not listed one clause each. The limit
    // counts the sandbox user's processes (RLIMIT_NPROC), so when other contained runs of this layer hold most of
    // it, the bomb may start none before it is stopped: then nothing is left and the run is `error`.
    assert.match(r.reason ?? '', /resource limit: more than 64 processes/);
    const attempts = r.attempts ?? [];
    if (attempts.length === 0) {
      assert.equal(r.verdict, 'error', r.reason);
    } else {
      assert.equal(r.verdict, 'tampered', r.reason);
      assert.equal(r.verdictBeforeTampering, 'error', r.reason);
      assert.ok(
        attempts.every((a) => a.kind === 'process-left' && /: sleep$/.test(a.target)),
        r.reason,
      );
      if (attempts.length > 3) {
        assert.match(
          r.reason ?? '',
          /t: left \d+ processes running after its command finished \(sleep ×\d+\)/,
        );
      }
    }
    assert.deepEqual(processesRunning(`sleep ${token}`), []);
  });

  test('a run that eats memory is killed at its own limit and is `error (resource limit: memory)`', async (t) => {
    // The limit is a cgroup of the run's own, which only root may create (CI runs as root). The eater stops by
    // itself at 512 MiB, so without the limit this test fails instead of exhausting the machine.
    t.diagnostic(`running as uid ${process.getuid?.() ?? '?'}`);
    const eat = 'const a = []; for (let i = 0; i < 512; i++) a.push(Buffer.alloc(1 << 20, 1));';
    const { results } = await attack({
      limits: { ...DEFAULT_SANDBOX_LIMITS, memoryBytes: 96 * MIB },
      specs: { t: `node -e ${JSON.stringify(eat)} && node --test` },
    });
    const r = only(results);
    assert.equal(r.verdict, 'error');
    assert.match(r.reason ?? '', /resource limit: more than 96 MiB of memory/);
  });
});
