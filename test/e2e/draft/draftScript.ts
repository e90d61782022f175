// The scripted drafting conversation of draft.test.ts: a fixture spec file with comments, and one proposal of
// each kind the verifier must tell apart (good, vacuous then revised, zero-test, flaky, erroring, duplicate,
// invalid, a goal not met yet), replayed by the scripted OpenAI-protocol server.
import type { ScriptStep } from '../../support/scriptedOpenAiServer';

/** The fixture's specs with comments, as people write them: accept must keep these. */
export const COMMENTED_SPECS = `// Specs of the age library.
{
  "version": 1,
  "goal": "Tell adults from minors; reject ages that are not numbers.",
  "specs": [
    // The boundary itself.
    {
      "id": "boundary",
      "title": "18 is the boundary",
      "kind": "functional",
      "statement": "isAdult shall hold at 18 and not at 17.",
      "test": { "command": "node --test test/boundary.test.js", "files": ["test/boundary.test.js"] },
      "anchors": ["src/age.js#isAdult"]
    }
  ]
}
`;

const spec = (id: string, file: string, statement: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: id.replace(/-/g, ' '),
  kind: 'functional',
  statement,
  test: { command: `node --test ${file}`, files: [file] },
  anchors: ['src/age.js#isAdult'],
  ...extra,
});

const testFile = (body: string[]): string =>
  [
    "const test = require('node:test');",
    "const assert = require('node:assert/strict');",
    "const fs = require('node:fs');",
    "const { isAdult } = require('../../src/age');",
    ...body,
    '',
  ].join('\n');

const propose = (specObject: unknown, files: Array<{ path: string; content: string }>): ScriptStep => ({
  kind: 'tools',
  calls: [{ name: 'propose_spec', arguments: { spec: specObject, testFiles: files } }],
});

const GOOD = spec(
  'adult-at-18',
  'test/drafts/adult.test.js',
  'Eighteen-year-olds count as grown-ups, seventeen-year-olds do not.',
);
export const GOOD_TEST = testFile([
  "test('18 yes, 17 no', () => { assert.equal(isAdult(18), true); assert.equal(isAdult(17), false); });",
]);

export const STEPS: ScriptStep[] = [
  { kind: 'tools', calls: [{ name: 'read_file', arguments: { path: 'src/age.js' } }] },
  propose(GOOD, [{ path: 'test/drafts/adult.test.js', content: GOOD_TEST }]),
  // Vacuous: loads the module and asserts true.
  propose(
    spec('far-from-boundary', 'test/drafts/far.test.js', 'Ages far above the threshold are adult ages.'),
    [{ path: 'test/drafts/far.test.js', content: testFile(["test('loads', () => assert.ok(true));"]) }],
  ),
  // The revision after that rejection: same id, a real assertion.
  propose(
    spec('far-from-boundary', 'test/drafts/far.test.js', 'Ages far above the threshold are adult ages.'),
    [
      {
        path: 'test/drafts/far.test.js',
        content: testFile(["test('40 is adult', () => { assert.equal(isAdult(40), true); });"]),
      },
    ],
  ),
  // Zero tests: pytest collects nothing from a file without test functions.
  propose(
    {
      ...spec('no-tests', 'tests/drafts/test_none.py', 'Nothing in particular is checked by this one.'),
      test: {
        command: '/usr/bin/python3 -m pytest -q -p no:cacheprovider tests/drafts/test_none.py',
        files: ['tests/drafts/test_none.py'],
      },
      anchors: ['lib/grade.py#passed'],
    },
    [
      {
        path: 'tests/drafts/test_none.py',
        content: 'from lib.grade import passed\n\n\ndef helper():\n    return passed(50)\n',
      },
    ],
  ),
  // Flaky: the test bumps a counter file and passes only on odd counts.
  propose(
    spec('flaky-counter', 'test/drafts/flaky.test.js', 'A counter on disk decides the outcome each time.'),
    [
      {
        path: 'test/drafts/flaky.test.js',
        content: testFile([
          "const n = (fs.existsSync('counter.txt') ? Number(fs.readFileSync('counter.txt', 'utf8')) : 0) + 1;",
          "fs.writeFileSync('counter.txt', String(n));",
          "test('odd runs pass', () => { assert.equal(isAdult(30), true); assert.equal(n % 2, 1); });",
        ]),
      },
    ],
  ),
  // Errors: the test cannot even load what it tests.
  propose(
    spec(
      'broken-import',
      'test/drafts/broken.test.js',
      'Loading a module that is not there breaks the test.',
    ),
    [
      {
        path: 'test/drafts/broken.test.js',
        content:
          "const test = require('node:test');\nconst { nope } = require('../../src/missing');\ntest('x', () => nope());\n",
      },
    ],
  ),
  // A duplicate of the existing boundary spec: the same test command and files.
  propose(
    spec('boundary-again', 'test/boundary.test.js', 'Restating the threshold check in other words entirely.'),
    [],
  ),
  // Not a spec: an unknown kind.
  propose(spec('bad-kind', 'test/drafts/bad.test.js', 'A spec of an unknown kind.', { kind: 'magic' }), [
    { path: 'test/drafts/bad.test.js', content: GOOD_TEST },
  ]),
  // A goal not met yet: it fails by an assertion on the current code.
  propose(
    spec(
      'rejects-non-numbers',
      'test/drafts/types.test.js',
      'isAdult shall throw a TypeError for a non-number.',
    ),
    [
      {
        path: 'test/drafts/types.test.js',
        content: testFile([
          "test('throws on strings', () => { assert.throws(() => isAdult('x'), TypeError); });",
        ]),
      },
    ],
  ),
  { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'proposed what the goal needs' } }] },
];

export const REVIEW_ANSWER = JSON.stringify({
  uncoveredGoalParts: ['ages given as strings of digits'],
  missingEdges: [{ a: 'adult-at-18', b: 'nonexistent-spec', why: 'made up' }],
  contradictions: [],
});
