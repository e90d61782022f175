// The Debug profile's plan for a spec: a `node` launch configuration over the spec's own command for Node, debugpy
// for Python when it is installed, and a clear message otherwise.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { debugPlanOf, debugRuntimeOf } from '../../../src/core/check/debugLaunch';
import type { Spec } from '../../../src/shared/specSchema';

function spec(command: string, extra: Partial<Spec['test']> = {}): Spec {
  return {
    id: 'add-works',
    title: 't',
    kind: 'functional',
    statement: 's',
    test: { command, files: [], ...extra },
    anchors: [],
    dependsOn: [],
    interactsWith: [],
  } as Spec;
}

const DEFAULTS = { cwd: '.', env: { A: '1' }, timeoutSeconds: 60 };
const NO_PYTHON = { debugpyModule: false, debugType: undefined };

describe('debugRuntimeOf', () => {
  it('tells Node and Python commands apart', () => {
    assert.equal(debugRuntimeOf('node scripts/mark-ran.js x && node --test test/add.test.js'), 'node');
    assert.equal(debugRuntimeOf('npx vitest run -t "cache hit"'), 'node');
    assert.equal(debugRuntimeOf('python3 -m pytest tests/test_a.py'), 'python');
    assert.equal(debugRuntimeOf('pytest -q'), 'python');
    assert.equal(debugRuntimeOf('go test ./...'), 'unknown');
    assert.equal(debugRuntimeOf('shoplint check'), 'unknown');
  });
});

describe('debugPlanOf', () => {
  it('launches the Node command unchanged through a node configuration that follows child processes', () => {
    const plan = debugPlanOf(
      spec('node --test test/add.test.js', { cwd: 'pkg', env: { B: '2' } }),
      DEFAULTS,
      '/ws',
      NO_PYTHON,
    );
    assert.equal(plan.kind, 'launch');
    assert.deepEqual(plan.kind === 'launch' && plan.configuration, {
      type: 'node',
      request: 'launch',
      name: 'Weave: debug add-works',
      cwd: '/ws/pkg',
      env: { A: '1', B: '2' },
      runtimeExecutable: '/bin/sh',
      runtimeArgs: ['-c', 'node --test test/add.test.js'],
      autoAttachChildProcesses: true,
      console: 'internalConsole',
      outputCapture: 'std',
      skipFiles: ['<node_internals>/**'],
    });
  });

  it('runs pytest under debugpy when the module and the debug type are there', () => {
    const plan = debugPlanOf(spec('python3 -m pytest tests/test_a.py -q'), DEFAULTS, '/ws', {
      debugpyModule: true,
      debugType: 'debugpy',
    });
    assert.equal(plan.kind, 'launch');
    if (plan.kind !== 'launch') return;
    assert.equal(plan.configuration['type'], 'debugpy');
    assert.equal(plan.configuration['module'], 'pytest');
    assert.deepEqual(plan.configuration['args'], ['tests/test_a.py', '-q']);
    const script = debugPlanOf(spec('python check.py --fast'), DEFAULTS, '/ws', {
      debugpyModule: true,
      debugType: 'debugpy',
    });
    assert.equal(script.kind === 'launch' && script.configuration['program'], 'check.py');
  });

  it('says what is missing for Python instead of running it plainly', () => {
    const plan = debugPlanOf(spec('pytest tests'), DEFAULTS, '/ws', NO_PYTHON);
    assert.deepEqual(plan, {
      kind: 'unsupported',
      runtime: 'python',
      message:
        'Weave: debugging the Python spec add-works needs the debugpy module (python3 -m pip install debugpy) and the Python Debugger extension (ms-python.debugpy); not installed here. Run it with the Run profile instead.',
    });
    const onlyExtension = debugPlanOf(spec('pytest tests'), DEFAULTS, '/ws', {
      debugpyModule: true,
      debugType: undefined,
    });
    assert.match(
      onlyExtension.kind === 'unsupported' ? onlyExtension.message : '',
      /needs the Python Debugger extension \(ms-python\.debugpy\); not installed/,
    );
  });

  it('explains a Python pipeline and other runtimes', () => {
    const chained = debugPlanOf(spec('cd x && pytest'), DEFAULTS, '/ws', {
      debugpyModule: true,
      debugType: 'debugpy',
    });
    assert.match(chained.kind === 'unsupported' ? chained.message : '', /not one Python module or script/);
    const go = debugPlanOf(spec('go test ./...'), DEFAULTS, '/ws', NO_PYTHON);
    assert.match(go.kind === 'unsupported' ? go.message : '', /Weave debugs Node .* and Python/);
  });
});
