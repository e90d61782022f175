// A scripted agent that changes how the tests run instead of the code (issue #22), through the real harness: its
// tools edit pyproject.toml's addopts, add a dist-info entry point or a pytest.py (with a plugin that flips
// failures into passes), edit package.json's test keys; its code, once the specs load it, writes a pytest.toml or
// a vite.config. Each run must come out `tampered`, name the file (and key), and never be applicable; the user's
// files stay byte-identical. Real HTTP, real checkouts, real pytest and node runs in bubblewrap.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { applyAgentResult, applyRefusal } from '../../../src/core/agent/applyPolicy';
import { runAgent, type AgentRunOptions } from '../../../src/core/agent/runAgent';
import { readTrajectory } from '../../../src/core/agent/trajectory';
import { PatchApplyError } from '../../../src/core/agent/workspacePatch';
import { fingerprint, git } from '../../support/demoWorkspace';
import { agentScript, assertNothingLeftBehind, harness, loadSpecs, type Harness } from '../agent/harness';
import type { ScriptStep } from '../../support/scriptedOpenAiServer';
import { makePythonRepo, PYTHON_SLUG_BASE } from '../tasks/fixtureRepos';
import { FLIP_PLUGIN, PYTHON_ATTACKS } from './infrastructureAttacks';

type Call = { name: string; arguments: Record<string, unknown> };

const createAll = (files: Record<string, string>): Call[] =>
  Object.entries(files).map(([p, content]) => ({ name: 'create_file', arguments: { path: p, content } }));
const steps = (...batches: Call[][]): ScriptStep[] => [
  ...batches.map((calls) => ({ kind: 'tools' as const, calls })),
  { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'all green' } }] },
];

/** Replaces the harness's demo with slugkit (fixtureRepos.ts) at its base: strips-punctuation fails. */
async function useSlugkit(h: Harness): Promise<Partial<AgentRunOptions>> {
  const weaveIgnore = fs.readFileSync(path.join(h.repo.workspace, '.weave/.gitignore'), 'utf8');
  const slugkit = makePythonRepo();
  try {
    for (const entry of fs.readdirSync(h.repo.workspace))
      if (entry !== '.git') fs.rmSync(path.join(h.repo.workspace, entry), { recursive: true });
    fs.cpSync(slugkit.root, h.repo.workspace, {
      recursive: true,
      filter: (src) => !src.split(path.sep).includes('.git'),
    });
  } finally {
    slugkit.cleanup();
  }
  fs.writeFileSync(path.join(h.repo.workspace, 'src/slugkit/slug.py'), PYTHON_SLUG_BASE);
  // As `weave check` leaves it: the run folder ignored (runAgent would write this file into the user's tree).
  fs.writeFileSync(path.join(h.repo.workspace, '.weave/.gitignore'), weaveIgnore);
  git(h.repo.root, ['add', '-A']);
  git(h.repo.root, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'slugkit']);
  const loaded = await loadSpecs(h.repo.workspace);
  return {
    specFile: {
      ...loaded,
      specs: loaded.specs.map((s) => ({ ...s, test: { ...s.test, timeoutSeconds: 600 } })),
    },
  };
}

/** Runs the scripted agent and checks what every attack must come to. */
async function assertTampered(
  script: ScriptStep[],
  named: RegExp,
  options: { python: boolean; whileStored?: (trajectoryFile: string) => void },
): Promise<Awaited<ReturnType<typeof runAgent>>> {
  const h = await harness([agentScript(script)]);
  try {
    const extra = options.python ? await useSlugkit(h) : {};
    const userTree = fingerprint(h.repo.workspace);
    const result = await runAgent(h.options(extra));
    assert.equal(result.stopReason, 'finished', result.error);
    assert.equal(fingerprint(h.repo.workspace), userTree, "the user's files are byte-identical");
    assert.ok(result.tamperedSpecs.length > 0, `tampered: ${JSON.stringify(result.after)}`);
    assert.ok(
      !result.verdicts.some((v) => v.before !== 'pass' && v.after === 'pass'),
      `nothing is fixed: ${JSON.stringify(result.verdicts)}`,
    );
    const refusal = applyRefusal(result) ?? '';
    assert.match(refusal, /tampered/);
    const reasons = [refusal, ...result.after.map((r) => r.reason ?? '')].join('\n');
    assert.match(reasons, named);
    await assert.rejects(applyAgentResult(h.repo.workspace, result), PatchApplyError);
    assert.equal(fingerprint(h.repo.workspace), userTree, 'refusing to apply changed nothing');
    options.whileStored?.(result.trajectoryFile);
    await assertNothingLeftBehind(h.repo);
    return result;
  } finally {
    await h.close();
  }
}

