// `weave mine --model`: per verified candidate, `weave draft`'s synthesis agent (its loop and verifier, runDraft)
// proposes coupled constraint specs over the gold commit, and `weave audit`'s shared kills give the task's
// observed interactions. Both run in a git worktree of the clone at the task's target commit (the gold change
// with its specs), removed afterwards, so the clone's own working tree and the dataset are never touched.
//
// A draft the draft verifier keeps already passes on that checkout twice and kills a mutant of its anchors; mine
// adds what a benchmark constraint needs beyond that: it must pass on the gold (a draft kept as a goal fails
// there) and it must declare how it couples (dependsOn or interactsWith). Everything else is a rejection with
// the verifier's stage and reason, kept in the funnel.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { git } from '../../git/git';
import type { ModelClient } from '../../model';
import type { AgentBudgets } from '../../agent/runAgent';
import { runDraft } from '../../draft/runDraft';
import type { KeptDraft } from '../../draft/types';
import { runAudit } from '../../audit/runAudit';
import { loadAnchoredWorkspace } from '../../anchors/anchoredWorkspace';
import type { SpecFileInput } from '../../../shared/specSchema';
import { GOAL_PREFIX, KEEP_PREFIX } from './commitSpecs';

export interface SynthesisSettings {
  client: ModelClient;
  /** Constraint specs the agent may keep per task (draft's --max-specs). */
  maxSpecs: number;
  budgets?: Partial<AgentBudgets>;
  /** Mutants the audit runs per task for the observed interactions. */
  auditMutants: number;
  secrets?: Array<string | undefined>;
}

export interface SynthesisOutcome {
  /** Drafts that may join the task, ids already given the keep- prefix. */
  accepted: KeptDraft[];
  rejected: Array<{ id: string; reason: string }>;
  tokens: number;
}

/** The ids the agent must not reuse and the constraint prefix synthesised specs take. */
const SYNTHESISED_PREFIX = KEEP_PREFIX;

/** Runs the draft agent on the task's target commit and sorts its drafts into accepted and rejected. */
export async function synthesiseSpecs(
  repoRoot: string,
  subdir: string,
  target: string,
  goal: string,
  settings: SynthesisSettings,
  signal?: AbortSignal,
): Promise<SynthesisOutcome> {
  return inWorktree(repoRoot, target, async (dir) => {
    const result = await runDraft({
      workspaceDir: subdir === '' ? dir : path.join(dir, subdir),
      client: settings.client,
      goal,
      maxSpecs: settings.maxSpecs,
      modelReview: false,
      ...(settings.budgets ? { budgets: settings.budgets } : {}),
      ...(settings.secrets ? { secrets: settings.secrets } : {}),
      ...(signal ? { signal } : {}),
    });
    const rejected = result.rejected.map((r) => ({ id: r.id, reason: `${r.stage}: ${firstLine(r.reason)}` }));
    const accepted: KeptDraft[] = [];
    for (const draft of result.kept) {
      const { spec } = draft;
      if (draft.verification.goal)
        rejected.push({
          id: spec.id,
          reason:
            'fails on the gold commit (its test fails by an assertion there): not a constraint the change meets',
        });
      else if (spec.dependsOn.length === 0 && spec.interactsWith.length === 0)
        rejected.push({
          id: spec.id,
          reason: 'uncoupled: it declares neither dependsOn nor interactsWith with the task’s specs',
        });
      else accepted.push(draft);
    }
    if (result.error !== undefined && result.kept.length === 0 && result.rejected.length === 0)
      rejected.push({ id: '(session)', reason: `the synthesis agent stopped: ${firstLine(result.error)}` });
    return { accepted, rejected, tokens: result.usage.totalTokens };
  });
}

/**
 * The spec file with the accepted drafts added: each id takes the keep- prefix (a constraint that passes before
 * and after; export's verification renames it goal- if it fails before the change, as it does the mined ones),
 * and references between drafts follow the new ids.
 */
export function withSynthesised(
  specFile: SpecFileInput,
  drafts: readonly KeptDraft[],
): { specFile: SpecFileInput; ids: string[]; testFiles: Array<{ path: string; content: string }> } {
  const rename = new Map(
    drafts.map((d) => [
      d.spec.id,
      d.spec.id.startsWith(GOAL_PREFIX) || d.spec.id.startsWith(KEEP_PREFIX)
        ? d.spec.id
        : `${SYNTHESISED_PREFIX}${d.spec.id}`,
    ]),
  );
  const to = (id: string): string => rename.get(id) ?? id;
  const added = drafts.map((d) => {
    const input = d.specInput as Record<string, unknown> & { id: string };
    const refs = (field: 'dependsOn' | 'interactsWith'): Record<string, string[]> =>
      Array.isArray(input[field]) ? { [field]: (input[field] as string[]).map(to) } : {};
    return { ...input, id: to(input.id), ...refs('dependsOn'), ...refs('interactsWith') };
  });
  return {
    specFile: { ...specFile, specs: [...specFile.specs, ...(added as SpecFileInput['specs'])] },
    ids: [...rename.values()],
    testFiles: drafts.flatMap((d) => d.testFiles),
  };
}

/**
 * Observed interactions of the task at its target commit: pairs of specs whose tests kill the same mutant in
 * `weave audit` (a bounded, deterministic mutant budget; the time budget is generous so it never decides).
 */
export async function observedInteractions(
  repoRoot: string,
  subdir: string,
  target: string,
  mutants: number,
  signal?: AbortSignal,
): Promise<Array<[string, string]>> {
  return inWorktree(repoRoot, target, async (dir) => {
    const ws = await loadAnchoredWorkspace(subdir === '' ? dir : path.join(dir, subdir), {
      useCache: false,
      ...(signal ? { signal } : {}),
    });
    const report = await runAudit({
      ws,
      maxMutants: mutants,
      timeBudgetSeconds: 3600,
      concurrency: 1,
      ...(signal ? { signal } : {}),
    });
    return report.observed
      .map((o): [string, string] => (o.a < o.b ? [o.a, o.b] : [o.b, o.a]))
      .sort((x, y) => `${x[0]}\0${x[1]}`.localeCompare(`${y[0]}\0${y[1]}`));
  });
}

/** A detached worktree of the clone at `commit`, removed (with its registration) whatever happens. */
async function inWorktree<T>(repoRoot: string, commit: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = `${repoRoot}.worktree-${process.pid}`;
  await fs.rm(dir, { recursive: true, force: true });
  await git(['worktree', 'prune'], repoRoot, { isolated: true });
  await git(['worktree', 'add', '-q', '--detach', dir, commit], repoRoot, { isolated: true });
  try {
    return await fn(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
    await git(['worktree', 'prune'], repoRoot, { isolated: true }).catch(() => undefined);
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
