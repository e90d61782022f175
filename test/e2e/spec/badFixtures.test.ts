// Every malformed spec file in test/fixtures/specs-bad/ must give a located error (the reported line and column
// point at the offending text) and make `weave validate` exit with 2, never with a stack trace.
import test from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpecFile } from '../../../src/core/spec/load';
import { MAX_SPEC_FILE_BYTES } from '../../../src/core/spec/readSpecFile';
import type { SpecProblem } from '../../../src/core/spec/problems';
import { hasStackTrace, mapLimited, runCli } from './cliRun';
import { FIXTURES } from '../../support/paths';

const BAD = path.join(FIXTURES, 'specs-bad');
/** Marks the exact spot inside `at` where the problem must be reported (default: the start of `at`). */
const SPOT = '‸';

interface Expectation {
  /** JSON path of the problem ('' for syntax and whole-file problems). */
  path: string;
  message: RegExp;
  /** Text that must start at the reported line:column; SPOT marks the spot when it is not the start. */
  at?: string;
  /** Which occurrence of `at` in the file (0-based). */
  occurrence?: number;
  /** For files that are not valid text: the expected line and column. */
  line?: number;
  column?: number;
}

const expectations: Record<string, Expectation> = {
  'absolute-cwd': { path: 'specs[0].test.cwd', at: '"/home/me/project"', message: /absolute/ },
  'absurd-default-timeout': { path: 'defaults.timeoutSeconds', at: '1000000000', message: /at most 86400/ },
  'absurd-timeout': { path: 'specs[0].test.timeoutSeconds', at: '36000000', message: /at most 86400/ },
  'bad-anchor-absolute': {
    path: 'specs[0].anchors[1]',
    at: '"/src/client.js#Client.get"',
    message: /absolute/,
  },
  'bad-anchor-dotdot': {
    path: 'specs[0].anchors[0]',
    at: '"src/../../secrets.js"',
    message: /leaves the workspace/,
  },
  'bad-anchor-no-file': { path: 'specs[0].anchors[0]', at: '"#Client.get"', message: /no file before '#'/ },
  'bad-anchor-symbol': {
    path: 'specs[0].anchors[0]',
    at: '"src/client.js#Client..get"',
    message: /empty part/,
  },
  'bad-id': { path: 'specs[0].id', at: '"Cache_Hit"', message: /must match/ },
  'bad-kind': {
    path: 'specs[0].kind',
    at: '"feature"',
    message: /one of "functional".*got the string "feature"/,
  },
  'broken-json-missing-comma': { path: '', at: '"statement"', message: /expected ','/ },
  'cwd-outside': { path: 'specs[0].test.cwd', at: '"../sibling"', message: /leaves the workspace folder/ },
  'cycle-of-2': { path: 'specs[0].dependsOn[0]', at: '"b"', message: /dependsOn cycle: a → b → a/ },
  'cycle-of-3': { path: 'specs[0].dependsOn[0]', at: '"b"', message: /dependsOn cycle: a → b → c → a/ },
  'duplicate-key': { path: 'specs[0].kind', at: '"kind"', occurrence: 1, message: /duplicate key "kind"/ },
  'duplicate-ids': {
    path: 'specs[2].id',
    at: '"cache-hit"',
    occurrence: 1,
    message: /duplicate id "cache-hit"/,
  },
  'empty-command': { path: 'specs[0].test.command', at: '""', message: /^must not be empty$/ },
  'empty-file': { path: '', line: 1, column: 1, message: /is empty.*weave init/ },
  'empty-title': { path: 'specs[0].title', at: '""', message: /^must not be empty$/ },
  'invalid-escape': { path: '', at: '\\q', message: /invalid escape/ },
  'missing-specs': { path: 'specs', at: '{', message: /missing required field "specs"/ },
  'missing-test': { path: 'specs[0].test', at: '{', occurrence: 1, message: /missing required field "test"/ },
  'missing-version': { path: 'version', at: '{', message: /missing required field "version"/ },
  'negative-timeout': { path: 'specs[0].test.timeoutSeconds', at: '-5', message: /greater than 0/ },
  'non-utf8': { path: '', line: 3, column: 13, message: /not valid UTF-8 \(byte 0xc3/ },
  'nul-in-command': {
    path: 'specs[0].test.command',
    at: '"node --test\\u0000',
    message: /command contains a NUL character/,
  },
  'nul-in-env': {
    path: 'specs[0].test.env.TOKEN',
    at: '"abc\\u0000def"',
    message: /env TOKEN contains a NUL/,
  },
  'only-comment': { path: '', line: 1, column: 1, message: /only comments/ },
  'only-whitespace': { path: '', line: 1, column: 1, message: /is empty/ },
  'root-is-array': { path: '', at: '[', message: /expected an object, got an array/ },
  'self-dependency': {
    path: 'specs[0].dependsOn[0]',
    at: '"a"',
    occurrence: 1,
    message: /depends on itself/,
  },
  'self-interaction': {
    path: 'specs[0].interactsWith[0]',
    at: '"a"',
    occurrence: 1,
    message: /lists itself/,
  },
  'single-quotes': { path: '', at: "'goal'", message: /double quotes/ },
  'specs-not-array': { path: 'specs', at: `"specs": ${SPOT}{`, message: /expected an array, got an object/ },
  'test-file-outside': {
    path: 'specs[0].test.files[0]',
    at: '"../other/test.js"',
    message: /leaves the workspace/,
  },
  'trailing-garbage': { path: '', at: 'oops', message: /after the end of the JSON document/ },
  'unclosed-object': { path: '', at: '', occurrence: -1, message: /expected '}'/ },
  'unknown-depends-on': {
    path: 'specs[1].dependsOn[0]',
    at: '"cache-hot"',
    message: /unknown spec "cache-hot" \(did you mean "cache-hit"\?\)/,
  },
  'unknown-field-root': { path: 'owner', at: '"owner"', message: /unknown field "owner"/ },
  'unknown-field-spec': { path: 'specs[0].titel', at: '"titel"', message: /did you mean "title"/ },
  'unknown-field-test': { path: 'specs[0].test.comand', at: '"comand"', message: /did you mean "command"/ },
  'unknown-interacts-with': {
    path: 'specs[0].interactsWith[0]',
    at: '"size-budgett"',
    message: /interactsWith names unknown spec "size-budgett"/,
  },
  'unterminated-comment': { path: '', at: '/*', message: /unterminated \/\* comment/ },
  'unterminated-string': { path: '', at: '"Demo,', message: /unterminated string/ },
  utf16: { path: '', line: 1, column: 1, message: /UTF-16/ },
  'whitespace-command': {
    path: 'specs[0].test.command',
    at: '"   \\t "',
    message: /^must not be empty$/,
  },
  'wrong-type-depends-on': {
    path: 'specs[1].dependsOn',
    at: `"dependsOn": ${SPOT}"a"`,
    message: /expected an array, got the string "a"/,
  },
  'wrong-type-env': {
    path: 'specs[0].test.env.DEBUG',
    at: `"DEBUG": ${SPOT}1`,
    message: /expected a string/,
  },
  'wrong-type-title': { path: 'specs[0].title', at: '42', message: /expected a string, got number 42/ },
  'wrong-version': { path: 'version', at: `"version": ${SPOT}2`, message: /version must be 1/ },
  'zero-timeout': {
    path: 'specs[0].test.timeoutSeconds',
    at: `"timeoutSeconds": ${SPOT}0`,
    message: /greater than 0/,
  },
};

/** The offset where the problem should be, found from the fixture text itself. */
function expectedOffset(text: string, expectation: Expectation): number {
  const at = expectation.at ?? '';
  const needle = at.replace(SPOT, '');
  const inside = Math.max(0, at.indexOf(SPOT));
  if (expectation.occurrence === -1) return text.length; // the end of the file
  let offset = -1;
  for (let i = 0; i <= (expectation.occurrence ?? 0); i++) {
    offset = text.indexOf(needle, offset + 1);
    assert.notEqual(offset, -1, `fixture text has no occurrence ${i} of ${JSON.stringify(needle)}`);
  }
  return offset + inside;
}

function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split(/(?<=\n)/);
  return lines.slice(0, line - 1).reduce((n, l) => n + l.length, 0) + column - 1;
}

