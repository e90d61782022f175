// Shared by `weave affected`, `weave graph`, `weave blame` and `weave check --affected`: bad input (an invalid
// spec file, an unknown ref, a file outside the workspace) becomes a located message and exit code 2, never a
// stack trace; anchor problems and the affected selection are printed the same way everywhere.
import path from 'node:path';
import type { SelectedAffected } from '../core/selection/affected';
import { ChangeInputError } from '../core/selection/changes';
import { GitError } from '../core/git/git';
import { formatProblem, SpecLoadError, type SpecProblem } from '../core/spec/problems';

/** Prints bad input and returns 2; rethrows anything else (a bug: main prints it as an internal error). */
export function reportInputError(verb: string, error: unknown): number {
  if (error instanceof SpecLoadError) {
    for (const problem of error.problems) process.stderr.write(`${formatProblem(displayProblem(problem))}\n`);
    return 2;
  }
  if (error instanceof ChangeInputError || error instanceof GitError) {
    process.stderr.write(`weave ${verb}: ${error.message}\n`);
    return 2;
  }
  throw error;
}

/** Anchor problems do not stop the verb: they are printed to stderr so the user can fix the spec file. */
export function printAnchorProblems(problems: SpecProblem[]): void {
  for (const problem of problems) process.stderr.write(`${formatProblem(displayProblem(problem))}\n`);
}

function displayProblem(problem: SpecProblem): SpecProblem {
  const relative = path.relative(process.cwd(), problem.file);
  const file =
    relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : problem.file;
  return { ...problem, file };
}

/** On stderr (stdout may be --json): what --affected runs and why, and why the rest is safe to skip. */
export function printSelection(selection: SelectedAffected): void {
  const lines = [
    `weave check --affected: ${selection.affected.length} of ${selection.specCount} specs selected (${selection.source})`,
  ];
  if (selection.all) {
    lines.push('  every spec is selected, because:');
    for (const reason of selection.allReasons) lines.push(`    - ${reason}`);
  } else {
    for (const spec of selection.affected) lines.push(`  run  ${spec.id}: ${spec.reasons.join('; ')}`);
    for (const spec of selection.notSelected) lines.push(`  skip ${spec.id}: ${spec.reason}`);
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}
