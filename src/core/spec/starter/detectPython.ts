// The test command of a Python project: pytest when the project configures or uses it (pytest.ini,
// .pytest.ini, [tool.pytest…] in pyproject.toml, [tool:pytest] in setup.cfg, tox.ini, requirements, a
// conftest.py, tests that import pytest), else unittest when the tests are unittest.TestCase classes. The
// environment the tests need comes from tox.ini's [testenv] setenv ({toxinidir} is the workspace) and, for a
// src layout (src/<pkg>/__init__.py imported by the tests), PYTHONPATH=src. The interpreter is the first of
// the project's virtualenv, python3, /usr/bin/python3, python that can import pytest (or run unittest): a
// starter that names a Python without pytest fails on its first check.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { exists, findTestFiles, readText } from './projectFiles';
import { readAddopts, rewriteAddopts } from './pytestAddopts';
import type { DetectedRunner } from './types';

/** Whether `python` (a command or a path) can import `module`; tests replace it. */
export type PythonProbe = (python: string, module: string, cwd: string) => Promise<boolean>;

const PYTHON_TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test)\.py$/;
/** Test files read to tell pytest-style from unittest-style tests and to find the packages they import. */
const MAX_FILES_READ = 30;

export const canImport: PythonProbe = (python, module, cwd) =>
  new Promise((resolve) => {
    const executable = python.includes('/') ? path.resolve(cwd, python) : python;
    execFile(executable, ['-c', `import ${module}`], { cwd, timeout: 15_000 }, (error) => resolve(!error));
  });

export async function pythonRunner(
  workspaceDir: string,
  probe: PythonProbe = canImport,
): Promise<DetectedRunner | undefined> {
  const project = await readPythonProject(workspaceDir);
  const pytestReason = await pytestEvidence(workspaceDir, project);
  const usesUnittest = project.sources.some((s) =>
    /\bunittest\.TestCase\b|^\s*from\s+unittest\s+import\b/m.test(s),
  );
  if (!pytestReason && !usesUnittest) return undefined;

  const { configs, sources, testFiles } = project;
  const env = {
    ...toxSetenv(configs['tox.ini']),
    ...(await srcLayoutEnv(workspaceDir, sources, configs['tox.ini'], configs['pyproject.toml'])),
  };
  const found: FoundPython = {
    workspaceDir,
    probe,
    candidates: [...(await virtualenvPythons(workspaceDir)), 'python3', '/usr/bin/python3', 'python'],
    withEnv: Object.keys(env).length > 0 ? { env } : {},
    testFiles,
  };
  return pytestReason ? pytestRunner(found, pytestReason, configs) : unittestRunner(found);
}

const PYTEST_CONFIGS = ['pytest.ini', '.pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini'] as const;
type PytestConfigs = Record<(typeof PYTEST_CONFIGS)[number], string | undefined>;

/** The files that say how a Python project tests: its configs, requirements, test files and their sources. */
async function readPythonProject(
  workspaceDir: string,
): Promise<{ configs: PytestConfigs; requirements: string; testFiles: string[]; sources: string[] }> {
  const read = (name: string): Promise<string | undefined> => readText(path.join(workspaceDir, name));
  const texts = await Promise.all(PYTEST_CONFIGS.map(read));
  const configs = Object.fromEntries(PYTEST_CONFIGS.map((name, i) => [name, texts[i]])) as PytestConfigs;
  const requirements = (
    await Promise.all(['requirements-dev.txt', 'requirements-test.txt', 'requirements.txt'].map(read))
  ).join('\n');
  const testFiles = await findTestFiles(workspaceDir, (f) => PYTHON_TEST_FILE.test(f));
  const sources = await Promise.all(
    testFiles.slice(0, MAX_FILES_READ).map(async (f) => (await read(f)) ?? ''),
  );
  return { configs, requirements, testFiles, sources };
}

