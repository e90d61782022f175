// `weave graph`: declared spec edges plus the potential interactions Weave finds in the code itself.
import path from 'node:path';
import { readCoverageStore } from '../../core/coverage/store';
import { readAuditReport } from '../../core/audit/report';
import {
  formatCouplingMermaid,
  formatCouplingText,
  staticCoupling,
  withObservedInteractions,
} from '../../core/coupling/coupling';
import { loadAnchoredWorkspace } from '../../core/anchors/anchoredWorkspace';
import { parseVerbFlags, UsageError, WORKSPACE_FLAG } from '../flags';
import { printProblems } from '../output/problems';
import type { Verb } from '../verb';

const HELP = `Usage: weave graph [--workspace DIR] [--json | --mermaid]

Shows the spec graph before anything runs: the edges declared in .weave/specs.json (dependsOn, interactsWith)
and the potential interactions Weave finds itself with tree-sitter — pairs of specs whose anchors share a
symbol or a file, or whose tests load the same source files (import cones). When 'weave check' has recorded
per-spec coverage, pairs whose tests executed the same functions come first, weighed by the Jaccard index of
the functions they executed. Pairs the author did not declare are marked [not declared].
After \`weave audit\`, the observed interactions join them: pairs of specs whose tests killed the same mutants
(read from .weave/cache/audit.json, the last audit).

Options:
  --workspace DIR  the workspace folder (default: the current directory)
  --json           print {specs, declared: {dependsOn, interactsWith}, potential: [{a, b, sharedSymbols,
                   sharedAnchorFiles, sharedConeFiles, sharedFunctions?, coverageWeight?, declared}],
                   loadedByEveryTest, executedByEveryTest?,
                   observed: [{a, b, mutants, examples, declared}] after an audit}
  --mermaid        print a Mermaid flowchart (paste into a markdown file)
  -h, --help       show this help

Exit codes: 0 done, 2 bad input (spec file, flags).`;

export const graphVerb: Verb = {
  name: 'graph',
  summary: 'Show declared spec edges and the potential interactions found in the code',
  help: HELP,
  async run(args) {
    const flags = parseVerbFlags('graph', args, {
      ...WORKSPACE_FLAG,
      json: { type: 'boolean', default: false },
      mermaid: { type: 'boolean', default: false },
    });
    if (flags.json && flags.mermaid) throw new UsageError('give --json or --mermaid, not both');
    const ws = await loadAnchoredWorkspace(path.resolve(flags.workspace));
    printProblems(ws.anchorProblems);
    const coupling = withObservedInteractions(
      staticCoupling({
        specFile: ws.specFile,
        index: ws.index,
        resolved: ws.resolved,
        workspaceDir: ws.workspaceDir,
        coverage: await readCoverageStore(ws.workspaceDir),
      }),
      await readAuditReport(ws.workspaceDir),
    );
    if (flags.json) process.stdout.write(`${JSON.stringify(coupling, null, 2)}\n`);
    else if (flags.mermaid) process.stdout.write(formatCouplingMermaid(coupling));
    else process.stdout.write(formatCouplingText(coupling));
    return 0;
  },
};
