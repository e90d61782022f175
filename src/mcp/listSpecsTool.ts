// weave_list_specs: the goal and every spec a model must keep (statement, read-only test files, anchors, declared
// and potential interactions, last verdict). It reads files only; the potential interactions need the code
// index, which lists files with git, so they are left out (and the answer says why) in an untrusted workspace.
import path from 'node:path';
import { listRuns, type Verdict } from '../core/check';
import { staticCoupling, type PotentialInteraction } from '../core/coupling/coupling';
import { loadAnchoredWorkspace } from '../core/anchors/anchoredWorkspace';
import { loadSpecFile, SpecLoadError } from '../core/spec';
import { specFileRefusal, type RunPolicy, type ToolOutput } from './toolContract';

export interface ListedSpec {
  id: string;
  kind: string;
  title: string;
  statement: string;
  test: { command: string; files: Array<{ path: string; readOnly: true }> };
  anchors: string[];
  dependsOn: string[];
  interactsWith: string[];
  potentialInteractions: Array<{ with: string; why: string[]; declared: boolean }>;
  lastVerdict: { verdict: Verdict; runId: string; finishedAt: string } | null;
}

export interface ListSpecsResult {
  /** What a model reads first: how many specs, which were failing at their last run, and the next step. */
  summary: string;
  goal: string;
  specFile: string;
  specs: ListedSpec[];
  /** Why potential interactions are missing, when the index could not be built. */
  interactionsUnavailable?: string;
}

export async function listSpecs(
  workspaceDir: string,
  policy: RunPolicy,
): Promise<ToolOutput<ListSpecsResult>> {
  const loaded = await loadSpecFile(workspaceDir);
  if (!loaded.ok) throw specFileRefusal(new SpecLoadError(loaded.file, loaded.problems));
  const { specFile } = loaded;
  let potential: PotentialInteraction[] = [];
  let interactionsUnavailable: string | undefined;
  if (!policy.allowed) {
    // The index lists files with git: not in a workspace that is not trusted for running.
    interactionsUnavailable = 'not computed: the workspace is not trusted for running (the index uses git)';
  } else {
    try {
      const ws = await loadAnchoredWorkspace(workspaceDir);
      potential = staticCoupling({ ...ws, workspaceDir: ws.workspaceDir }).potential;
    } catch (error) {
      interactionsUnavailable = `the code index could not be built: ${messageOf(error)}`;
    }
  }
  const runs = await listRuns(workspaceDir);
  const specs = specFile.specs.map((spec): ListedSpec => {
    const lastRun = runs.find((run) => run.results.some((r) => r.id === spec.id));
    const last = lastRun?.results.find((r) => r.id === spec.id);
    return {
      id: spec.id,
      kind: spec.kind,
      title: spec.title,
      statement: spec.statement,
      test: { command: spec.test.command, files: spec.test.files.map((f) => ({ path: f, readOnly: true })) },
      anchors: spec.anchors,
      dependsOn: spec.dependsOn,
      interactsWith: spec.interactsWith,
      potentialInteractions: potential
        .filter((p) => p.a === spec.id || p.b === spec.id)
        .map((p) => ({
          with: p.a === spec.id ? p.b : p.a,
          why: [
            ...p.sharedSymbols.map((s) => `both anchor ${s}`),
            ...p.sharedAnchorFiles.map((f) => `both anchor ${f}`),
            ...p.sharedConeFiles.map((f) => `both tests load ${f}`),
          ],
          declared: p.declared,
        })),
      lastVerdict:
        last && lastRun ? { verdict: last.verdict, runId: lastRun.id, finishedAt: lastRun.finishedAt } : null,
    };
  });
  const structured: ListSpecsResult = {
    summary: listSummary(specs),
    goal: specFile.goal,
    specFile: path.relative(workspaceDir, loaded.file),
    specs,
    ...(interactionsUnavailable !== undefined ? { interactionsUnavailable } : {}),
  };
  return { structured, text: listSpecsText(structured) };
}

function listSummary(specs: readonly ListedSpec[]): string {
  const failing = specs.filter((s) => s.lastVerdict && s.lastVerdict.verdict !== 'pass').map((s) => s.id);
  const never = specs.filter((s) => s.lastVerdict === null).length;
  const last =
    failing.length > 0
      ? `not passing at their last run: ${failing.join(', ')}`
      : 'none failing at its last run';
  return (
    `${specs.length} specs to keep (${last}${never > 0 ? `; ${never} never run` : ''}). Their test files are read-only. ` +
    'Next: change the code, then call weave_check {affected: true}.'
  );
}

function listSpecsText(result: ListSpecsResult): string {
  const lines = [
    result.summary,
    `Goal: ${result.goal || '(none)'}`,
    `${result.specs.length} specs in ${result.specFile}:`,
  ];
  for (const s of result.specs) {
    lines.push('', `${s.id} [${s.kind}] ${s.title}`, `  ${s.statement}`, `  test: ${s.test.command}`);
    if (s.test.files.length > 0)
      lines.push(`  test files (read-only, never edit): ${s.test.files.map((f) => f.path).join(', ')}`);
    if (s.anchors.length > 0) lines.push(`  anchors: ${s.anchors.join(', ')}`);
    if (s.dependsOn.length > 0) lines.push(`  depends on: ${s.dependsOn.join(', ')}`);
    if (s.interactsWith.length > 0) lines.push(`  interacts with: ${s.interactsWith.join(', ')}`);
    for (const p of s.potentialInteractions)
      lines.push(`  may interact with ${p.with}${p.declared ? '' : ' (not declared)'}: ${p.why.join('; ')}`);
    lines.push(`  last verdict: ${s.lastVerdict ? s.lastVerdict.verdict : 'never run'}`);
  }
  if (result.interactionsUnavailable)
    lines.push('', `Potential interactions: ${result.interactionsUnavailable}`);
  return lines.join('\n');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