/** Why this project uses pytest (the first sign found), or undefined. */
async function pytestEvidence(
  workspaceDir: string,
  { configs, requirements, sources }: Awaited<ReturnType<typeof readPythonProject>>,
): Promise<string | undefined> {
  const pyproject = configs['pyproject.toml'];
  const setupCfg = configs['setup.cfg'];
  const toxIni = configs['tox.ini'];
  return (
    (configs['pytest.ini'] !== undefined && 'pytest.ini') ||
    (configs['.pytest.ini'] !== undefined && '.pytest.ini') ||
    (pyproject !== undefined &&
      /^\[tool\.pytest|\bpytest\b/m.test(pyproject) &&
      'pytest in pyproject.toml') ||
    (setupCfg !== undefined && /^\[tool:pytest\]|\bpytest\b/m.test(setupCfg) && 'pytest in setup.cfg') ||
    (toxIni !== undefined && /^\[pytest\]|\bpytest\b/m.test(toxIni) && 'pytest in tox.ini') ||
    (/^\s*pytest\b/im.test(requirements) && 'pytest in requirements') ||
    ((await exists(path.join(workspaceDir, 'conftest.py'))) && 'conftest.py') ||
    (sources.some((s) => /^\s*(?:import|from)\s+pytest\b/m.test(s)) && 'tests that import pytest') ||
    undefined
  );
}

/** What both runners' commands are built from: where Pythons are looked for, and the environment they need. */
interface FoundPython {
  workspaceDir: string;
  probe: PythonProbe;
  candidates: string[];
  withEnv: { env?: Record<string, string> };
  testFiles: string[];
}

async function pytestRunner(
  found: FoundPython,
  reason: string,
  configs: PytestConfigs,
): Promise<DetectedRunner> {
  const { workspaceDir, probe } = found;
  const python = await firstThat(found.candidates, (p) => probe(p, 'pytest', workspaceDir));
  const pytest = `${python ?? 'python3'} -m pytest -q`;
  // Options in addopts of plugins that Python cannot import would make every run a usage error (exit 4).
  const addopts = readAddopts(configs);
  const rewrite =
    python && addopts
      ? await rewriteAddopts(addopts, (module) => probe(python, module, workspaceDir), python)
      : undefined;
  const command = rewrite ? `${pytest} ${rewrite.override}` : pytest;
  return {
    runner: 'pytest',
    command,
    reason: `${reason}${python ? '' : '; no Python found here can import pytest: install it'}`,
    ...found.withEnv,
    ...(rewrite ? { notes: [rewrite.note] } : {}),
    testFiles: found.testFiles,
    commandForFile: (f) => `${command} ${f}`,
  };
}

async function unittestRunner(found: FoundPython): Promise<DetectedRunner> {
  const { workspaceDir, probe, testFiles } = found;
  const python = (await firstThat(found.candidates, (p) => probe(p, 'unittest', workspaceDir))) ?? 'python3';
  const discover = await unittestDiscovery(workspaceDir, testFiles);
  return {
    runner: 'unittest',
    command: `${python} -m unittest ${discover}`,
    reason: 'unittest.TestCase tests and no pytest configuration',
    ...found.withEnv,
    testFiles,
    commandForFile: (f) => `${python} -m unittest ${discover} -p ${path.posix.basename(f)}`,
  };
}

async function virtualenvPythons(workspaceDir: string): Promise<string[]> {
  const found: string[] = [];
  for (const venv of ['.venv', 'venv']) {
    if (await exists(path.join(workspaceDir, venv, 'bin', 'python'))) found.push(`${venv}/bin/python`);
  }
  return found;
}

async function firstThat(
  items: string[],
  test: (item: string) => Promise<boolean>,
): Promise<string | undefined> {
  for (const item of items) if (await test(item)) return item;
  return undefined;
}

/**
 * `discover -s tests` for tests in one folder (`-t .` too when that folder is a package, so its modules import
 * as tests.x); plain `discover` when they sit in the workspace root or several folders.
 */
async function unittestDiscovery(workspaceDir: string, testFiles: string[]): Promise<string> {
  const folders = new Set(testFiles.map((f) => path.posix.dirname(f).split('/')[0] ?? '.'));
  const [only] = folders;
  if (folders.size !== 1 || only === undefined || only === '.') return 'discover';
  const isPackage = await exists(path.join(workspaceDir, only, '__init__.py'));
  return `discover -s ${only}${isPackage ? ' -t .' : ''}`;
}

/** `[testenv] setenv` of tox.ini, with `{toxinidir}` as the workspace; values with other substitutions are dropped. */
export function toxSetenv(toxIni: string | undefined): Record<string, string> {
  if (toxIni === undefined) return {};
  const section = toxIni.match(/^\[testenv\][^\n]*\n([\s\S]*?)(?=^\[|(?![\s\S]))/m)?.[1] ?? '';
  const block = section.match(/^setenv\s*=[ \t]*([^\n]*)\n((?:[ \t]+[^\n]*\n?)*)/m);
  if (!block) return {};
  const env: Record<string, string> = {};
  for (const line of [block[1] ?? '', ...(block[2] ?? '').split('\n')]) {
    const m = line.trim().match(/^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/);
    if (!m?.[1]) continue;
    const value = (m[2] ?? '').trim().replace(/\{toxinidir\}/g, '.');
    if (/[{}]/.test(value)) continue;
    env[m[1]] = value
      .split(/[:;]/)
      .map((p) => (p.startsWith('./') || p === '.' ? path.posix.normalize(p) : p))
      .join(':');
  }
  return env;
}

/** PYTHONPATH=src when tests import a package that lives only under src/ and nothing else puts it on the path. */
async function srcLayoutEnv(
  workspaceDir: string,
  sources: string[],
  toxIni: string | undefined,
  pyproject: string | undefined,
): Promise<Record<string, string>> {
  if (toxSetenv(toxIni).PYTHONPATH !== undefined) return {};
  if (pyproject !== undefined && /^\s*pythonpath\s*=.*\bsrc\b/m.test(pyproject)) return {};
  const entries = await fs.readdir(path.join(workspaceDir, 'src'), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory() || !/^[A-Za-z_]\w*$/.test(entry.name)) continue;
    if (!(await exists(path.join(workspaceDir, 'src', entry.name, '__init__.py')))) continue;
    const imports = new RegExp(`^\\s*(?:from|import)\\s+${entry.name}\\b`, 'm');
    if (sources.some((s) => imports.test(s))) return { PYTHONPATH: 'src' };
  }
  return {};
}
