// The one reporter of bad input for every verb: a located message on stderr and exit code 2, never a stack
// trace. Anything that is not an InputError is a bug and is rethrown (main prints it as an internal error).
import { InputError } from '../../core/errors';
import { SpecLoadError } from '../../core/spec';
import { displayPath } from './paths';
import { printProblems } from './problems';

/**
 * Prints `error` and returns 2. `consequence` (e.g. "nothing was run") follows an invalid spec file's problems
 * as one more line, for verbs where the user would otherwise wonder what happened to the run.
 */
export function reportInputError(verb: string, error: unknown, consequence?: string): number {
  if (!(error instanceof InputError)) throw error;
  if (error instanceof SpecLoadError) {
    printProblems(error.problems);
    if (consequence !== undefined)
      process.stderr.write(`weave ${verb}: ${displayPath(error.file)} has errors; ${consequence}.\n`);
  } else {
    process.stderr.write(`weave ${verb}: ${error.message}\n`);
  }
  return 2;
}
