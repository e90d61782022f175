// A verb stopped by a signal exits 128 + the signal once it has cleaned up, even when what it was doing failed
// because it was stopped (a run cancelled just before it could start): the stop is the outcome, not a bug.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trapInterrupts } from '../../../src/cli/interrupt';
import { runVerb, type Verb } from '../../../src/cli/verb';
import { stderrOfAsync } from '../../support/stderrCapture';

const failing = (message: string): Verb => ({
  name: 'probe',
  summary: '',
  help: '',
  run: () => Promise.reject(new Error(message)),
});

test('an error after SIGINT stopped the verb exits 130 and says it was stopped; before any stop it stays a bug', async () => {
  await assert.rejects(runVerb(failing('boom'), []), /boom/);
  const interrupt = trapInterrupts('probe', 'stopping…');
  try {
    process.emit('SIGINT', 'SIGINT');
    const { stderr, value: code } = await stderrOfAsync(() =>
      runVerb(failing('could not start eval.sh: cancelled before it started'), []),
    );
    assert.equal(code, 130);
    assert.match(stderr, /weave probe: stopped \(could not start eval\.sh: cancelled before it started\)/);
  } finally {
    interrupt.dispose();
  }
});
