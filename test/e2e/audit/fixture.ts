// The audit's fixture: a single-module library whose tests `require('../src/age')`, with a planted vacuous spec
// (its test loads the module and asserts true), a spec that pins the boundary (kills `>=` → `>`), a spec that
// only checks values far from it (lets that mutant survive), and a Python module tested with pytest.
import { initRepo, tempDir, writeFiles } from '../../support/repos';

const nodeSpec = (id: string, file: string, anchors: string[]) => ({
  id,
  title: id,
  kind: 'functional',
  statement: `${id} holds`,
  test: { command: `node --test ${file}`, files: [file] },
  anchors,
});

export const AUDIT_FIXTURE: Record<string, string> = {
  'package.json': '{ "name": "age", "version": "1.0.0", "main": "src/age.js" }\n',
  'src/age.js': [
    "'use strict';",
    '',
    'function isAdult(age) {',
    '  return age >= 18;',
    '}',
    '',
    'module.exports = { isAdult };',
    '',
  ].join('\n'),
  'test/vacuous.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert/strict');",
    "require('../src/age');",
    "test('the module loads', () => assert.ok(true));",
    '',
  ].join('\n'),
  'test/boundary.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert/strict');",
    "const { isAdult } = require('../src/age');",
    "test('18 is adult, 17 is not', () => {",
    '  assert.equal(isAdult(18), true);',
    '  assert.equal(isAdult(17), false);',
    '});',
    '',
  ].join('\n'),
  'test/range.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert/strict');",
    "const { isAdult } = require('../src/age');",
    "test('40 is adult, 3 is not', () => {",
    '  assert.equal(isAdult(40), true);',
    '  assert.equal(isAdult(3), false);',
    '});',
    '',
  ].join('\n'),
  'lib/grade.py': ['def passed(score):', '    return score >= 50', ''].join('\n'),
  'tests/test_grade.py': [
    'from lib.grade import passed',
    '',
    '',
    'def test_boundary():',
    '    assert passed(50)',
    '    assert not passed(49)',
    '',
  ].join('\n'),
  'lib/__init__.py': '',
  '.weave/specs.json': JSON.stringify(
    {
      version: 1,
      goal: 'Tell adults from minors and passing grades from failing ones.',
      specs: [
        nodeSpec('vacuous', 'test/vacuous.test.js', ['src/age.js#isAdult']),
        nodeSpec('boundary', 'test/boundary.test.js', ['src/age.js#isAdult']),
        nodeSpec('range', 'test/range.test.js', ['src/age.js#isAdult']),
        {
          id: 'grade-boundary',
          title: 'grade boundary',
          kind: 'functional',
          statement: 'A score of 50 passes; 49 does not.',
          test: {
            command: '/usr/bin/python3 -m pytest -q -p no:cacheprovider tests/test_grade.py',
            files: ['tests/test_grade.py'],
          },
          anchors: ['lib/grade.py#passed'],
        },
      ],
    },
    null,
    2,
  ),
};

/** A temp git repository holding the fixture, committed. */
export function createAuditFixture(extra: Record<string, string> = {}): string {
  const dir = tempDir('weave-audit-');
  writeFiles(dir, { ...AUDIT_FIXTURE, ...extra });
  initRepo(dir);
  return dir;
}
