// `weave draft`: the synthesis agent. It reads the code in a scratch checkout (the agent's loop and read/search
// tools), proposes specs with propose_spec, and every proposal is verified there (verify.ts) before it counts;
// the verdict goes back to the model as the tool result, so it can revise. The session ends with a review of the
// kept set (review.ts). Nothing reaches the user's files: kept drafts are written only by acceptDrafts.
// The trajectory and result land in .weave/runs/draft/<id>/ (Weave's git-ignored run state).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AgentBudgets, StopReason } from '../agent/runAgent';
import { AgentSession } from '../agent/agentSession';
import type { LoopOutcome } from '../agent/agentLoop';
import type { ModelClient, ModelUsage } from '../model';
import { WorkspaceJail } from '../agent/paths';
import type { SymbolLookup } from '../agent/toolContract';
import { withScratchCheckouts, type ScratchCheckout } from '../audit/scratch';
import { ensureRunsIgnored, newRunId } from '../check';
import { loadAnchoredWorkspace, type AnchoredWorkspace } from '../anchors/anchoredWorkspace';
import { buildDraftSystemPrompt, buildDraftTask } from './prompt';
import { reviewDraftSet, type DraftSetReview } from './review';
import { draftToolbox, type DraftToolHandlers } from './tools';
import type { KeptDraft, RejectedDraft } from './types';
import { verifyProposal } from './verify';

export const DEFAULT_MAX_DRAFTS = 5;
export const DEFAULT_MUTANTS_PER_PROPOSAL = 20;

export type DraftProgress =
  | { type: 'phase'; message: string }
  | { type: 'step'; step: number; maxSteps: number; tokens: number }
  | { type: 'proposal'; id: string; kept: boolean; message: string };

export interface DraftOptions {
  workspaceDir: string;
  client: ModelClient;
  /** Overrides the spec file's goal for this session. */
  goal?: string;
  maxSpecs?: number;
  maxMutantsPerProposal?: number;
  budgets?: Partial<AgentBudgets>;
  signal?: AbortSignal;
  onProgress?: (event: DraftProgress) => void;
  /** Secrets to redact from everything written (the API key). */
  secrets?: Array<string | undefined>;
  /** Ask the model to review the kept set (the deterministic review always runs). Default true. */
  modelReview?: boolean;
}

export interface DraftResult {
  runId: string;
  kept: KeptDraft[];
  rejected: RejectedDraft[];
  review: DraftSetReview;
  stopReason: StopReason;
  error?: string;
  steps: number;
  usage: ModelUsage;
  durationMs: number;
  trajectoryFile: string;
  resultFile: string;
}

export async function runDraft(options: DraftOptions): Promise<DraftResult> {
  const started = performance.now();
  const session = new AgentSession(options);
  const runId = `${newRunId(new Date())}-draft`;
  const runDir = path.join(options.workspaceDir, '.weave', 'runs', 'draft', runId);
  const drafts: DraftsSoFar = { kept: [], rejected: [] };

  (options.onProgress ?? (() => undefined))({
    type: 'phase',
    message: 'indexing a scratch checkout of the workspace',
  });
  const outcome = await withScratchCheckouts(options.workspaceDir, 1, ([checkout]) =>
    draftInCheckout(checkout!, { options, session, runId, runDir, started, drafts }),
  );

  const result: DraftResult = {
    runId,
    kept: drafts.kept,
    rejected: drafts.rejected,
    review: outcome.review,
    stopReason: outcome.loop.stopReason,
    ...(outcome.loop.error !== undefined ? { error: outcome.loop.error } : {}),
    steps: outcome.loop.steps,
    usage: outcome.loop.usage,
    durationMs: Math.round(performance.now() - started),
    trajectoryFile: outcome.trajectoryFile,
    resultFile: path.join(runDir, 'result.json'),
  };
  await fs.writeFile(result.resultFile, session.redact(JSON.stringify(result, null, 2)) + '\n');
  return result;
}

/** The proposals judged so far, filled in as the model proposes. */
interface DraftsSoFar {
  kept: KeptDraft[];
  rejected: RejectedDraft[];
}

interface DraftSession {
  options: DraftOptions;
  session: AgentSession;
  runId: string;
  runDir: string;
  started: number;
  drafts: DraftsSoFar;
}

