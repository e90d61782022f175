// The Python tracer in processes that end without atexit: multiprocessing.Pool's workers, which its __exit__
// ends with SIGTERM, and a process SIGTERM'd by whoever started it. What they ran is written first, and the
// signal still does what it would have done (a program's own handler still decides).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { readPythonCoverage } from '../../../src/core/coverage/python';
import { executed } from './fixtures';
import { runInstrumented, spec, workspace } from './hookWorkspace';

const WORK = `def square(x):
    return x * x


def in_parent():
    return 1
`;

void test('multiprocessing.Pool workers, ended by SIGTERM when the pool closes, record what they ran', async () => {
  const dir = workspace([spec('pool', 'python3 run_pool.py')], {
    'pkg/__init__.py': '',
    'pkg/work.py': WORK,
    'run_pool.py': [
      'import multiprocessing',
      'from pkg.work import square, in_parent',
      '',
      'if __name__ == "__main__":',
      '    in_parent()',
      '    with multiprocessing.Pool(2) as pool:',
      '        assert pool.map(square, [1, 2, 3]) == [1, 4, 9]',
      '    print("1 passed, 0 failed")',
      '',
    ].join('\n'),
  });
  const result = await checkWorkspace({ workspaceDir: dir, concurrency: 1 });
  const [run] = result.run.results;
  assert.equal(run?.verdict, 'pass', run?.output);
  // square ran only in the workers.
  assert.deepEqual(
    (await executed(dir, 'pool')).filter((label) => label.startsWith('pkg/')),
    ['pkg/work.py#in_parent', 'pkg/work.py#square'],
  );
});

void test('a Python process ended by SIGTERM writes what it ran and still dies of the signal; its own handler still decides', async () => {
  const dir = workspace([], {
    'pkg/__init__.py': '',
    'pkg/work.py': WORK,
    'scripts/terminated.py': [
      'import os, signal, time',
      'from pkg.work import square',
      'square(2)',
      'os.kill(os.getpid(), signal.SIGTERM)',
      'while True:',
      '    time.sleep(1)',
      '',
    ].join('\n'),
    'scripts/handles.py': [
      'import os, signal, sys, time',
      'from pkg.work import in_parent',
      'signal.signal(signal.SIGTERM, lambda *_: (print("handled"), sys.exit(0)))',
      'in_parent()',
      'os.kill(os.getpid(), signal.SIGTERM)',
      'while True:',
      '    time.sleep(1)',
      '',
    ].join('\n'),
  });
  const run = async (script: string, name: string) => {
    const { result: r, dirs } = await runInstrumented(dir, name, 'python3', [script], { PYTHONPATH: '.' });
    const recorded = await readPythonCoverage(dirs.python, dir);
    return { r, functions: (recorded.get('pkg/work.py') ?? []).map(([name]) => name) };
  };
  const terminated = await run('scripts/terminated.py', 'terminated');
  assert.equal(terminated.r.signal, 'SIGTERM', terminated.r.stderr);
  assert.ok(terminated.functions.includes('square'), terminated.functions.join(', '));
  const handles = await run('scripts/handles.py', 'handles');
  assert.equal(handles.r.status, 0, handles.r.stderr);
  assert.equal(handles.r.stdout.trim(), 'handled');
  assert.ok(handles.functions.includes('in_parent'), handles.functions.join(', '));
});