function describeProblems(problems: SpecProblem[]): string {
  return problems.map((p) => `${p.line}:${p.column} ${p.path}: ${p.message}`).join('\n');
}

test('the bad-input corpus has at least 25 fixtures and each has an expectation', async () => {
  const names = (await fs.readdir(BAD)).sort();
  assert.ok(names.length >= 25, `only ${names.length} fixtures`);
  assert.deepEqual(names, Object.keys(expectations).sort());
});

for (const [name, expectation] of Object.entries(expectations)) {
  test(`bad spec file "${name}" gives a located error`, async () => {
    const workspace = path.join(BAD, name);
    const result = await loadSpecFile(workspace);
    assert.equal(result.ok, false, 'the file was accepted');
    if (result.ok) return;
    const errors = result.problems.filter((p) => p.severity === 'error');
    const match = errors.find((p) => p.path === expectation.path && expectation.message.test(p.message));
    assert.ok(
      match,
      `no error at path "${expectation.path}" matching ${expectation.message}; got:\n${describeProblems(errors)}`,
    );
    assert.equal(match.file, path.join(workspace, '.weave/specs.json'));

    if (expectation.line !== undefined) {
      assert.deepEqual([match.line, match.column], [expectation.line, expectation.column]);
      return;
    }
    const text = (await fs.readFile(match.file, 'utf8')).replace(/^\uFEFF/, '');
    const reported = offsetOf(text, match.line, match.column);
    const expected = expectedOffset(text, expectation);
    assert.equal(
      reported,
      expected,
      `reported ${match.line}:${match.column} (${JSON.stringify(text.slice(reported, reported + 20))}), ` +
        `expected ${JSON.stringify(text.slice(expected, expected + 20))}`,
    );
  });
}

