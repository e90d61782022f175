// checkWorkspace's defaultTimeoutSeconds (the editor's `weave.timeoutSeconds`): it replaces the spec file's
// default timeout, while a spec's own test.timeoutSeconds still wins. Real processes, real timeouts.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { after, describe, it } from 'node:test';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { makeRepo } from '../../support/gitRepo';

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

const sleeper = (id: string, seconds: number, ownTimeout?: number) => ({
  id,
  title: id,
  kind: 'functional',
  statement: `sleeps ${seconds} s`,
  test: {
    command: `sleep ${seconds} && echo "1 passed, 0 failed"`,
    ...(ownTimeout !== undefined ? { timeoutSeconds: ownTimeout } : {}),
  },
});

async function workspace(specs: unknown[]): Promise<string> {
  const repo = await makeRepo({ '.weave/specs.json': JSON.stringify({ version: 1, specs }, null, 2) });
  cleanup.push(repo);
  return repo;
}

describe('checkWorkspace defaultTimeoutSeconds', () => {
  it('replaces the spec file default: a 5 s test with a 1 s default errors with "timed out"', async () => {
    const dir = await workspace([sleeper('slow', 5)]);
    const { run, specFile } = await checkWorkspace({
      workspaceDir: dir,
      defaultTimeoutSeconds: 1,
      record: false,
    });
    const slow = run.results.find((r) => r.id === 'slow');
    // Under the spec file's own default (120 s) the 5 s test passes: "timed out" is the 1 s default applied.
    assert.equal(slow?.verdict, 'error');
    assert.match(slow.reason ?? '', /timed out/);
    assert.equal(specFile.defaults.timeoutSeconds, 1);
  });

  it("leaves a spec's own timeout alone", async () => {
    const dir = await workspace([sleeper('own-timeout', 2, 10), sleeper('default-timeout', 2)]);
    const { run } = await checkWorkspace({ workspaceDir: dir, defaultTimeoutSeconds: 1, record: false });
    const verdicts = Object.fromEntries(run.results.map((r) => [r.id, r.verdict]));
    assert.deepEqual(verdicts, { 'own-timeout': 'pass', 'default-timeout': 'error' });
  });

  it('without it, the spec file default applies', async () => {
    const dir = await workspace([sleeper('short', 1)]);
    const { run, specFile } = await checkWorkspace({ workspaceDir: dir, record: false });
    assert.equal(specFile.defaults.timeoutSeconds, 120);
    assert.equal(run.results[0]?.verdict, 'pass');
  });

  it('rejects a timeout that is not a positive number', async () => {
    const dir = await workspace([sleeper('short', 0)]);
    await assert.rejects(checkWorkspace({ workspaceDir: dir, defaultTimeoutSeconds: 0 }), /greater than 0/);
  });
});
