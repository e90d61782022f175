// Bad input on the command line: every kind the core throws is an InputError, and the one reporter prints it
// as a located message with exit code 2 (never a stack trace), while anything else stays a bug.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors';
import { CheckInputError } from '../../../src/core/check/runSpecs';
import { GitError } from '../../../src/core/git/git';
import { ChangeInputError } from '../../../src/core/selection/changes';
import { SpecLoadError } from '../../../src/core/spec/problems';
import { BenchInputError } from '../../../src/core/tasks/benchRun';
import { EvalInputError } from '../../../src/core/tasks/evalTasks';
import { ExportInputError } from '../../../src/core/tasks/exportTask';
import { parseVerbFlags, UsageError, wholeNumberFlags } from '../../../src/cli/flags';
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

  it('whole-number flags: given ones are parsed, the first bad one is named with its value', () => {
    assert.deepEqual(wholeNumberFlags({ 'max-steps': '3' }, ['max-steps', 'max-tokens']), {
      'max-steps': 3,
    });
    for (const bad of ['0', '-1', '1.5', 'ten', ''])
      assert.throws(
        () => wholeNumberFlags({ 'max-steps': bad }, ['max-steps']),
        new UsageError(`--max-steps must be a whole number ≥ 1 (got '${bad}')`),
      );
  });

  it('paths inside the current folder are shown relative, others as given', () => {
    assert.equal(displayPath(path.join(process.cwd(), 'a', 'b.json')), path.join('a', 'b.json'));
    assert.equal(displayPath('/elsewhere/b.json'), '/elsewhere/b.json');
    assert.equal(displayPath(process.cwd()), process.cwd());
  });
});