test('`weave validate` exits 2 with located output and no stack trace for every bad fixture', async () => {
  const names = Object.keys(expectations);
  const results = await mapLimited(names, 4, (name) =>
    runCli(['validate', '--workspace', path.join(BAD, name)], os.tmpdir()),
  );
  results.forEach((result, i) => {
    const name = names[i] ?? '';
    assert.equal(result.code, 2, `${name}: exit code ${result.code}\n${result.stdout}${result.stderr}`);
    assert.equal(
      hasStackTrace(result.stdout + result.stderr),
      false,
      `${name}: ${result.stdout}${result.stderr}`,
    );
    assert.match(result.stdout, /specs\.json:\d+:\d+: /, `${name}: no file:line:column in\n${result.stdout}`);
  });
});

/** Inputs too big or too odd to commit: made in a temporary workspace. */
const generated: Array<{ name: string; make: (workspace: string) => Promise<void>; message: RegExp }> = [
  {
    name: 'huge file',
    message: /over the 5\.0 MB limit/,
    make: async (workspace) => {
      const padding = ' '.repeat(MAX_SPEC_FILE_BYTES);
      await write(workspace, `{"version": 1, "specs": []${padding}}`);
    },
  },
  {
    name: 'directory where the file should be',
    message: /is a directory/,
    make: async (workspace) => {
      await fs.mkdir(path.join(workspace, '.weave/specs.json'), { recursive: true });
    },
  },
  {
    name: 'no spec file',
    message: /does not exist; run `weave init`/,
    make: async () => {},
  },
  {
    name: 'a file where the .weave folder should be',
    message: /a folder on its path is a file/,
    make: async (workspace) => {
      await fs.writeFile(path.join(workspace, '.weave'), 'not a folder');
    },
  },
];

for (const { name, make, message } of generated) {
  test(`${name}: located error and \`weave validate\` exit code 2`, async () => {
    const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-spec-'));
    try {
      await make(workspace);
      const result = await loadSpecFile(workspace);
      assert.equal(result.ok, false);
      if (result.ok) return;
      assert.equal(result.problems.length, 1);
      assert.match(result.problems[0]?.message ?? '', message);
      assert.deepEqual([result.problems[0]?.line, result.problems[0]?.column], [1, 1]);

      const cli = await runCli(['validate', '--workspace', workspace], workspace);
      assert.equal(cli.code, 2, cli.stdout + cli.stderr);
      assert.match(cli.stdout, /\.weave\/specs\.json:1:1: /);
      assert.equal(hasStackTrace(cli.stdout + cli.stderr), false, cli.stdout + cli.stderr);
    } finally {
      await fs.rm(workspace, { recursive: true, force: true });
    }
  });
}

async function write(workspace: string, text: string): Promise<void> {
  await fs.mkdir(path.join(workspace, '.weave'), { recursive: true });
  await fs.writeFile(path.join(workspace, '.weave/specs.json'), text);
}
