// Blame's probes: the baseline checked out once in a scratch worktree, then for each subset of hunks reset to
// the pristine baseline, the subset applied, and the ONE spec's test run. The search over subsets (ddmin) first
// confirms the question is sound: broken with every change, passing on the baseline.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { effectiveTestSettings, verdictOf, type Verdict } from '../check';
import { git } from '../git/git';
import { runCommand } from '../process/runCommand';
import { buildPatch, type DiffHunk, type ParsedDiff } from '../git/hunks';
import type { Spec, SpecFile } from '../../shared/specSchema';
import { BlameError } from './blameError';
import { ddmin } from './ddmin';

export interface BlameProgress {
  run: number;
  maxRuns: number;
  /** Hunks applied in this probe, and how many hunks there are in all. */
  applied: number;
  total: number;
  verdict: Verdict;
}

export interface ProbeSession {
  /** The baseline checkout's top folder, and the workspace inside it. */
  checkoutRoot: string;
  workspaceInCheckout: string;
  scratch: string;
  diff: ParsedDiff;
  /** Hunks every probe applies (the spec file, the spec's own tests). */
  pinned: DiffHunk[];
  candidates: DiffHunk[];
  spec: Spec;
  specFile: SpecFile;
  maxRuns: number;
  baselineCommit: string;
  signal: AbortSignal | undefined;
  onProgress: ((event: BlameProgress) => void) | undefined;
}

export interface BreakingHunks {
  hunks: DiffHunk[];
  minimal: boolean;
  runs: number;
  brokenVerdict: Verdict;
}

/** The smallest set of candidate hunks that still breaks the spec, within the run budget. */
export async function findBreakingHunks(session: ProbeSession): Promise<BreakingHunks> {
  const { spec, candidates } = session;
  let runs = 0;
  const probe = async (subset: DiffHunk[]): Promise<Verdict> => {
    if (session.signal?.aborted) throw new BlameError('cancelled', 'blame was cancelled');
    runs++;
    const verdict = await runProbe(session, [...session.pinned, ...subset]);
    session.onProgress?.({
      run: runs,
      maxRuns: session.maxRuns,
      applied: subset.length,
      total: candidates.length,
      verdict,
    });
    return verdict;
  };

  const brokenVerdict = await probe(candidates);
  if (brokenVerdict === 'pass') {
    throw new BlameError(
      'not-broken',
      `${spec.id} passes with every change applied: it is not broken, there is nothing to blame`,
    );
  }
  if (brokenVerdict === 'skipped') throw new BlameError('cancelled', 'blame was cancelled');
  const baseVerdict = await probe([]);
  if (baseVerdict === 'skipped') throw new BlameError('cancelled', 'blame was cancelled');
  if (baseVerdict !== 'pass') {
    throw new BlameError(
      'fails-on-baseline',
      `${spec.id} does not pass on the baseline ${session.baselineCommit.slice(0, 12)} either (${baseVerdict}): the change did not break it, so there is nothing to blame`,
    );
  }
  const found = await ddmin(
    candidates,
    async (subset) => {
      const verdict = await probe(subset);
      if (verdict === 'skipped') throw new BlameError('cancelled', 'blame was cancelled');
      // Only the same failure counts; anything else (an error from a half-applied change) is unresolved.
      return verdict === brokenVerdict ? 'fails' : verdict === 'pass' ? 'passes' : 'unresolved';
    },
    Math.max(0, session.maxRuns - runs),
    (h) => h.id,
  );
  return { hunks: found.items, minimal: found.minimal, runs, brokenVerdict };
}

async function runProbe(session: ProbeSession, hunks: DiffHunk[]): Promise<Verdict> {
  const { checkoutRoot, workspaceInCheckout, scratch, diff, spec, specFile, signal } = session;
  // Back to the pristine baseline (ignored files such as a linked node_modules stay).
  await git(['reset', '--quiet', '--hard'], checkoutRoot);
  await git(['clean', '-fdq', '-e', 'node_modules'], checkoutRoot);
  const patch = buildPatch(diff, new Set(hunks.map((h) => h.id)));
  if (patch !== '') {
    const patchFile = path.join(scratch, 'probe.patch');
    await fs.writeFile(patchFile, patch);
    try {
      await git(['apply', '--unidiff-zero', '--whitespace=nowarn', patchFile], checkoutRoot);
    } catch {
      // A subset that does not apply cannot tell us anything: ddmin treats it as unresolved.
      return 'error';
    }
  }
  const settings = effectiveTestSettings(spec, specFile.defaults);
  const timeoutMs = settings.timeoutSeconds * 1000;
  const outcome = await runCommand({
    command: spec.test.command,
    cwd: path.join(workspaceInCheckout, settings.cwd),
    env: settings.env,
    timeoutMs,
    ...(signal ? { signal } : {}),
  });
  return verdictOf(outcome, timeoutMs).verdict;
}
