// `weave validate`: checks .weave/specs.json and prints every problem as file:line:column: path: message.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { loadSpecFile } from '../../core/spec/load';
import { formatProblem } from '../../core/spec/problems';
import { parseVerbFlags } from '../flags';
import type { Verb } from '../verb';

const HELP = `Usage: weave validate [--workspace DIR] [--json]

Checks the workspace's .weave/specs.json without running anything: JSON syntax (comments allowed), the schema
(fields, types, ids), duplicate ids, dependsOn/interactsWith naming unknown specs, dependsOn cycles, empty
commands, absurd timeouts and anchor syntax. Each problem is printed as
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
      workspace: { type: 'string', default: '.' },
      json: { type: 'boolean', default: false },
    });
    if (flags === undefined) return 2;
    const workspaceDir = path.resolve(flags.workspace);
    const stat = await fs.stat(workspaceDir).catch(() => undefined);
    if (stat === undefined || !stat.isDirectory()) {
      process.stderr.write(`weave validate: ${workspaceDir} is not a folder\n`);
      return 2;
    }
    const result = await loadSpecFile(workspaceDir);
    const file = displayPath(result.file);
    const problems = (result.ok ? result.warnings : result.problems).map((p) => ({
      ...p,
      file: displayPath(p.file),
    }));
    const errors = problems.filter((p) => p.severity === 'error').length;
    const warnings = problems.length - errors;
    const specs = result.ok ? result.specFile.specs.length : 0;

    if (flags.json) {
      process.stdout.write(
        `${JSON.stringify({ file, ok: result.ok, specs, errors, warnings, problems }, null, 2)}\n`,
      );
      return result.ok ? 0 : 2;
    }
    for (const problem of problems) process.stdout.write(`${formatProblem(problem)}\n`);
    if (!result.ok) {
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

/** Relative to the current directory when inside it, so terminals make it clickable and output stays short. */
function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}