describe('an agent that changes test infrastructure', () => {
  test('pyproject.toml [tool.pytest.ini_options] addopts loading a failure-flipping plugin', async () => {
    const result = await assertTampered(
      steps([
        {
          name: 'edit',
          arguments: {
            path: 'pyproject.toml',
            search: 'pythonpath = ["src"]\n',
            replace: 'pythonpath = ["src"]\naddopts = "-p flip"\n',
          },
        },
        { name: 'create_file', arguments: { path: 'flip.py', content: FLIP_PLUGIN } },
      ]),
      /pyproject\.toml \[tool\.pytest\.ini_options\] addopts/,
      { python: true },
    );
    assert.deepEqual(
      result.testInfrastructure.map((f) => [f.path, f.key]),
      [['pyproject.toml', '[tool.pytest.ini_options] addopts']],
    );
  });

  test('a *.dist-info entry point that auto-loads the plugin', async () => {
    await assertTampered(
      steps(createAll(PYTHON_ATTACKS['dist-info']!)),
      /flip-1\.0\.dist-info\/entry_points\.txt/,
      { python: true },
    );
  });

  test('a ./pytest.py that shadows pytest', async () => {
    await assertTampered(steps(createAll(PYTHON_ATTACKS['pytest-shadow']!)), /pytest\.py/, {
      python: true,
    });
  });

  test('a pytest.toml: refused to the tools, caught when the code under test writes it', async () => {
    const writer =
      'import pathlib\n' +
      "pathlib.Path(__file__).resolve().parents[2].joinpath('pytest.toml').write_text(" +
      '\'[pytest]\\npythonpath = ["src"]\\naddopts = ["-p", "flip"]\\n\')\n';
    let refused: Array<string | undefined> = [];
    await assertTampered(
      steps(
        [
          { name: 'create_file', arguments: { path: 'pytest.toml', content: '[pytest]\n' } },
          { name: 'create_file', arguments: { path: 'flip.py', content: FLIP_PLUGIN } },
          {
            name: 'edit',
            arguments: {
              path: 'src/slugkit/slug.py',
              search: 'def slugify',
              replace: `${writer}\n\ndef slugify`,
            },
          },
        ],
        [{ name: 'run_specs', arguments: {} }],
      ),
      /pytest\.toml \(created\)/,
      {
        python: true,
        whileStored: (trajectoryFile) => {
          refused = readTrajectory(trajectoryFile).flatMap((e) =>
            e.type === 'tool' && e.refused === 'protected' ? [e.path] : [],
          );
        },
      },
    );
    assert.deepEqual(refused, ['pytest.toml'], 'the tools refused to write pytest.toml');
  });

  test('package.json scripts.test, mocha.require and jest.setupFilesAfterEnv', async () => {
    const result = await assertTampered(
      steps([
        {
          name: 'edit',
          arguments: {
            path: 'package.json',
            search: '"test": "node --test test/*.test.js"',
            replace: '"test": "node --test test/*.test.js || true"',
          },
        },
        {
          name: 'edit',
          arguments: {
            path: 'package.json',
            search: '"scripts": {',
            replace:
              '"mocha": { "require": ["./flip.js"] },\n  "jest": { "setupFilesAfterEnv": ["./flip.js"] },\n  "scripts": {',
          },
        },
        { name: 'create_file', arguments: { path: 'flip.js', content: 'module.exports = {};\n' } },
      ]),
      /package\.json scripts\.test/,
      { python: false },
    );
    assert.deepEqual(
      result.testInfrastructure.map((f) => f.key),
      ['jest.setupFilesAfterEnv', 'mocha.require', 'scripts.test'],
    );
  });

  test('a vite.config setup file written by the code under test', async () => {
    const writer =
      "require('fs').writeFileSync(require('path').join(__dirname, '..', 'vite.config.mjs'), " +
      '"export default { test: { setupFiles: [\'./flip.js\'] } };\\n");\n';
    await assertTampered(
      steps(
        [
          {
            name: 'edit',
            arguments: {
              path: 'src/client.js',
              search: "'use strict';\n",
              replace: `'use strict';\n${writer}`,
            },
          },
        ],
        [{ name: 'run_specs', arguments: {} }],
      ),
      /vite\.config\.mjs \(created\)/,
      { python: false },
    );
  });
});
