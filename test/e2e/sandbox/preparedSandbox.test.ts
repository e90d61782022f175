// Sandboxed runs started from a bwrap process prepared ahead in its memory cgroup (preparedSandbox.ts) run exactly as
// a freshly spawned one: the same command text, the environment they were given and nothing else (not the variable
// that carried the command), the inherited inputs, the unprivileged uid, and the memory limit of their own group.
// Root only, as CI runs: only root makes memory cgroups, and without one no process is prepared.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { runCommand } from '../../../src/core/process/runCommand';
import { containedEnvironment } from '../../../src/core/sandbox/environment';
import { sandboxLauncher } from '../../../src/core/sandbox/launchers';
import { memoryCgroupsSettled } from '../../../src/core/sandbox/memoryCgroup';
import { preparedHandOvers } from '../../../src/core/sandbox/preparedSandbox';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
  await memoryCgroupsSettled();
});

async function scratch(): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'weave-prepared-')));
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('sandboxed runs handed a prepared process', () => {
  test('run the command as written, with their own environment and inputs, as the sandbox uid', async () => {
    assert.equal(process.getuid?.(), 0, 'this test needs root (memory cgroups)');
    const checkout = await scratch();
    const launcher = sandboxLauncher({ checkout, network: 'none' });
    // Quotes, $0, a newline and a failing last line: the text must reach the shell unchanged.
    const command = [
      `printf '%s|%s|%s|' "$0" "$WEAVE_TEST_VALUE" "\${WEAVE_SANDBOX_COMMAND-unset}"`,
      `id -u; head -c 5 <&3; echo "'single' \\"double\\""`,
      'exit 3',
    ].join('\n');
    const before = preparedHandOvers();
    const outputs: string[] = [];
    for (let i = 0; i < 5; i++) {
      const outcome = await runCommand({
        command,
        cwd: checkout,
        timeoutMs: 30_000,
        baseEnv: containedEnvironment(),
        env: { WEAVE_TEST_VALUE: `run ${i} $HOME 'x'` },
        inheritedInputs: [`key${i}!rest`],
        launcher,
      });
      assert.equal(outcome.exitCode, 3, outcome.output);
      outputs.push(outcome.output);
    }
    // The prepared path must be taken at least once, or this test says nothing about it. How often it is taken is
    // an optimisation that load can defeat (a prepared process idle too long is stopped): bench/sandbox.bench.ts
    // counts that.
    assert.ok(preparedHandOvers() - before >= 1, 'no run was handed a prepared process');
    outputs.forEach((output, i) => {
      assert.equal(output, `/bin/sh|run ${i} $HOME 'x'|unset|65534\nkey${i}!'single' "double"\n`);
    });
  });

  test('keep the memory limit of the run’s own group', async () => {
    const checkout = await scratch();
    const launcher = sandboxLauncher({
      checkout,
      network: 'none',
      limits: { processes: 256, fileSizeBytes: 64 << 20, tmpBytes: 64 << 20, memoryBytes: 96 << 20 },
    });
    // Prepared or freshly spawned (load decides: bench/sandbox.bench.ts counts the hand-overs), every run is held.
    for (let i = 0; i < 3; i++) {
      const outcome = await runCommand({
        command: `node -e "const a = []; for (;;) a.push(Buffer.alloc(16 << 20, 1))"`,
        cwd: checkout,
        timeoutMs: 60_000,
        baseEnv: containedEnvironment(),
        launcher,
      });
      assert.match(outcome.resourceLimit ?? '', /more than 96 MiB of memory/, outcome.output);
    }
  });
});
