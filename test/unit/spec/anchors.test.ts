import test from 'node:test';
import assert from 'node:assert/strict';
import { anchorProblem, parseAnchor, relativePathProblem } from '../../../src/core/spec/anchors';

test('well-formed anchors pass and split into file and symbol', () => {
  for (const anchor of [
    'src/cache.js',
    'src/client.js#Client.get',
    './lib/x.py#parse',
    'a/名前.ts#Größe.get',
    'x.go#$init',
  ]) {
    assert.equal(anchorProblem(anchor), undefined, anchor);
  }
  assert.deepEqual(parseAnchor('src/client.js#Client.get'), { file: 'src/client.js', symbol: 'Client.get' });
  assert.deepEqual(parseAnchor('./src/cache.js'), { file: 'src/cache.js' });
});

test('malformed anchors are explained', () => {
  const cases: Array<[string, RegExp]> = [
    ['/etc/passwd', /absolute/],
    ['C:/src/x.js', /absolute/],
    ['~/x.js', /absolute/],
    ['src\\x.js', /backslashes/],
    ['../x.js', /leaves the workspace/],
    ['src/../../x.js#A', /leaves the workspace/],
    ['#Client.get', /no file before '#'/],
    ['src/x.js#', /nothing after '#'/],
    ['src/x.js#A#B', /more than one '#'/],
    ['src/x.js#A..b', /empty part/],
    ['src/x.js#A.1b', /"1b" is not a symbol name/],
    ['src/x.js#A-b', /"A-b" is not a symbol name/],
    ['src/', /names a directory/],
    ['src/*.js', /glob/],
    ['src//x.js', /empty or '.' segment/],
    [' src/x.js', /spaces/],
  ];
  for (const [anchor, message] of cases) assert.match(anchorProblem(anchor) ?? 'accepted', message, anchor);
});

test('relative paths', () => {
  assert.equal(relativePathProblem('test/a.test.js'), undefined);
  assert.match(relativePathProblem('') ?? '', /empty/);
  assert.match(relativePathProblem('/abs') ?? '', /absolute/);
});
