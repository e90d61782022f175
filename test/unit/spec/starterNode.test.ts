// How `weave init` picks a Node project's test command: the package manager it declares (when this machine has
// it), the runner's focused command for a composite script or a missing manager, the script's options kept for a
// part of a split suite, and the parts themselves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeRunner, type NodeProjectFacts } from '../../../src/core/spec/starter/detectNode';
import { starterSpecs } from '../../../src/core/spec/starter';

const has =
  (...commands: string[]): NodeProjectFacts['hasCommand'] =>
  (name) =>
    commands.includes(name);
const manifest = (fields: Record<string, unknown>): string => JSON.stringify({ name: 'x', ...fields });

void test('the declared package manager runs the test script when this machine has it', () => {
  const script = { scripts: { test: 'vitest run' } };
  const pnpm = nodeRunner(manifest({ ...script, packageManager: 'pnpm@9.1.0' }), {
    lockfiles: [],
    hasCommand: has('npm', 'pnpm'),
  });
  assert.equal(pnpm?.command, 'pnpm test');
  assert.equal(pnpm?.notes, undefined);
  const yarnLock = nodeRunner(manifest(script), { lockfiles: ['yarn.lock'], hasCommand: has('npm', 'yarn') });
  assert.equal(yarnLock?.command, 'yarn test');
  const npm = nodeRunner(manifest({ scripts: { test: 'node --test' } }), {
    lockfiles: ['package-lock.json'],
    hasCommand: has('npm'),
  });
  assert.equal(npm?.command, 'npm test');
});

void test('a manager missing here, or a composite script: the test step through npx, and the notes say why', () => {
  const missing = nodeRunner(manifest({ scripts: { test: 'jest --ci' } }), {
    lockfiles: ['yarn.lock'],
    hasCommand: has('npm'),
  });
  assert.equal(missing?.command, 'npx jest --ci');
  assert.match(missing?.notes?.join('\n') ?? '', /declares yarn \(yarn\.lock\), which is not installed/);
  const composite = nodeRunner(
    manifest({
      scripts: { test: 'tsc --noEmit && eslint . && NODE_ENV=test mocha --timeout=5000 test/**/*.js' },
    }),
    { lockfiles: [], hasCommand: has('npm') },
  );
  assert.equal(composite?.command, 'NODE_ENV=test npx mocha --timeout=5000 test/**/*.js');
  assert.match(composite?.notes?.join('\n') ?? '', /also runs `tsc --noEmit`, `eslint \.`/);
  // A part of the suite keeps the script's --name=value options and drops its file arguments.
  assert.equal(composite?.commandForFile?.('test/a.js'), 'npx mocha --timeout=5000 test/a.js');
  const viaPnpm = nodeRunner(manifest({ scripts: { test: 'pnpm exec vitest run --pool=forks' } }), {
    lockfiles: ['pnpm-lock.yaml'],
    hasCommand: has('npm'),
  });
  assert.equal(viaPnpm?.command, 'npx vitest run --pool=forks');
});

void test('a suite of 4+ files splits by folder for runners that take one, else by file; timing tests apart', () => {
  const base = {
    runner: 'vitest',
    command: 'npx vitest run',
    reason: 'r',
    commandForFile: (f: string) => `npx vitest run ${f}`,
  };
  const three = starterSpecs({ ...base, testFiles: ['t/a.test.js', 't/b.test.js', 'u/c.test.js'] });
  assert.deepEqual(
    three.map((s) => s.id),
    ['test-suite'],
  );
  const four = ['t/a.test.js', 't/b.test.js', 'u/c.test.js', 'u/d.test.js'];
  assert.deepEqual(
    starterSpecs({ ...base, testFiles: four }).map((s) => s.test.command),
    ['npx vitest run t', 'npx vitest run u'],
  );
  const timed = starterSpecs({ ...base, runner: 'mocha', testFiles: four, timingSensitive: ['u/d.test.js'] });
  assert.deepEqual(
    timed.map((s) => [s.kind, s.test.files]),
    [
      ['reliability', ['t/a.test.js']],
      ['reliability', ['t/b.test.js']],
      ['reliability', ['u/c.test.js']],
      ['performance', ['u/d.test.js']],
    ],
  );
});
