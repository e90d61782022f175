// What a task records about the project: the base image for its runtime, its version, its set-up commands —
// from the files real projects keep them in.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detectRuntime, projectVersion } from '../../../src/core/tasks/projectFacts';
import { environmentSetupCommands } from '../../../src/core/tasks/environmentSetup';

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

  it('sets up from lockfiles, lockfile-less package.json, pyproject and tox deps (pip into a venv)', async () => {
    const setup = (files: Record<string, string>) => withTree(files, environmentSetupCommands);
    const venv =
      'python3 -m venv --system-site-packages --without-pip .weave-venv && ' +
      '{ .weave-venv/bin/python -m pip --version >/dev/null 2>&1 || .weave-venv/bin/python -m ensurepip --default-pip; }';
    const pip = '.weave-venv/bin/python -m pip install';
    assert.deepEqual(await setup({ 'package.json': '{"dependencies":{"a":"1"}}', 'yarn.lock': '' }), [
      'yarn install --frozen-lockfile',
    ]);
    assert.deepEqual(await setup({ 'package.json': '{"devDependencies":{"a":"1"}}' }), [
      'npm install --no-audit --no-fund',
    ]);
    assert.deepEqual(await setup({ 'package.json': '{"name":"no-deps"}' }), []);
    assert.deepEqual(await setup({ 'pyproject.toml': '[project]\ndependencies = ["attrs"]\n' }), [
      venv,
      `${pip} -e .`,
    ]);
    assert.deepEqual(
      await setup({ 'pyproject.toml': '[project]\n[project.optional-dependencies]\ntest = ["pytest"]\n' }),
      [venv, `${pip} -e '.[test]'`],
    );
    assert.deepEqual(await setup({ 'pyproject.toml': '[project]\nname = "bare"\n' }), []);
    assert.deepEqual(
      await setup({
        'tox.ini':
          '[tox]\nenvlist = py\n\n[testenv]\ndeps =\n    pytest>=7\n    -r requirements-test.txt\ncommands = pytest\n',
      }),
      [venv, `${pip} 'pytest>=7' -r requirements-test.txt`],
    );
  });
});
