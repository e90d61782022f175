// Bad input on the command line: every kind the core throws is an InputError, and the one reporter prints it
// as a located message with exit code 2 (never a stack trace), while anything else stays a bug.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors';
import { CheckInputError } from '../../../src/core/check/runSpecs';
import { GitError } from '../../../src/core/git/git';
import { ChangeInputError } from '../../../src/core/git/changes';
import { SpecLoadError } from '../../../src/core/spec/problems';
import { BenchInputError } from '../../../src/core/tasks/bench/benchRun';
import { EvalInputError } from '../../../src/core/tasks/eval/evalTasks';
import { ExportInputError } from '../../../src/core/tasks/export/exportTask';
import { commaList, parseVerbFlags, UsageError, wholeNumber, wholeNumberFlags } from '../../../src/cli/flags';
import { reportInputError } from '../../../src/cli/output/inputErrors';
import { displayPath } from '../../../src/cli/output/paths';
import { stderrOf } from '../../support/stderrCapture';

const specFile = path.join(process.cwd(), 'ws', '.weave', 'specs.json');
const problem = {
  file: specFile,
  line: 4,
  column: 7,
  path: 'specs[0].id',
  message: 'must not be empty',
  severity: 'error' as const,
};

describe('CLI input errors', () => {
  it('every bad-input error of the core is an InputError', () => {
    for (const error of [
      new SpecLoadError(specFile, [problem]),
      new ChangeInputError('x'),
      new CheckInputError('x'),
      new GitError('unknown git ref', ['rev-parse'], ''),
      new EvalInputError('x'),
      new ExportInputError('x'),
      new BenchInputError('x'),
      new UsageError('x'),
    ])
      assert.ok(error instanceof InputError, error.constructor.name);
  });

  it('an invalid spec file: each problem at its line and column, relative to the current folder, exit 2', () => {
    const { stderr, value } = stderrOf(() =>
      reportInputError('check', new SpecLoadError(specFile, [problem]), 'nothing was run'),
    );
    assert.equal(value, 2);
    const shown = path.join('ws', '.weave', 'specs.json');
    assert.equal(
      stderr,
      `${shown}:4:7: specs[0].id: must not be empty\nweave check: ${shown} has errors; nothing was run.\n`,
    );
  });

  it('other bad input: "weave VERB: message", exit 2', () => {
    const { stderr, value } = stderrOf(() => reportInputError('graph', new ChangeInputError('no such file')));
    assert.equal(value, 2);
    assert.equal(stderr, 'weave graph: no such file\n');
  });

  it('anything else is a bug: rethrown, nothing printed', () => {
    const bug = new TypeError('x is undefined');
    const { stderr } = stderrOf(() => assert.throws(() => reportInputError('check', bug), bug));
    assert.equal(stderr, '');
  });

  it('a wrong flag is a UsageError that points to the verb’s --help', () => {
    assert.throws(
      () => parseVerbFlags('graph', ['--nope'], { json: { type: 'boolean' } }),
      (error: unknown) =>
        error instanceof UsageError &&
        /'--nope'/.test(error.message) &&
        error.message.endsWith("\nRun 'weave graph --help' for its options."),
    );
  });

  it('whole-number flags: one grammar for every verb, the first bad one named with its value and the help hint', () => {
    assert.deepEqual(wholeNumberFlags('agent', { 'max-steps': '3' }, ['max-steps', 'max-tokens']), {
      'max-steps': 3,
    });
    for (const bad of ['0', '-1', '1.5', 'ten', '', '1e3', '0x10', ' 5'])
      assert.throws(
        () => wholeNumberFlags('agent', { 'max-steps': bad }, ['max-steps']),
        new UsageError(
          `--max-steps must be a whole number ≥ 1, got '${bad}'\nRun 'weave agent --help' for its options.`,
        ),
      );
    assert.equal(wholeNumber('index', 'workers', '0', { min: 0, max: 64 }), 0);
    assert.equal(wholeNumber('index', 'workers', undefined, { min: 0, max: 64 }), undefined);
    assert.throws(
      () => wholeNumber('index', 'workers', '65', { min: 0, max: 64 }),
      /^UsageError: --workers must be a whole number from 0 to 64, got '65'\n/,
    );
    assert.throws(
      () => wholeNumber('blame', 'max-runs', '1', { min: 2 }),
      /--max-runs must be a whole number ≥ 2, got '1'/,
    );
  });

  it('comma lists: repeated or not, trimmed, empty items dropped', () => {
    assert.equal(commaList(undefined), undefined);
    assert.deepEqual(commaList(' a, b,,'), ['a', 'b']);
    assert.deepEqual(commaList(['a,b', 'c']), ['a', 'b', 'c']);
    assert.deepEqual(commaList(','), []);
  });

  it('paths inside the current folder are shown relative, others as given', () => {
    assert.equal(displayPath(path.join(process.cwd(), 'a', 'b.json')), path.join('a', 'b.json'));
    assert.equal(displayPath('/elsewhere/b.json'), '/elsewhere/b.json');
    assert.equal(displayPath(process.cwd()), process.cwd());
  });
});
