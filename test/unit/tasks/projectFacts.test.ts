// What a task records about the project: the base image for its runtime, its version, its set-up commands —
// from the files real projects keep them in.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detectRuntime, projectVersion } from '../../../src/core/tasks/projectFacts';
import {
  environmentSetupCommands,
  toxEnvironmentsOfCommands,
  type SetupChoices,
} from '../../../src/core/tasks/environmentSetup';

const VENV =
  'python3 -m venv --system-site-packages --without-pip .weave-venv && ' +
  '{ .weave-venv/bin/python -m pip --version >/dev/null 2>&1 || .weave-venv/bin/python -m ensurepip --default-pip; }';
const PIP = '.weave-venv/bin/python -m pip install';

async function withTree<T>(files: Record<string, string>, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-facts-'));
  try {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    return await fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('project facts', () => {
  it('picks the Node image from .nvmrc, else engines.node, else 22', async () => {
    const image = (files: Record<string, string>) =>
      withTree(files, async (d) => (await detectRuntime(d)).image);
    assert.equal(await image({ 'package.json': '{}', '.nvmrc': 'v20.11.1\n' }), 'node:20-bookworm');
    assert.equal(await image({ 'package.json': '{"engines":{"node":">=24"}}' }), 'node:24-bookworm');
    assert.equal(
      await image({ 'package.json': '{"engines":{"node":"^20.10 || >=22"}}' }),
      'node:20-bookworm',
    );
    assert.equal(await image({ 'package.json': '{"name":"x"}' }), 'node:22-bookworm');
  });

  it('picks the Python image from requires-python, else 3.12', async () => {
    const image = (files: Record<string, string>) =>
      withTree(files, async (d) => (await detectRuntime(d)).image);
    assert.equal(
      await image({ 'pyproject.toml': '[project]\nrequires-python = ">=3.10"\n' }),
      'python:3.10-slim',
    );
    assert.equal(await image({ 'tox.ini': '[tox]\n' }), 'python:3.12-slim');
    assert.equal(await image({ 'lib.py': 'x = 1\n' }), 'python:3.12-slim');
  });

  it('reads the version from package.json, pyproject or __version__', async () => {
    const version = (files: Record<string, string>) => withTree(files, projectVersion);
    assert.equal(await version({ 'package.json': '{"version":"3.1.4"}' }), '3.1.4');
    assert.equal(await version({ 'pyproject.toml': '[project]\nname = "a"\nversion = "1.2.0"\n' }), '1.2.0');
    assert.equal(await version({ 'pyproject.toml': '[tool.poetry]\nversion = "0.9.1"\n' }), '0.9.1');
    assert.equal(await version({ 'src/pkg/__init__.py': '__version__ = "4.5.6"\n' }), '4.5.6');
    assert.equal(await version({ 'single.py': "__version__: str = '7.0'\n" }), '7.0');
    assert.equal(await version({ 'pyproject.toml': 'not [valid toml' }), '0.0.0');
  });

  it('sets up from lockfiles, lockfile-less package.json and pyproject (pip into a venv), skipping install scripts', async () => {
    const none = { specCommands: [], allowInstallScripts: false };
    const setup = (files: Record<string, string>, choices: SetupChoices = none) =>
      withTree(files, (dir) => environmentSetupCommands(dir, choices));
    assert.deepEqual(await setup({ 'package.json': '{"dependencies":{"a":"1"}}', 'yarn.lock': '' }), [
      'yarn install --frozen-lockfile --ignore-scripts',
    ]);
    assert.deepEqual(await setup({ 'package.json': '{"devDependencies":{"a":"1"}}' }), [
      'npm install --no-audit --no-fund --ignore-scripts',
    ]);
    assert.deepEqual(
      await setup(
        { 'package.json': '{"devDependencies":{"a":"1"}}', 'package-lock.json': '{}' },
        { specCommands: [], allowInstallScripts: true },
      ),
      ['npm ci'],
    );
    // The project's own build at install time still runs, by name; its dependencies' scripts do not.
    assert.deepEqual(
      await setup({
        'package.json': '{"scripts":{"prepare":"tsc","test":"mocha"},"devDependencies":{"a":"1"}}',
        'package-lock.json': '{}',
      }),
      ['npm ci --ignore-scripts', 'npm run prepare'],
    );
    assert.deepEqual(await setup({ 'package.json': '{"name":"no-deps"}' }), []);
    assert.deepEqual(await setup({ 'pyproject.toml': '[project]\ndependencies = ["attrs"]\n' }), [
      VENV,
      `${PIP} -e .`,
    ]);
    assert.deepEqual(
      await setup({ 'pyproject.toml': '[project]\n[project.optional-dependencies]\ntest = ["pytest"]\n' }),
      [VENV, `${PIP} -e '.[test]'`],
    );
    assert.deepEqual(await setup({ 'pyproject.toml': '[project]\nname = "bare"\n' }), []);
  });

  it('installs tox deps and extras only for the tox environments a spec command runs', async () => {
    const toxIni =
      '[tox]\nenvlist = py, lint\n\n[testenv]\ndeps =\n    pytest>=7\n    pytest-cov\n    -r requirements-test.txt\n' +
      'extras = test\ncommands = pytest --cov\n\n[testenv:lint]\ndeps = no-such-linter==9.9\nskip_install = true\n';
    const setup = (...specCommands: string[]) =>
      withTree({ 'tox.ini': toxIni }, (dir) =>
        environmentSetupCommands(dir, { specCommands, allowInstallScripts: false }),
      );
    // No spec runs tox: none of its deps (pytest-cov, the linter no index has) is installed.
    assert.deepEqual(await setup('python3 -m pytest -q tests/test_a.py'), []);
    assert.deepEqual(await setup('tox -e py -- tests/test_a.py'), [
      VENV,
      `${PIP} -e '.[test]'`,
      `${PIP} 'pytest>=7' pytest-cov -r requirements-test.txt`,
    ]);
    assert.deepEqual(await setup('tox -elint'), [VENV, `${PIP} no-such-linter==9.9`]);
    // A bare `tox` runs the envlist.
    assert.deepEqual(await setup('cd pkg && tox'), [
      VENV,
      `${PIP} -e '.[test]'`,
      `${PIP} 'pytest>=7' pytest-cov -r requirements-test.txt no-such-linter==9.9`,
    ]);
  });

  it('reads which tox environments commands run', () => {
    assert.deepEqual(toxEnvironmentsOfCommands(['tox -e a,b', 'tox --env c'], ['x']), ['a', 'b', 'c']);
    assert.deepEqual(toxEnvironmentsOfCommands(['python -m tox'], ['x', 'y']), ['x', 'y']);
    assert.deepEqual(toxEnvironmentsOfCommands(['.venv/bin/tox r'], ['x', 'y']), ['x', 'y']);
    assert.deepEqual(toxEnvironmentsOfCommands(['pytest -q toxic_test.py'], ['x']), []);
  });
});
