// tests/weave_reward.py (what scores a Harbor run inside the container) must give the verdicts Weave's own
// parser gives (parseEvalLog → verdictOf → runSpecs' blocking) on the same marker log: every runner summary
// Weave recognises, zero-test runs, exit codes 126/127, timeouts, dependsOn chains, unfinished and forged runs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEvalLog } from '../../../src/core/tasks/run/evalLog';
import { HARBOR_REWARD_SCRIPT } from '../../../src/core/tasks/harbor/harborRewardScript';
import type { TaskSpec } from '../../../src/core/tasks/taskFormat';

const NONCE = 'c0ffee00c0ffee00c0ffee00c0ffee00';

interface Case {
  id: string;
  output: string;
  exit: number;
  timedOut?: boolean;
  seconds?: number;
  dependsOn?: string[];
  /** No end marker: the run stopped inside this spec. */
  unfinished?: boolean;
  /** Only forged markers (no nonce) for this spec. */
  forged?: boolean;
}

const CASES: Case[] = [
  { id: 'node-pass', output: 'ℹ tests 3\nℹ pass 3\nℹ fail 0', exit: 0 },
  { id: 'node-fail', output: '# tests 2\n# pass 1\n# fail 1', exit: 1 },
  { id: 'node-none', output: 'ℹ tests 0\nℹ pass 0\nℹ fail 0', exit: 0 },
  { id: 'pytest-pass', output: '===== 2 passed in 0.12s =====', exit: 0 },
  { id: 'pytest-fail', output: '1 failed, 2 passed in 0.30s', exit: 1 },
  { id: 'pytest-none', output: '===== no tests ran in 0.01s =====', exit: 5 },
  { id: 'pytest-exit0-failed', output: '===== 1 failed in 0.01s =====', exit: 0 },
  { id: 'unittest-pass', output: '....\n' + '-'.repeat(70) + '\nRan 4 tests in 0.001s\n\nOK', exit: 0 },
  // Before Python 3.12 an empty unittest run exits 0; since, it says NO TESTS RAN and exits 5. Neither is a pass.
  { id: 'unittest-none', output: 'Ran 0 tests in 0.000s\n\nOK', exit: 0 },
  { id: 'unittest-none-312', output: 'Ran 0 tests in 0.000s\n\nNO TESTS RAN', exit: 5 },
  { id: 'unittest-all-skipped', output: 'Ran 2 tests in 0.000s\n\nOK (skipped=2)', exit: 0 },
  { id: 'unittest-exit0-failed', output: 'Ran 3 tests in 0.002s\n\nFAILED (failures=1, errors=1)', exit: 0 },
  {
    id: 'unittest-unloaded',
    output:
      'E\nERROR: test_x (unittest.loader._FailedTest.test_x)\nImportError: no module\nRan 1 test in 0.000s\n\nFAILED (errors=1)',
    exit: 1,
  },
  { id: 'jest', output: 'Tests:       1 failed, 2 passed, 3 total', exit: 1 },
  { id: 'jest-none', output: 'No tests found, exiting with code 1', exit: 1 },
  { id: 'vitest', output: '      Tests  2 passed (2)', exit: 0 },
  { id: 'mocha', output: '  3 passing (12ms)\n  1 failing', exit: 1 },
  { id: 'go', output: 'ok  \texample.com/x\t0.01s', exit: 0 },
  { id: 'go-none', output: '?   \texample.com/x\t[no test files]', exit: 0 },
  { id: 'cargo', output: 'test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured', exit: 0 },
  { id: 'tap', output: '1..2\nok 1 a\nnot ok 2 b', exit: 1 },
  { id: 'plain', output: 'done: 5 passed, 0 failed', exit: 0 },
  { id: 'ansi', output: '\u001b[32mℹ tests 1\u001b[0m\nℹ pass 1\nℹ fail 0', exit: 0 },
  { id: 'script-ok', output: 'all good', exit: 0 },
  { id: 'script-bad', output: 'boom', exit: 2 },
  { id: 'not-found', output: 'sh: 1: nosuch: not found', exit: 127 },
  { id: 'not-executable', output: 'sh: 1: ./x: Permission denied', exit: 126 },
  { id: 'timed-out', output: 'waiting', exit: 124, timedOut: true, seconds: 5 },
  { id: 'killed-at-timeout', output: '', exit: 137, seconds: 5 },
  { id: 'dep-ok', output: 'ok', exit: 0, dependsOn: ['node-pass'] },
  { id: 'dep-blocked', output: 'ok', exit: 0, dependsOn: ['node-fail'] },
  { id: 'dep-transitive', output: 'ok', exit: 0, dependsOn: ['dep-blocked'] },
  { id: 'forged', output: '', exit: 0, forged: true },
  { id: 'unfinished', output: 'still going', exit: 0, unfinished: true },
];

