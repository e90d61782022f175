// `weave export --from-history` over a Python library's history: two fixing commits and a refactor give two
// verified tasks (SWE-bench and Harbor shapes, one dataset line each) and one "no task" with its reason.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { evaluate } from '../../../src/core/tasks/eval/evalTasks';
import { runHarborContract } from '../../../src/core/tasks/harbor/harborContract';
import { CLI, type DemoRepo } from '../../support/demoRepo';
import { makePythonHistoryRepo } from './fixtureRepos';

interface HistoryJson {
  commit: string;
  subject: string;
  task?: { instance_id: string; FAIL_TO_PASS: string[]; harbor_dir: string; out: string };
  skipped?: string;
}

describe('weave export --from-history', () => {
  let repo: DemoRepo;
  let out: string;
  let entries: HistoryJson[];

  before(() => {
    const history = makePythonHistoryRepo();
    repo = history.repo;
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-history-'));
    const stdout = execFileSync(
      process.execPath,
      [
        CLI,
        'export',
        '--from-history',
        `${history.base}..HEAD`,
        '--out',
        out,
        '--dataset',
        path.join(out, 'dataset.jsonl'),
        '--json',
      ],
      { cwd: repo.root, encoding: 'utf8' },
    );
    entries = JSON.parse(stdout) as HistoryJson[];
  });

  after(() => {
    repo.cleanup();
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('turns each fixing commit into a task and says why the refactor yields none', () => {
    assert.deepEqual(
      entries.map((e) => e.subject),
      ['strip punctuation', 'refactor: name the pattern', 'limit slugs to 50 characters'],
    );
    assert.deepEqual(entries[0]?.task?.FAIL_TO_PASS, ['strips-punctuation']);
    assert.deepEqual(entries[2]?.task?.FAIL_TO_PASS, ['max-length']);
    assert.equal(entries[1]?.task, undefined);
    assert.match(entries[1]?.skipped ?? '', /no spec goes from fail to pass/);
    const lines = fs.readFileSync(path.join(out, 'dataset.jsonl'), 'utf8').trim().split('\n');
    assert.equal(lines.length, 2);
  });

  it('writes both shapes: SWE-bench tasks that resolve their gold patch, Harbor tasks whose oracle scores 1', async () => {
    const tasks = entries.flatMap((e) => (e.task ? [e.task] : []));
    for (const task of tasks) {
      assert.equal(path.dirname(task.out), path.join(out, 'tasks'));
      assert.equal(path.dirname(task.harbor_dir), path.join(out, 'harbor'));
    }
    const report = await evaluate({ taskDirs: [path.join(out, 'tasks')], gold: true, workers: 2 });
    assert.equal(report.resolved_instances, 2, JSON.stringify(report.instances));
    const oracle = await runHarborContract({
      harborDir: tasks[1]?.harbor_dir as string,
      oracle: true,
      timeoutMs: 240_000,
    });
    assert.equal(oracle.reward, 1, oracle.output);
  });
});
