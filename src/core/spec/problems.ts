// Problems found in a spec file, each located at a line and column so the CLI can print `file:line:col` and the
// editor can draw a squiggle at the exact spot.
import { InputError } from '../errors';

export type SpecProblemSeverity = 'error' | 'warning';

export interface SpecProblem {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units (what VS Code's Position.character counts, plus one). */
  column: number;
  /** JSON path of the offending value, e.g. `specs[2].test.command`; '' for the whole file. */
  path: string;
  message: string;
  severity: SpecProblemSeverity;
}

/** `file:line:column: path: message` (the path is left out when the problem is about the whole file). */
export function formatProblem(problem: SpecProblem): string {
  const where = `${problem.file}:${problem.line}:${problem.column}`;
  const prefix = problem.severity === 'warning' ? 'warning: ' : '';
  return problem.path === ''
    ? `${where}: ${prefix}${problem.message}`
    : `${where}: ${problem.path}: ${prefix}${problem.message}`;
}

/** Thrown by callers that need a valid spec file (e.g. `checkWorkspace`) when the file has errors. */
export class SpecLoadError extends InputError {
  readonly problems: SpecProblem[];
  readonly file: string;

  constructor(file: string, problems: SpecProblem[]) {
    const errors = problems.filter((p) => p.severity === 'error');
    const first = errors[0] ?? problems[0];
    const summary = first === undefined ? 'invalid spec file' : formatProblem(first);
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    super(`${summary}${more}`);
    this.name = 'SpecLoadError';
    this.file = file;
    this.problems = problems;
  }
}

/** `specs[2].test.command`, `["odd key"]`: the way a person would write the path in JavaScript. */
export function formatJsonPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}