/** The session in the scratch checkout: index it, run the loop over the draft tools, review the kept set. */
async function draftInCheckout(
  checkout: ScratchCheckout,
  { options, session, runId, runDir, started, drafts }: DraftSession,
): Promise<{ loop: LoopOutcome; review: DraftSetReview; trajectoryFile: string }> {
  const { userSignal } = session;
  const maxSpecs = options.maxSpecs ?? DEFAULT_MAX_DRAFTS;
  const progress = options.onProgress ?? (() => undefined);
  const ws = await loadAnchoredWorkspace(checkout.dir, { useCache: false, signal: userSignal });
  const specFile = options.goal?.trim() ? { ...ws.specFile, goal: options.goal.trim() } : ws.specFile;
  await ensureRunsIgnored(options.workspaceDir);
  const trajectory = session.openTrajectory(path.join(runDir, 'trajectory.jsonl'), {
    runId,
    target: 'draft specs',
  });
  const symbols = indexSymbols(ws);
  const loop = await session.runLoop(trajectory, {
    system: buildDraftSystemPrompt(specFile, maxSpecs),
    task: buildDraftTask(options.goal),
    toolbox: draftToolbox({ propose: proposalJudge(ws, checkout, drafts, options) }),
    nudge: 'Use the tools: read the code, then call propose_spec, or finish when you are done.',
    onProgress: (e) => {
      if (e.type === 'step') progress(e);
    },
    tools: {
      jail: await WorkspaceJail.create(checkout.dir, []),
      specIds: specFile.specs.map((s) => s.id),
      runSpecs: () => Promise.reject(new Error('the draft agent does not run specs; propose_spec verifies')),
      symbols: () => Promise.resolve(symbols),
    },
  });
  progress({ type: 'phase', message: `reviewing ${drafts.kept.length} kept draft(s)` });
  const review = await reviewDraftSet({
    ws: { ...ws, specFile },
    kept: drafts.kept,
    ...(options.modelReview === false || loop.stopReason === 'cancelled' ? {} : { client: options.client }),
    signal: userSignal,
  });
  trajectory.write({
    type: 'end',
    stopReason: loop.stopReason,
    steps: loop.steps,
    usage: loop.usage,
    durationMs: Math.round(performance.now() - started),
    changedFiles: [],
  });
  return { loop, review, trajectoryFile: trajectory.file };
}

/** The checkout's index answers outline / find_symbol: the draft agent edits nothing, so it never goes stale. */
function indexSymbols(ws: AnchoredWorkspace): SymbolLookup {
  return {
    outline: (file) => {
      const found = ws.index.files.get(file);
      if (!found)
        return Promise.reject(new Error(`${file} is not indexed (no grammar for it, or no such file)`));
      return Promise.resolve(found.symbols);
    },
    findSymbol: (name, file) => Promise.resolve(ws.index.findSymbol(name, file)),
  };
}

/** propose_spec: verify the proposal, keep or reject it, and word the verdict for the model. */
function proposalJudge(
  ws: AnchoredWorkspace,
  checkout: ScratchCheckout,
  { kept, rejected }: DraftsSoFar,
  options: DraftOptions,
): DraftToolHandlers['propose'] {
  const maxSpecs = options.maxSpecs ?? DEFAULT_MAX_DRAFTS;
  const progress = options.onProgress ?? (() => undefined);
  return async (proposal, signal) => {
    if (kept.length >= maxSpecs)
      return {
        kept: false,
        message: `The limit of ${maxSpecs} kept specs is reached: call finish.`,
        done: true,
      };
    progress({ type: 'phase', message: 'verifying a proposal in the scratch checkout' });
    const verdict = await verifyProposal(proposal, {
      ws,
      checkout,
      kept,
      maxMutants: options.maxMutantsPerProposal ?? DEFAULT_MUTANTS_PER_PROPOSAL,
      signal,
    });
    if (verdict.kept) {
      kept.push(verdict.draft);
      const v = verdict.draft.verification;
      const message =
        `KEPT ${verdict.draft.spec.id}: ${v.goal ? 'a goal (its test fails by an assertion on the current code)' : 'a constraint (its test passes)'}, ` +
        `${v.tests} test(s) by ${v.runner}, the same verdict over ${v.repeats.length} runs` +
        (v.killedExample ? `, kills the mutant ${v.killedExample}` : '') +
        `. ${kept.length} of at most ${maxSpecs} kept.`;
      progress({ type: 'proposal', id: verdict.draft.spec.id, kept: true, message });
      return { kept: true, message, done: kept.length >= maxSpecs };
    }
    rejected.push(verdict.rejected);
    const message = `REJECTED ${verdict.rejected.id} (${verdict.rejected.stage}): ${verdict.rejected.reason}`;
    progress({ type: 'proposal', id: verdict.rejected.id, kept: false, message });
    return { kept: false, message, done: false };
  };
}
