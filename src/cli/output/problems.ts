// Spec problems (invalid spec file, unresolved anchors, warnings) as every verb prints them:
// file:line:column: json.path: message, with the file shown by `displayPath`.
import { formatProblem, type SpecProblem } from '../../core/spec';
import { displayPath } from './paths';

export function displayProblem(problem: SpecProblem): SpecProblem {
  return { ...problem, file: displayPath(problem.file) };
}

/** On stderr: problems do not stop the verb (or are its error), and stdout may be --json. */
export function printProblems(problems: readonly SpecProblem[]): void {
  for (const problem of problems) process.stderr.write(`${formatProblem(displayProblem(problem))}\n`);
}
