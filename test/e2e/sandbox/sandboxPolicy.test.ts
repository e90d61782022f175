// The one sandbox decision (sandboxPolicy.ts), on a machine without bubblewrap: agent and prediction code is refused
// with the way to opt out that its surface offers, and runs unsandboxed, with the reason, only after that opt-out;
// the user's own commands run without a PID namespace. Each case is a fresh Node process whose PATH has no bwrap
// (detectSandbox probes once per process).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';

const MODULE = path.resolve(__dirname, '../../../src/core/sandbox/sandboxPolicy.js');

/** What `expression` (awaited, with `policy` the module) gives in a process without bwrap on its PATH. */
function withoutBwrap(expression: string, env: Record<string, string> = {}): unknown {
  const script = `
    const policy = require(${JSON.stringify(MODULE)});
    (async () => {
      try { console.log(JSON.stringify({ value: await (${expression}) ?? null })); }
      catch (error) { console.log(JSON.stringify({ error: error.name, message: error.message })); }
    })();`;
  const out = execFileSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
    env: { PATH: '/nonexistent-weave-test', ...env },
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '');
}

describe('the sandbox decision where bubblewrap is missing', () => {
  test('agent code through the CLI or editor: refused, pointing at --no-sandbox and the setting', () => {
    const refused = withoutBwrap(`policy.requireSandbox('flags')`) as { error: string; message: string };
    assert.equal(refused.error, 'SandboxUnavailableError');
    assert.match(refused.message, /^bubblewrap \(bwrap\) is not installed/);
    assert.match(refused.message, /pass --no-sandbox \(VS Code: setting weave\.sandbox\.allowUnsandboxed\)/);
    assert.deepEqual(withoutBwrap(`policy.requireSandbox('flags', { allowUnsandboxed: true })`), {
      value: {
        sandboxed: false,
        reason: 'bubblewrap (bwrap) is not installed: `apt-get install bubblewrap`',
      },
    });
  });

  test('predictions in eval and export: refused unless WEAVE_ALLOW_UNSANDBOXED=1, which flags cannot stand in for', () => {
    const refused = withoutBwrap(`policy.requireSandbox('environment', { allowUnsandboxed: true })`) as {
      message: string;
    };
    assert.match(refused.message, /set WEAVE_ALLOW_UNSANDBOXED=1 to run them unsandboxed anyway/);
    const allowed = withoutBwrap(`policy.requireSandbox('environment')`, { WEAVE_ALLOW_UNSANDBOXED: '1' });
    assert.deepEqual((allowed as { value: { sandboxed: boolean } }).value.sandboxed, false);
  });

  test('turned off explicitly: unsandboxed with that reason, and the user’s own commands get no PID namespace', () => {
    assert.deepEqual(withoutBwrap(`policy.requireSandbox('flags', { forceUnsandboxed: true })`), {
      value: { sandboxed: false, reason: 'the sandbox was turned off (--no-sandbox)' },
    });
    assert.deepEqual(withoutBwrap(`policy.userCommandLauncher()`), { value: null });
  });
});
