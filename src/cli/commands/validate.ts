// `weave validate`: checks .weave/specs.json and prints every problem as file:line:column: path: message.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { checkAnchors } from '../../core/anchors/anchorCheck';
import { formatProblem, loadSpecFile } from '../../core/spec';
import { parseVerbFlags, UsageError, WORKSPACE_FLAG } from '../flags';
import { displayPath } from '../output/paths';
import { displayProblem } from '../output/problems';
import type { Verb } from '../verb';

const HELP = `Usage: weave validate [--workspace DIR] [--json]

Checks the workspace's .weave/specs.json without running anything: JSON syntax (comments allowed), the schema
(fields, types, ids), duplicate ids, dependsOn/interactsWith naming unknown specs, dependsOn cycles, empty
commands, absurd timeouts, and anchors: each anchored file is parsed with tree-sitter (only those files), and
an anchor whose file or symbol does not exist is an error ("did you mean" lists the nearest names); one whose
symbol matches several definitions is a warning. Each problem is printed at the anchor string as
  file:line:column: json.path: message

Options:
  --workspace DIR  the workspace folder (default: the current directory)
  --json           print one JSON document {file, ok, specs, errors, warnings, problems}
  -h, --help       show this help

Exit codes: 0 the file is valid (warnings may be printed), 2 it has errors or the flags are wrong.`;

export const validateVerb: Verb = {
  name: 'validate',
  summary: 'Check .weave/specs.json and report every problem with its line and column',
  help: HELP,
  async run(args) {
    const flags = parseVerbFlags('validate', args, {
      ...WORKSPACE_FLAG,
      json: { type: 'boolean', default: false },
    });
    const workspaceDir = path.resolve(flags.workspace);
    const stat = await fs.stat(workspaceDir).catch(() => undefined);
    if (stat === undefined || !stat.isDirectory()) throw new UsageError(`${workspaceDir} is not a folder`);
    const result = await loadSpecFile(workspaceDir);
    const file = displayPath(result.file);
    const anchorProblems = result.ok
      ? (
          await checkAnchors(workspaceDir, result.specFile, {
            locations: result.locations,
            specFilePath: result.file,
          })
        ).problems
      : [];
    const problems = [...(result.ok ? result.warnings : result.problems), ...anchorProblems]
      .map(displayProblem)
      .sort((a, b) => a.line - b.line || a.column - b.column);
    const errors = problems.filter((p) => p.severity === 'error').length;
    const warnings = problems.length - errors;
    const specs = result.ok ? result.specFile.specs.length : 0;
    const ok = result.ok && errors === 0;

    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ file, ok, specs, errors, warnings, problems }, null, 2)}\n`);
      return ok ? 0 : 2;
    }
    for (const problem of problems) process.stdout.write(`${formatProblem(problem)}\n`);
    if (!ok || !result.ok) {
      process.stdout.write(
        `${file}: ${plural(errors, 'error')}${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}\n`,
      );
      return 2;
    }
    const edges = result.specFile.specs.reduce((n, s) => n + s.dependsOn.length, 0);
    const interactions = result.graph.declaredInteractions().length;
    process.stdout.write(
      `${file}: ${plural(specs, 'spec')} OK (${plural(edges, 'dependency', 'dependencies')}, ` +
        `${plural(interactions, 'declared interaction')}${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''})\n`,
    );
    return 0;
  },
};

function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}
