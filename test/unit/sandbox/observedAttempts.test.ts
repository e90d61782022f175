// What the launcher side reads from a run's output and how the new attempt kinds read: the report line the run's
// shell prints (networkObservation.ts) and describeAttempt's words for connection attempts and the write cap.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectionAttempts } from '../../../src/core/sandbox/networkObservation';
import { describeAttempt, describeAttempts, type Attempt } from '../../../src/shared/attempts';

const REPORT = 'weave: outbound connection attempts refused (IPv4 IPv6):';

describe('connection attempts read from a run', () => {
  it('one attempt entry with both families counted', () => {
    assert.deepEqual(connectionAttempts(`ok\n${REPORT} 2 1\n`), [
      { kind: 'network', target: '3 outbound connection attempts (IPv4 2, IPv6 1)' },
    ]);
    assert.deepEqual(connectionAttempts(`${REPORT} 0 1`), [
      { kind: 'network', target: '1 outbound connection attempt (IPv4 0, IPv6 1)' },
    ]);
  });

  it('no report, a zero report or a garbled one is no attempt', () => {
    assert.deepEqual(connectionAttempts('all good\n'), []);
    assert.deepEqual(connectionAttempts(`${REPORT} 0 0\n`), []);
    assert.deepEqual(connectionAttempts(`${REPORT} many\n`), []);
    assert.deepEqual(connectionAttempts(`  ${REPORT} 1 0\n`), [], 'only a line the shell printed counts');
  });
});

describe('describeAttempt', () => {
  const at = '2026-12-07T18:00:00.000Z';
  it('names the spec and what it tried', () => {
    assert.equal(
      describeAttempt({
        kind: 'network',
        target: '2 outbound connection attempts (IPv4 2, IPv6 0)',
        spec: 's',
        at,
      }),
      's: tried to reach the network: 2 outbound connection attempts (IPv4 2, IPv6 0), refused by the sandbox',
    );
    assert.equal(
      describeAttempt({
        kind: 'write-cap',
        target: '40 MiB written into the checkout (cap 30 MiB)',
        spec: 's',
        at,
      }),
      "s: went past the checkout's write cap: 40 MiB written into the checkout (cap 30 MiB)",
    );
  });
});

describe('describeAttempts', () => {
  const at = '2026-12-07T18:00:00.000Z';
  const left = (spec: string, pid: number, name: string): Attempt => ({
    kind: 'process-left',
    target: `pid ${pid}: ${name}`,
    spec,
    at,
  });
  it('names up to three processes one by one', () => {
    assert.equal(
      describeAttempts([left('a', 4, 'sleep'), left('a', 5, 'node')]),
      'a: left pid 4: sleep running after its command finished; a: left pid 5: node running after its command finished',
    );
  });
  it('counts many processes per spec by name, in place of the first, other attempts kept in order', () => {
    const bomb = [4, 5, 6, 7, 8].map((pid) => left('a', pid, pid === 8 ? 'node' : 'sleep'));
    const write: Attempt = { kind: 'protected-write', target: 't/x.test.js', spec: 'b', at };
    assert.equal(
      describeAttempts([write, ...bomb, left('c', 9, 'sleep')]),
      'b: wrote to protected t/x.test.js; a: left 5 processes running after its command finished (sleep ×4, node ×1); ' +
        'c: left pid 9: sleep running after its command finished',
    );
  });
});
