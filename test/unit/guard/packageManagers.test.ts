// The package managers family: targets and script names are not paths (until `--`); runners (npx, pnpm exec,
// yarn BIN, uv run, bundle exec) run a package's program, which the table reads as the command.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { effectsOf, targets } from './effects';

describe('package managers and build tools', () => {
  test('targets and scripts are not paths', () => {
    assert.deepEqual(effectsOf(['npm', 'test']), []);
    assert.deepEqual(effectsOf(['make', 'test', 'build']), []);
    assert.deepEqual(effectsOf(['npm', 'install']), []);
  });
  test('words after `--` go to the script: `other` access', () => {
    assert.deepEqual(effectsOf(['npm', 'run', 'fix', '--', 'test/a.js']), ['other test/a.js (npm)']);
  });
  test("a runner's package bin is read as the command", () => {
    assert.deepEqual(targets(effectsOf(['npx', 'prettier@3.1.0', '--write', 'test/a.js'])), [
      'write test/a.js',
    ]);
    assert.deepEqual(targets(effectsOf(['npx', '@biomejs/biome', 'format', '--write', 'test'])), [
      'write test',
    ]);
    assert.deepEqual(targets(effectsOf(['pnpm', 'exec', 'eslint', '--fix', 'src'])), ['write src']);
    assert.deepEqual(targets(effectsOf(['yarn', 'prettier', '--write', 'x'])), ['write x']);
    assert.deepEqual(targets(effectsOf(['uv', 'run', 'black', 'test'])), ['write test']);
    assert.deepEqual(effectsOf(['npx', 'vitest', 'run', 'test/a.test.js']), []);
  });
  test('npx -c is shell code; pnpm -C moves the command', () => {
    assert.deepEqual(effectsOf(['npx', '-c', 'rm f']), ['shell rm f']);
    assert.deepEqual(effectsOf(['pnpm', '-C', 'pkg', 'exec', 'rm', 'x']), ['write x in /w/pkg (rm)']);
  });
});
