// Bad-input tests for the process runner: hanging commands, floods, missing commands, cancellation.
// Every assertion about processes is made by pid, on the real process table.
import assert from 'node:assert/strict';
import { until } from '../../support/polling';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCommand } from '../../../src/core/process/runCommand';
import { isProcessAlive, treeOutlivesExit } from '../../../src/core/process/processTree';
import { spawn } from 'node:child_process';

let dir: string;
before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-run-'));
});
after(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function readPids(file: string, count: number): Promise<number[]> {
  return until(
    `${count} pids in ${file}`,
    async () => {
      const text = await fs.readFile(file, 'utf8').catch(() => '');
      const pids = text.split(/\s+/).filter(Boolean).map(Number);
      return pids.length >= count ? pids : undefined;
    },
    { timeoutMs: 5000, intervalMs: 20 },
  );
}

function alive(pids: number[]): number[] {
  return pids.filter(isProcessAlive);
}

describe('runCommand', () => {
  it('runs with shell semantics, in cwd, with the spec env over process.env', async () => {
    const out = await runCommand({
      command: 'echo "$WEAVE_TEST_VALUE" && pwd && echo to-stderr 1>&2; exit 3',
      cwd: dir,
      env: { WEAVE_TEST_VALUE: 'hello world' },
      timeoutMs: 10_000,
    });
    assert.equal(out.exitCode, 3);
    assert.equal(out.timedOut, false);
    assert.match(out.output, /^hello world\n/);
    assert.ok(out.output.includes(await fs.realpath(dir)));
    assert.ok(out.output.includes('to-stderr'));
  });

  it('kills a hanging command at the timeout, with its whole process tree', async () => {
    const pidFile = path.join(dir, 'hang.pids');
    const started = Date.now();
    const out = await runCommand({
      // The shell, two background sleeps and a foreground one: four processes, all must die.
      command: `sleep 1000 & echo $! >> ${pidFile}; sleep 1000 & echo $! >> ${pidFile}; echo $$ >> ${pidFile}; sleep 1000`,
      cwd: dir,
      timeoutMs: 700,
      killGraceMs: 500,
    });
    const elapsed = Date.now() - started;
    assert.equal(out.timedOut, true);
    assert.ok(elapsed < 5000, `returned after ${elapsed} ms`);
    const pids = await readPids(pidFile, 3);
    assert.deepEqual(alive(pids), [], 'no process of the tree survives');
  });

  it('kills a daemon that escaped with setsid after its parent exited', async () => {
    const pidFile = path.join(dir, 'daemon.pids');
    const out = await runCommand({
      // setsid: new session and group, and the intermediate shell exits so the daemon is re-parented.
      command: `sh -c 'setsid sleep 1000 & echo $! > ${pidFile}'; sleep 1000`,
      cwd: dir,
      timeoutMs: 700,
      killGraceMs: 300,
    });
    assert.equal(out.timedOut, true);
    const [daemon] = await readPids(pidFile, 1);
    assert.deepEqual(alive([daemon as number]), []);
  });

  it('kills a process that left the tree after the kill began (no marker, own session, ignores SIGTERM)', async () => {
    const pidFile = path.join(dir, 'stubborn.pids');
    const out = await runCommand({
      // While the shell lives this process is its child; SIGTERM kills the shell, and the process, re-parented,
      // in a session of its own and with no marker in its environment, is found by nothing but having been seen.
      // (So does a sandboxed command look once bubblewrap is killed.)
      command: `env -i setsid sh -c 'trap "" TERM; exec sleep 1000' & echo $! > ${pidFile}; sleep 1000`,
      cwd: dir,
      timeoutMs: 700,
      killGraceMs: 300,
    });
    assert.equal(out.timedOut, true);
    const [stubborn] = await readPids(pidFile, 1);
    assert.deepEqual(alive([stubborn as number]), []);
  });

  it('leaves nothing running after a normal exit either', async () => {
    const pidFile = path.join(dir, 'leftover.pids');
    const out = await runCommand({
      command: `sleep 1000 & echo $! > ${pidFile}; exit 0`,
      cwd: dir,
      timeoutMs: 10_000,
      killGraceMs: 300,
    });
    assert.equal(out.exitCode, 0);
    const [background] = await readPids(pidFile, 1);
    assert.deepEqual(alive([background as number]), []);
  });

  it('waits for a process of the tree that is still exiting instead of killing it, and still kills one that stays', async () => {
    // What bubblewrap leaves behind each run: its namespace's init, still exiting after bwrap itself has. A
    // process that ends within the settling time is not a survivor (no SIGTERM reaches it); one that stays is.
    const markerFile = path.join(dir, 'settle.marker');
    const exiting = spawn('/bin/sh', ['-c', `trap 'echo TERM > ${markerFile}' TERM; sleep 0.02; exit 0`], {
      detached: true,
      stdio: 'ignore',
    });
    const pid = exiting.pid as number;
    await until('the shell started', async () => (isProcessAlive(pid) ? true : undefined), {
      timeoutMs: 5000,
      intervalMs: 5,
    });
    assert.equal(await treeOutlivesExit(pid, 'no-marker', undefined, 5000), false);
    assert.equal(await fs.readFile(markerFile, 'utf8').catch(() => 'no signal'), 'no signal');
    const staying = spawn('sleep', ['1000'], { detached: true, stdio: 'ignore' });
    const stayingPid = staying.pid as number;
    try {
      assert.equal(await treeOutlivesExit(stayingPid, 'no-marker', undefined, 50), true);
    } finally {
      process.kill(stayingPid, 'SIGKILL');
    }
  });

  it('caps a 100 MB flood, keeping head and tail, with bounded memory', async () => {
    const cap = 64 * 1024;
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 10);
    const out = await runCommand({
      command: `echo FIRST-LINE; head -c 100000000 /dev/zero | tr '\\0' 'x'; echo; echo LAST-LINE`,
      cwd: dir,
      timeoutMs: 60_000,
      outputCapBytes: cap,
    }).finally(() => clearInterval(sampler));
    assert.equal(out.exitCode, 0);
    assert.ok(out.output.startsWith('FIRST-LINE\n'));
    assert.ok(out.output.trimEnd().endsWith('LAST-LINE'));
    const kept = Buffer.byteLength(out.output);
    assert.ok(kept <= 2 * cap + 200, `kept ${kept} bytes`);
    const total = 'FIRST-LINE\n'.length + 100_000_000 + '\nLAST-LINE\n'.length;
    assert.equal(out.truncatedBytes, total - 2 * cap);
    // Keeping the flood would cost ≥ 100 MB (bytes) — ≥ 200 MB as a string. Node 24 keeps ~70 MB of transient
    // chunk garbage ungathered during the run (measured; 20 needed < 60), so the bound is "less than one copy".
    const growth = rssPeak - rssBefore;
    assert.ok(growth < 95 * 1024 * 1024, `RSS grew by ${Math.round(growth / 1024 / 1024)} MB`);
  });

  it('reports a missing command as exit 127 with the shell message', async () => {
    const out = await runCommand({
      command: 'weave-no-such-command-xyz --flag',
      cwd: dir,
      timeoutMs: 10_000,
    });
    assert.equal(out.exitCode, 127);
    assert.match(out.output, /weave-no-such-command-xyz.*not found/);
  });

  it('reports a missing working directory without starting anything', async () => {
    const out = await runCommand({ command: 'true', cwd: path.join(dir, 'nope'), timeoutMs: 10_000 });
    assert.equal(out.exitCode, null);
    assert.match(out.spawnError ?? '', /working directory does not exist: .*nope/);
  });

  it('cancels through an AbortSignal and kills the whole tree', async () => {
    const pidFile = path.join(dir, 'abort.pids');
    const controller = new AbortController();
    const running = runCommand({
      command: `sleep 1000 & echo $! >> ${pidFile}; echo $$ >> ${pidFile}; sleep 1000`,
      cwd: dir,
      timeoutMs: 60_000,
      signal: controller.signal,
      killGraceMs: 300,
    });
    const pids = await readPids(pidFile, 2);
    controller.abort();
    const out = await running;
    assert.equal(out.cancelled, true);
    assert.equal(out.timedOut, false);
    assert.deepEqual(alive(pids), []);
  });

  it('cancels a run whose abort came while its launcher was still preparing it', async () => {
    // The sandbox's launcher is awaited after runCommand's first look at the signal: an abort in that window
    // (another run of the same export was killed first) has fired already, so the run must see it on its own.
    const pidFile = path.join(dir, 'late-abort.pids');
    const controller = new AbortController();
    const out = await runCommand({
      command: `echo $$ >> ${pidFile}; sleep 1000`,
      cwd: dir,
      timeoutMs: 60_000,
      signal: controller.signal,
      killGraceMs: 300,
      launcher: {
        start: (command) => {
          controller.abort();
          return Promise.resolve({
            file: '/bin/sh',
            args: ['-c', command],
            finish: () => Promise.resolve(undefined),
          });
        },
      },
    });
    assert.equal(out.cancelled, true);
    assert.equal(out.timedOut, false);
    const text = await fs.readFile(pidFile, 'utf8').catch(() => '');
    assert.deepEqual(alive(text.split(/\s+/).filter(Boolean).map(Number)), []);
  });

  it('escalates to SIGKILL when a process ignores SIGTERM', async () => {
    const pidFile = path.join(dir, 'stubborn.pids');
    const out = await runCommand({
      command: `sh -c 'trap "" TERM; echo $$ > ${pidFile}; while :; do sleep 0.05; done'`,
      cwd: dir,
      timeoutMs: 500,
      killGraceMs: 300,
    });
    assert.equal(out.timedOut, true);
    const [stubborn] = await readPids(pidFile, 1);
    assert.deepEqual(alive([stubborn as number]), []);
  });
});
