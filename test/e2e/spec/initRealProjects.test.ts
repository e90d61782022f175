// `weave init` then `weave check` on copies of projects in the shapes real ones have (test/fixtures/init/): a
// src layout with tox.ini setenv, a .pytest.ini single-module library, unittest-only tests, a pyproject src
// layout, an npm test script whose tests require('..') without a lockfile. The starter must PASS on the first
// check, with the test results seen (runner or summary evidence), not on an exit code alone.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { detectTestRunner } from '../../../src/core/spec/starter';
import { canImport, toxSetenv } from '../../../src/core/spec/starter/detectPython';
import { runCli } from './cliRun';
import { FIXTURES } from '../../support/paths';

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

async function copyOf(fixture: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `weave-init-${fixture}-`));
  cleanup.push(dir);
  await fs.cp(path.join(FIXTURES, 'init', fixture), dir, { recursive: true });
  return dir;
}

interface CheckedRun {
  run: { results: Array<{ id: string; verdict: string; evidence: string; reason?: string; output: string }> };
}

async function initAndCheck(fixture: string, ...initArgs: string[]) {
  const dir = await copyOf(fixture);
  const init = await runCli(['init', ...initArgs], dir);
  assert.equal(init.code, 0, init.stderr);
  const specs = await fs.readFile(path.join(dir, '.weave', 'specs.json'), 'utf8');
  const check = await runCli(['check', '--json', '--no-record'], dir);
  const doc = JSON.parse(check.stdout) as CheckedRun;
  for (const r of doc.run.results) {
    assert.equal(r.verdict, 'pass', `${fixture}/${r.id}: ${r.reason ?? ''}\n${specs}\n${r.output}`);
    assert.ok(['runner', 'summary'].includes(r.evidence), `${r.id} passed on ${r.evidence} evidence`);
  }
  assert.equal(check.code, 0, check.stderr);
  return { specs, results: doc.run.results };
}

describe('weave init on real project shapes, then weave check', () => {
  it('src layout + tox.ini setenv PYTHONPATH={toxinidir}/src: pytest with PYTHONPATH=src', async () => {
    const { specs, results } = await initAndCheck('py-src-tox');
    assert.match(specs, /"command": "\S*python3? -m pytest -q"/);
    assert.match(specs, /"env": \{\s*"PYTHONPATH": "src"\s*\}/);
    assert.match(specs, /"files": \[\s*"tests\/test_ops\.py"\s*\]/);
    assert.equal(results[0]?.evidence, 'runner');
  });

  it('.pytest.ini with a single-module library', async () => {
    const { specs } = await initAndCheck('py-dot-pytest-ini');
    assert.match(specs, /Test runner detected: pytest \(\.pytest\.ini\)/);
  });

  it('.pytest.ini addopts = --cov=pkg -q without pytest-cov: the command drops --cov=pkg, keeps -q, says why', async () => {
    const python = 'python3';
    const hasCov = await canImport(python, 'pytest_cov', os.tmpdir());
    const dir = await copyOf('py-cov-addopts');
    if (!hasCov) {
      // The shape is broken as the project stands: pytest stops on the unknown option (usage error, exit 4).
      const asIs = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
        cwd: dir,
        encoding: 'utf8',
      });
      assert.equal(asIs.status, 4, asIs.stderr);
    }
    const { specs } = await initAndCheck('py-cov-addopts');
    if (hasCov) {
      assert.doesNotMatch(specs, /-o addopts/);
    } else {
      assert.match(specs, /"command": "\S*python3? -m pytest -q -o addopts=-q"/);
      assert.match(
        specs,
        /\/\/ addopts in \.pytest\.ini names pytest-cov, which \S*python3? cannot import: the command overrides addopts without --cov=pkg\./,
      );
    }
  });

  it('pyproject src layout without any path setting: PYTHONPATH=src from the imports', async () => {
    const { specs } = await initAndCheck('py-src-layout');
    assert.match(specs, /"PYTHONPATH": "src"/);
  });

  it('unittest-only tests and no pytest configuration: python -m unittest discover', async () => {
    const { specs, results } = await initAndCheck('py-unittest');
    assert.match(specs, /"command": "\S*python3? -m unittest discover -s tests"/);
    assert.equal(results[0]?.evidence, 'runner');
  });

  it('an npm test script whose tests require("..") in a package without a lockfile: npm test', async () => {
    const { specs, results } = await initAndCheck('js-npm-test');
    assert.match(specs, /"command": "npm test"/);
    assert.match(specs, /"files": \[\s*"test\/greet\.test\.js"\s*\]/);
    assert.equal(results[0]?.evidence, 'runner');
  });

  it('--per-file writes one passing spec per test file', async () => {
    const { results, specs } = await initAndCheck('py-unittest', '--per-file');
    assert.deepEqual(
      results.map((r) => r.id),
      ['tests-test-more', 'tests-test-shapes'],
    );
    assert.match(specs, /-m unittest discover -s tests -p test_more\.py"/);
  });
});

describe('python interpreter choice', () => {
  it('takes the first Python that can import pytest, and says so when none can', async () => {
    const dir = await copyOf('py-dot-pytest-ini');
    const asked: string[] = [];
    const onlySystem = await detectTestRunner(dir, async (python, module) => {
      asked.push(`${python}:${module}`);
      return python === '/usr/bin/python3';
    });
    assert.equal(onlySystem.command, '/usr/bin/python3 -m pytest -q');
    assert.deepEqual(asked, ['python3:pytest', '/usr/bin/python3:pytest']);
    const none = await detectTestRunner(dir, async () => false);
    assert.equal(none.command, 'python3 -m pytest -q');
    assert.match(none.reason, /no Python found here can import pytest: install it/);
  });

  it("reads tox.ini's [testenv] setenv, single-line and multi-line, dropping what it cannot resolve", () => {
    assert.deepEqual(
      toxSetenv(
        '[tox]\nenvlist = py3\n\n[testenv]\nsetenv =\n    PYTHONPATH = {toxinidir}/src\n    MODE=test\n    HOME = {envtmpdir}\ncommands = pytest\n\n[testenv:lint]\nsetenv = X = 1\n',
      ),
      { PYTHONPATH: 'src', MODE: 'test' },
    );
    assert.deepEqual(toxSetenv('[testenv]\nsetenv = PYTHONPATH={toxinidir}\n'), { PYTHONPATH: '.' });
    assert.deepEqual(toxSetenv(undefined), {});
  });
});
