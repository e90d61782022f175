// The Python tracer's sys.monitoring path (Python >= 3.12), which Debian 12's 3.11 never takes: the tracer
// Weave writes as sitecustomize.py runs under Pyodide's CPython 3.12 (WebAssembly, installed by
// test/vscode/install-tools.sh into the tools folder), on a real workspace folder mounted into it, and what it
// writes is read back by the same reader `weave check` uses. Only the spawning of a Python process with the hook
// on PYTHONPATH is not exercised here: that part is the same on 3.11, where record.test.ts covers it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { readPythonCoverage } from '../../../src/core/coverage/python';
import { SITECUSTOMIZE_PY } from '../../../src/core/coverage/pythonTracer';
import { removeDir, tempDir, writeFiles } from '../../support/repos';
import { PYTHON_PACKAGE } from './fixtures';

const tools = process.env.WEAVE_VSCODE_TOOLS ?? path.join(os.homedir(), '.cache/weave/vscode-tools');
const pyodideDir = path.join(tools, 'pyodide/node_modules/pyodide');

interface Pyodide {
  runPython(code: string): unknown;
  FS: {
    mkdirTree(dir: string): void;
    mount(type: unknown, options: { root: string }, at: string): void;
    filesystems: { NODEFS: unknown };
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

void test('Python 3.12+: the tracer takes sys.monitoring and records the code objects that ran', async () => {
  assert.ok(
    fs.existsSync(path.join(pyodideDir, 'pyodide.asm.wasm')),
    `Pyodide is not installed in ${pyodideDir}: run test/vscode/install-tools.sh`,
  );
  const { loadPyodide } = (await import(pathToFileURL(path.join(pyodideDir, 'pyodide.mjs')).href)) as {
    loadPyodide(options: { indexURL: string }): Promise<Pyodide>;
  };
  const py = await loadPyodide({ indexURL: `${pyodideDir}/` });
  const ws = tempDir('weave-coverage-monitoring-');
  const site = tempDir('weave-coverage-site-');
  dirs.push(ws, site);
  writeFiles(site, { 'sitecustomize.py': SITECUSTOMIZE_PY });
  writeFiles(ws, {
    'slugs/__init__.py': PYTHON_PACKAGE['slugs/__init__.py']!,
    'slugs/core.py': PYTHON_PACKAGE['slugs/core.py']!,
    'run_tests.py': [
      'from slugs import slug, Box',
      '',
      '',
      'def test_all():',
      "    assert slug('A b') == 'a-b'",
      '    assert Box().get() == 42',
      '    assert Box().get() == 42',
      '',
      '',
      'test_all()',
      '',
    ].join('\n'),
  });
  fs.mkdirSync(path.join(ws, 'out'));
  for (const dir of [ws, site]) {
    py.FS.mkdirTree(dir);
    py.FS.mount(py.FS.filesystems.NODEFS, { root: dir }, dir);
  }
  const version = py.runPython(`
import os, sys, atexit
os.environ["WEAVE_COVERAGE_DIR"] = ${JSON.stringify(path.join(ws, 'out'))}
os.environ["WEAVE_COVERAGE_ROOT"] = ${JSON.stringify(ws)}
os.chdir(${JSON.stringify(ws)})
sys.path[:0] = [${JSON.stringify(site)}, ${JSON.stringify(ws)}]
import sitecustomize
tools = [i for i in range(6) if sys.monitoring.get_tool(i) == "weave"]
assert tools, "the tracer did not register a sys.monitoring tool"
assert sys.getprofile() is None, "the tracer fell back to sys.setprofile"
import run_tests
atexit._run_exitfuncs()
"%d.%d" % sys.version_info[:2]
`) as string;
  const [major, minor] = version.split('.').map(Number);
  assert.ok(major === 3 && minor! >= 12, `Python ${version}`);
  const recorded = await readPythonCoverage(path.join(ws, 'out'), ws);
  const names = (file: string): string[] => (recorded.get(file) ?? []).map(([name]) => name).sort();
  // Each code object once (its events are then disabled), `unused` never: sys.monitoring's PY_START.
  assert.deepEqual(names('slugs/core.py'), [
    '<module>',
    'Box',
    'Box.get',
    'logged',
    'logged.<locals>.wrapper',
    'slug',
    'slug.<locals>.<genexpr>',
  ]);
  assert.deepEqual(names('run_tests.py'), ['<module>', 'test_all']);
  assert.deepEqual([...recorded.keys()].sort(), ['run_tests.py', 'slugs/__init__.py', 'slugs/core.py']);
});