function spec(c: Case): TaskSpec {
  return {
    id: c.id,
    title: c.id,
    kind: 'functional',
    statement: '',
    anchors: [],
    dependsOn: c.dependsOn ?? [],
    interactsWith: [],
    test: { command: 'x', files: [], cwd: '.', env: {}, timeoutSeconds: 5 },
  };
}

function markerLog(cases: Case[]): string {
  const lines: string[] = [];
  for (const c of cases) {
    const tag = c.forged ? 'WEAVE' : `WEAVE[${NONCE}]`;
    lines.push(`>>>>> ${tag} SPEC START ${c.id}`, c.output);
    if (c.unfinished) break;
    lines.push(
      `<<<<< ${tag} SPEC END ${c.id} exit=${c.exit} timed_out=${c.timedOut ? 1 : 0} seconds=${c.seconds ?? 0}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

describe('tests/weave_reward.py', () => {
  it('gives the verdicts Weave’s parser gives, case by case', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-reward-'));
    try {
      const specs = CASES.map(spec);
      const log = markerLog(CASES);
      fs.writeFileSync(path.join(dir, 'specs.log'), log);
      fs.writeFileSync(path.join(dir, 'weave_reward.py'), HARBOR_REWARD_SCRIPT);
      fs.writeFileSync(
        path.join(dir, 'specs.json'),
        JSON.stringify({
          FAIL_TO_PASS: ['node-pass'],
          PASS_TO_PASS: ['pytest-pass'],
          specs: specs.map((s) => ({
            id: s.id,
            dependsOn: s.dependsOn,
            timeoutSeconds: s.test.timeoutSeconds,
          })),
        }),
      );
      execFileSync('python3', ['weave_reward.py', 'specs.log', 'specs.json', dir], {
        cwd: dir,
        input: `${NONCE}\n`,
      });
      const python = JSON.parse(fs.readFileSync(path.join(dir, 'verdicts.json'), 'utf8')) as Record<
        string,
        { verdict: string }
      >;
      const weave = parseEvalLog(log, specs, NONCE).specs;
      for (const c of CASES)
        assert.equal(python[c.id]?.verdict, weave[c.id]?.verdict, `${c.id}: ${weave[c.id]?.reason}`);
      // The cases cover every verdict the rules produce, so agreement means something.
      assert.deepEqual(
        new Set(Object.values(weave).map((r) => r.verdict)),
        new Set(['pass', 'fail', 'error', 'blocked']),
      );
      assert.equal(weave['dep-transitive']?.verdict, 'blocked');
      assert.equal(
        python['unittest-none']?.verdict,
        'error',
        'an empty unittest run that exits 0 is no pass',
      );
      assert.equal(python['unittest-exit0-failed']?.verdict, 'fail');
      assert.equal(python['unittest-pass']?.verdict, 'pass');
      assert.equal(weave.forged?.verdict, 'error', 'a forged marker is not a run');
      const rewards = JSON.parse(fs.readFileSync(path.join(dir, 'reward.json'), 'utf8')) as Record<
        string,
        number
      >;
      assert.equal(rewards.reward, 1, 'FAIL_TO_PASS and PASS_TO_PASS specs pass');
      assert.equal(rewards['spec.node-fail'], 0);
      assert.equal(fs.readFileSync(path.join(dir, 'reward.txt'), 'utf8').trim(), '1');
      // Without the nonce nothing counts.
      execFileSync('python3', ['weave_reward.py', 'specs.log', 'specs.json', dir], {
        cwd: dir,
        input: 'wrong\n',
      });
      assert.equal(fs.readFileSync(path.join(dir, 'reward.txt'), 'utf8').trim(), '0');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
