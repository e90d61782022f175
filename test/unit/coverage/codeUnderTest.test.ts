// Coverage shows the code under test only: spec test files, test-named files and the helpers in the specs' test
// folders are left out; source files (wherever they are) stay.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeUnderTestFilter } from '../../../src/core/coverage/codeUnderTest';

test('test files and test helpers are not code under test; source files are', () => {
  const isCode = codeUnderTestFilter([
    { test: { files: ['test/add.test.js'] } },
    { test: { files: ['checks/run_clamp.py'] } },
  ]);
  for (const file of ['test/add.test.js', 'test/helpers/world.js', 'checks/run_clamp.py', 'src/math.test.ts'])
    assert.equal(isCode(file), false, file);
  for (const file of ['src/math.js', 'lib/test_data_loader/x.js', 'scripts/mark-ran.js', 'testing.js'])
    assert.equal(isCode(file), true, file);
  assert.equal(isCode('./test/add.test.js'), false);
});
