// An agent run's attempts: its spec runs' (the sandbox's observation, carried on each result) and its tools'
// refused edits of protected files, read from the trajectory, once per path, in time order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AttemptLog } from '../../../src/core/agent/agentAttempts';
import type { TimedEvent } from '../../../src/core/agent/trajectory';
import type { SpecResult } from '../../../src/core/check/types';
import type { SpecFile } from '../../../src/shared/specSchema';

const specFile = {
  version: 1,
  goal: 'g',
  specs: [{ id: 'sec', kind: 'security', test: { files: ['test/sec.test.js'] } }],
} as unknown as SpecFile;

function refused(at: string, file: string, refusal: 'protected' | 'outside'): TimedEvent {
  return {
    type: 'tool',
    step: 1,
    callId: 'c',
    name: 'edit_file',
    arguments: '{}',
    ok: false,
    refused: refusal,
    path: file,
    result: 'refused',
    durationMs: 1,
    at,
    elapsedMs: 1,
  };
}

test("spec runs' attempts and the tools' refused protected edits, once per path, in time order", () => {
  const log = new AttemptLog();
  const run = {
    id: 'sec',
    verdict: 'tampered',
    attempts: [{ kind: 'process-left', target: 'pid 9: sleep', spec: 'sec', at: '2026-12-07T15:00:02.000Z' }],
  } as unknown as SpecResult;
  log.add([run, { id: 'other', verdict: 'pass' } as unknown as SpecResult]);
  const events = [
    refused('2026-12-07T15:00:01.000Z', 'test/sec.test.js', 'protected'),
    refused('2026-12-07T15:00:03.000Z', 'test/sec.test.js', 'protected'),
    refused('2026-12-07T15:00:04.000Z', 'conftest.py', 'protected'),
    refused('2026-12-07T15:00:05.000Z', '../elsewhere.js', 'outside'),
  ];
  assert.deepEqual(
    log.all(events, specFile).map((a) => `${a.at.slice(17, 19)} ${a.kind} ${a.target} ${a.spec}`),
    [
      '01 protected-edit-refused test/sec.test.js sec',
      '02 process-left pid 9: sleep sec',
      '04 protected-edit-refused conftest.py ',
    ],
  );
  assert.deepEqual(new AttemptLog().all([], specFile), []);
});
