// `weave validate` and `weave init` as real processes: exit codes, output, files written.
import test from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpecFile } from '../../../src/core/spec/load';
import { hasStackTrace, runCli } from './cliRun';
import { EXAMPLES } from '../../support/paths';

async function tempWorkspace(files: Record<string, string> = {}): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-init-'));
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content);
  }
  return dir;
}

test('validate: the demo workspace is valid (exit 0, one summary line)', async () => {
  const result = await runCli(['validate', '--workspace', EXAMPLES], os.tmpdir());
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(
    result.stdout,
    /^\S*specs\.json: 8 specs OK \(\d+ dependencies, \d+ declared interactions\)\n$/,
  );
});

test('validate --json prints one JSON document', async () => {
  const good = await runCli(['validate', '--json', '--workspace', EXAMPLES], os.tmpdir());
  assert.equal(good.code, 0);
  const parsed = JSON.parse(good.stdout) as { ok: boolean; specs: number; problems: unknown[] };
  assert.deepEqual([parsed.ok, parsed.specs, parsed.problems.length], [true, 8, 0]);

  const dir = await tempWorkspace({ '.weave/specs.json': '{"version": 2, "specs": []}' });
  try {
    const bad = await runCli(['validate', '--json'], dir);
    assert.equal(bad.code, 2);
    const report = JSON.parse(bad.stdout) as {
      ok: boolean;
      problems: Array<{ path: string; line: number; severity: string }>;
    };
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.problems.filter((p) => p.severity === 'error').map((p) => [p.path, p.line]),
      [['version', 1]],
    );
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('validate and init reject unknown flags and stray arguments with exit code 2', async () => {
  for (const args of [
    ['validate', '--bogus'],
    ['validate', 'extra'],
    ['init', '--workspace'],
    ['init', '--nope'],
  ]) {
    const result = await runCli(args, os.tmpdir());
    assert.equal(result.code, 2, args.join(' '));
    assert.match(result.stderr, new RegExp(`weave ${args[0]}: `));
    assert.equal(hasStackTrace(result.stderr), false);
  }
});

test('help text for both verbs', async () => {
  for (const verb of ['validate', 'init']) {
    const result = await runCli([verb, '--help'], os.tmpdir());
    assert.equal(result.code, 0);
    assert.match(result.stdout, new RegExp(`^Usage: weave ${verb}`));
  }
});

const detection: Array<[string, Record<string, string>, RegExp]> = [
  [
    'node:test script',
    { 'package.json': '{"scripts":{"test":"node --test test/"}}' },
    /"command": "npm test"/,
  ],
  [
    'vitest devDependency',
    { 'package.json': '{"devDependencies":{"vitest":"3.0.0"}}' },
    /"command": "npx vitest run"/,
  ],
  ['jest script', { 'package.json': '{"scripts":{"test":"jest --ci"}}' }, /"command": "npm test"/],
  [
    'mocha devDependency',
    { 'package.json': '{"devDependencies":{"mocha":"11.0.0"}}' },
    /"command": "npx mocha"/,
  ],
  [
    'npm default script',
    { 'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}' },
    /"command": "node --test"/,
  ],
  [
    'pytest',
    { 'pyproject.toml': '[tool.pytest.ini_options]\nminversion = "6.0"\n' },
    // The first Python that can import pytest (python3, else /usr/bin/python3 on this machine).
    /"command": "\S*python3? -m pytest -q"/,
  ],
  ['go', { 'go.mod': 'module example.com/x\n' }, /"command": "go test .\/..."/],
  ['cargo', { 'Cargo.toml': '[package]\nname = "x"\n' }, /"command": "cargo test"/],
  ['nothing', {}, /"command": "echo /],
];

for (const [name, files, command] of detection) {
  test(`init detects the test runner: ${name}`, async () => {
    const dir = await tempWorkspace(files);
    try {
      const result = await runCli(['init'], dir);
      assert.equal(result.code, 0, result.stderr);
      const text = await fs.readFile(path.join(dir, '.weave/specs.json'), 'utf8');
      assert.match(text, command);
      const loaded = await loadSpecFile(dir);
      assert.ok(loaded.ok, 'the starter file is valid');
      assert.match(await fs.readFile(path.join(dir, '.weave/.gitignore'), 'utf8'), /^runs\/$/m);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
}

test('init refuses to overwrite without --force, and keeps existing .gitignore lines', async () => {
  const dir = await tempWorkspace({
    '.weave/specs.json': '{"version": 1, "specs": []} // mine',
    '.weave/.gitignore': 'scratch/',
  });
  try {
    const refused = await runCli(['init', '--workspace', dir], os.tmpdir());
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /already exists; nothing written \(use --force/);
    assert.equal(
      await fs.readFile(path.join(dir, '.weave/specs.json'), 'utf8'),
      '{"version": 1, "specs": []} // mine',
    );

    const forced = await runCli(['init', '--workspace', dir, '--force'], os.tmpdir());
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(await fs.readFile(path.join(dir, '.weave/specs.json'), 'utf8'), /"id": "test-suite"/);
    assert.equal(await fs.readFile(path.join(dir, '.weave/.gitignore'), 'utf8'), 'scratch/\nruns/\n');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('init and validate on a folder that does not exist is bad input', async () => {
  for (const verb of ['init', 'validate']) {
    const missing = path.join(os.tmpdir(), 'weave-no-such-folder-xyz');
    const result = await runCli([verb, '--workspace', missing], os.tmpdir());
    assert.equal(result.code, 2, verb);
    assert.match(result.stderr, /is not a folder/);
  }
});
