// A launcher whose own set-up failed before the command started (bwrap copying the host's mounts while a Docker
// container stopped: seen in CI) is started again, at most three times in all; a command's own failure never is.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runCommand, type CommandOutcome, type Launcher } from '../../../src/core/process/runCommand';
import { bwrapMountRace } from '../../../src/core/sandbox/launchers';

const RACE =
  `bwrap: Can't bind mount /oldroot/ on /newroot/: Unable to apply mount flags: remount ` +
  `"/newroot/var/lib/docker/overlay2/x-init/merged": Invalid argument`;

/** Fails its first `failures` starts the way bwrap does, then runs the command; counts its starts. */
function flakyLauncher(failures: number): Launcher & { starts: number } {
  const launcher = {
    starts: 0,
    start(command: string) {
      launcher.starts++;
      const script = launcher.starts <= failures ? `cat >&2 <<'EOF'\n${RACE}\nEOF\nexit 1` : command;
      return Promise.resolve({
        file: '/bin/sh',
        args: ['-c', script],
        setupFailed: bwrapMountRace,
        finish: () => Promise.resolve(undefined),
      });
    },
  };
  return launcher;
}

describe('a launcher set-up that raced', () => {
  test('is started again and the command runs once', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-setup-retry-'));
    try {
      const launcher = flakyLauncher(2);
      const outcome = await runCommand({
        command: 'echo ran >> runs; cat runs',
        cwd: dir,
        timeoutMs: 10_000,
        launcher,
      });
      assert.equal(outcome.exitCode, 0, outcome.output);
      assert.equal(outcome.output, 'ran\n');
      assert.equal(launcher.starts, 3);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test('is given up after three starts, with bwrap’s message', async () => {
    const launcher = flakyLauncher(5);
    const outcome = await runCommand({ command: 'true', cwd: os.tmpdir(), timeoutMs: 10_000, launcher });
    assert.equal(outcome.exitCode, 1);
    assert.match(outcome.output, /Unable to apply mount flags/);
    assert.equal(launcher.starts, 3);
  });

  test('is told apart from a command that failed', () => {
    const failed = (exitCode: number, output: string): CommandOutcome => ({
      exitCode,
      signal: null,
      timedOut: false,
      cancelled: false,
      output,
      truncatedBytes: 0,
      durationMs: 1,
    });
    assert.equal(bwrapMountRace(failed(1, `${RACE}\n`)), true);
    assert.equal(bwrapMountRace(failed(1, `not ok 1 - mounts\n${RACE}\n`)), false);
    assert.equal(bwrapMountRace(failed(2, RACE)), false);
    assert.equal(bwrapMountRace(failed(1, 'bwrap: execvp node: No such file or directory')), false);
  });
});
