// `weave affected`: the specs a change can affect, each with why; unknown impact selects every spec.
import path from 'node:path';
import { selectAffected } from '../../core/selection/selectAffected';
import { commaList, parseVerbFlags, UsageError, WORKSPACE_FLAG } from '../flags';
import { printProblems } from '../output/problems';
import type { Verb } from '../verb';

const HELP = `Usage: weave affected [--workspace DIR] [--since REF | --files a,b] [--no-coverage] [--json]

Lists the specs a change can affect, each with the reason. First from the per-spec coverage 'weave check'
recorded: a changed line inside a function a spec's test executed (or at module top level of a file it loaded)
selects it. What coverage cannot decide (no coverage, other file content, new files) falls to the import
cones: a changed file is one of the spec's anchor files or test files, or is imported (transitively) by them. Safety first: a change Weave cannot trace (package.json,
a lockfile, a tool config, a file without a tree-sitter grammar, a deleted file, .weave/specs.json) selects
every spec and says why.

Options:
  --workspace DIR  the workspace folder (default: the current directory)
  --since REF      changes since git REF: committed, staged, unstaged and untracked (default: HEAD)
  --files a,b      exactly these files (workspace-relative, comma-separated); a missing file counts as deleted
  --no-coverage    ignore recorded coverage: the import cones alone
  --json           print {source, all, allReasons, affected: [{id, reasons}], unaffected, ignored, changes,
                   coverage?}
  -h, --help       show this help

Examples:
  weave affected                      # what the uncommitted changes can break
  weave affected --since main         # what this branch can break
  weave affected --files src/cache.js
  weave check --affected --since main # run only those

Exit codes: 0 done (whatever was selected), 2 bad input (spec file, ref, flags).`;

export const affectedVerb: Verb = {
  name: 'affected',
  summary: 'List the specs a change can affect (and why), from git or a list of files',
  help: HELP,
  async run(args) {
    const flags = parseVerbFlags('affected', args, {
      ...WORKSPACE_FLAG,
      since: { type: 'string' },
      files: { type: 'string' },
      json: { type: 'boolean', default: false },
      'no-coverage': { type: 'boolean', default: false },
    });
    if (flags.since !== undefined && flags.files !== undefined)
      throw new UsageError('give --since REF or --files a,b, not both');
    const result = await selectAffected({
      workspaceDir: path.resolve(flags.workspace),
      ...(flags.files !== undefined ? { files: commaList(flags.files) ?? [] } : {}),
      ...(flags.since !== undefined ? { since: flags.since } : {}),
      ...(flags['no-coverage'] ? { useCoverage: false } : {}),
    });
    printProblems(result.anchorProblems);
    const { source, changes } = result;
    if (flags.json) {
      const { anchorProblems: _problems, ...json } = result;
      process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
      return 0;
    }
    const total = result.specCount;
    if (changes.length === 0) {
      process.stdout.write(`No changes (${source}): no spec is affected.\n`);
      return 0;
    }
    process.stdout.write(`${changes.length} changed file${changes.length === 1 ? '' : 's'} (${source}): `);
    process.stdout.write(`${result.affected.length} of ${total} specs affected\n`);
    process.stdout.write(
      result.coverage !== undefined
        ? `Selected from ${result.coverage} first, then the static import cones.\n`
        : "No coverage recorded yet (run 'weave check'): selected from the static import cones.\n",
    );
    if (result.all) {
      process.stdout.write('Every spec is selected, because:\n');
      for (const reason of result.allReasons) process.stdout.write(`  - ${reason}\n`);
      process.stdout.write(`${result.affected.map((s) => s.id).join('\n')}\n`);
      return 0;
    }
    for (const spec of result.affected) {
      process.stdout.write(`${spec.id}\n`);
      for (const reason of spec.reasons) process.stdout.write(`    ${reason}\n`);
    }
    if (result.unaffected.length > 0) process.stdout.write(`Not affected: ${result.unaffected.join(', ')}\n`);
    if (result.ignored.length > 0)
      process.stdout.write(`Ignored (Weave's own state): ${result.ignored.join(', ')}\n`);
    return 0;
  },
};
