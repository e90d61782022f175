// `weave agent`: runs a coding agent (any OpenAI-compatible endpoint) against every spec at once, against one
// spec, or as the interaction matrix. Progress goes to stderr; the verdict table, review and patch (or the
// matrix) to stdout, or one JSON document with --json.
import { trapInterrupts } from '../interrupt';
import path from 'node:path';
import { DEFAULT_BASE_URL, ModelError, probeModelEndpoint } from '../../core/model';
import { runMatrix } from '../../core/agent/matrix';
import { formatMatrix } from '../output/matrixTable';
import type { AgentRunResult } from '../../core/agent/agentRunResult';
import { agentRunSetup, type AgentRunRequest, type AgentRunSetup } from '../../core/agent/agentRunSetup';
import { DEFAULT_BUDGETS, runAgent } from '../../core/agent/runAgent';
import { applyAgentResult, applyRefusal } from '../../core/agent/applyPolicy';
import type { ContainmentRequest } from '../../core/sandbox/containment';
import { gitRoot, headCommit } from '../../core/git/git';
import { PatchApplyError } from '../../core/agent/workspacePatch';
import { loadSpecFile, SpecLoadError, type SpecFile } from '../../core/spec';
import { parseVerbFlags, UsageError, wholeNumber, WORKSPACE_FLAG } from '../flags';
import {
  BUDGET_FLAGS,
  budgetsFromFlags,
  MODEL_FLAGS,
  modelClientFromFlags,
  type ModelFlagValues,
} from '../modelFlags';
import { agentRunJson, formatAgentRun, printAgentProgress } from '../output/agentRun';
import { runCandidateMode, takeApplyBest } from './agentCandidates';
import type { Verb } from '../verb';

const HELP = `Usage: weave agent (--all | --spec ID | --matrix) [options]
       weave agent --candidates N [--spec ID] [--model M]... [--agent-command CMD]... [--self-pick] [--apply best]

Runs a coding agent against the workspace's specs in a throw-away git worktree (a copy outside git), including
your uncommitted changes. The agent reads and edits files and runs the spec tests itself until the specs pass or
its budget runs out. The result is a patch plus a verdict table (before → after) and a review; your files change
only with --apply.

Modes:
  --all                 satisfy every spec together
  --spec ID             make one spec pass (the other specs are still checked after)
  --matrix              solve each spec alone and all together (in parallel worktrees); cell (i, j) is spec j's
                        verdict after solving spec i alone; flags "solving i broke j" and "satisfiable alone,
                        not together"
  --candidates N        N attempts at --all (the default) or --spec ID in parallel, each in its own sandboxed
                        checkout, ranked by the tests: strict compliance, specs passed, constraints broken, patch
                        size; tampering and review violations disqualify. --model may repeat (candidates take the
                        models in turn, each with its own seed); each --agent-command CMD adds one candidate run
                        by CMD (sh -c in the checkout, the instruction on stdin and in $WEAVE_INSTRUCTION), as in
                        weave bench. The model server is asked once before any candidate starts.
  --self-pick           also ask the (first) model to choose among the candidates' diffs (it is not shown the
                        verdicts), and report its pick against the first candidate and the verified best
  --price M=IN/OUT      USD per million input/output tokens of model M, for the candidates' cost (repeatable)

Model (any OpenAI-compatible endpoint: OpenAI, Ollama, vLLM, LM Studio):
  --base-url URL        default $WEAVE_BASE_URL, $OPENAI_BASE_URL or ${DEFAULT_BASE_URL}
  --model M             default $WEAVE_MODEL (required)
                        The key comes from $WEAVE_API_KEY or $OPENAI_API_KEY; a server on localhost needs none.
  --no-stream           ask for whole answers instead of a stream

Budgets (per agent run):
  --max-steps N         model calls (default ${DEFAULT_BUDGETS.maxSteps})
  --max-tokens N        total tokens (default ${DEFAULT_BUDGETS.maxTokens})
  --timeout-seconds N   wall time (default ${DEFAULT_BUDGETS.timeoutSeconds})

Options:
  --workspace DIR       the workspace folder (default: the current directory)
  --concurrency N       agent runs at once for --matrix and --candidates (default 2)
  --apply               apply the patch to your files (refused unless it applies cleanly, and always refused
                        when a spec run tampered with protected files or the review found a violation);
                        with --candidates: --apply best applies the top-ranked candidate, never a disqualified one
  --network none|host   network for spec runs inside the sandbox (default none: a private loopback only)
  --no-sandbox          run the agent's code WITHOUT the OS sandbox (explicit opt-out; results say so)
  --no-review           skip the model review (the deterministic checks still run)
  --json                print one JSON document instead of tables
  -h, --help            show this help

Every run writes .weave/runs/agent/<id>/ (trajectory.jsonl, patch.diff, result.json), secrets redacted; with
--candidates, .weave/runs/agent/<id>/cand-K/ per candidate and ranking.json beside them.

Exit codes: 0 the agent finished and the specs pass, 1 it did not (budget, model error, a model server that
cannot be reached, failing specs, patch not applied; with --candidates: no candidate finished with every spec
passing), 2 bad input (flags, spec file, no key).

Examples:
  OPENAI_API_KEY=sk-... weave agent --all --model gpt-4.1
  weave agent --spec no-secret-caching --base-url http://127.0.0.1:11434/v1 --model qwen2.5-coder --apply
  weave agent --matrix --concurrency 4 --json > matrix.json
  weave agent --all --candidates 4 --model gpt-4.1 --model qwen2.5-coder --self-pick --apply best`;

export const agentVerb: Verb = {
  name: 'agent',
  summary: 'Run a coding agent against all specs at once, one spec, or as the interaction matrix',
  help: HELP,
  async run(args) {
    const { flags, applyBest, candidateMode } = parseAgentFlags(args);
    const containment = containmentFromFlags(flags.network, flags['no-sandbox']);
    const budgets = budgetsFromFlags('agent', flags);
    const concurrency = wholeNumber('agent', 'concurrency', flags.concurrency);
    const candidates = wholeNumber('agent', 'candidates', flags.candidates);
    const { workspaceDir, specFile } = await loadAgentWorkspace(flags.workspace, flags.spec);

    const runRequest = { workspaceDir, specFile, budgets, containment };
    // --candidates without a mode is --all (parseAgentFlags allows it): the usage line's second form.
    const target =
      flags.spec !== undefined ? { kind: 'spec' as const, id: flags.spec } : { kind: 'all' as const };
    if (candidateMode) {
      return runCandidateMode(flags, {
        ...runRequest,
        target,
        count: candidates,
        concurrency: concurrency ?? 2,
        applyBest,
      });
    }
    const setup = await agentRunFromFlags({ ...flags, model: flags.model?.[0] }, runRequest);
    // A server that is not there fails now, not after the agent's first check of every spec.
    try {
      await probeModelEndpoint(setup.client.baseURL);
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      process.stderr.write(`weave agent: ${error.message}\n`);
      return 1;
    }

    const interrupt = trapInterrupts('agent', 'cancelling (stopping the model, removing checkouts)…');
    const common = { ...setup, signal: interrupt.signal };
    try {
      if (flags.matrix) return await matrixMode(common, concurrency ?? 2, flags.json);
      return await oneRunMode(common, target, workspaceDir, flags);
    } finally {
      interrupt.dispose();
    }
  },
};

/** Phase 1: the flags, and the refusal of modes and options that do not go together. */
function parseAgentFlags(args: string[]) {
  const { applyBest, rest } = takeApplyBest(args);
  const flags = parseVerbFlags('agent', rest, {
    all: { type: 'boolean', default: false },
    spec: { type: 'string' },
    matrix: { type: 'boolean', default: false },
    ...WORKSPACE_FLAG,
    ...MODEL_FLAGS,
    model: { type: 'string', multiple: true },
    ...BUDGET_FLAGS,
    concurrency: { type: 'string' },
    candidates: { type: 'string' },
    'agent-command': { type: 'string', multiple: true },
    'self-pick': { type: 'boolean', default: false },
    price: { type: 'string', multiple: true, default: [] },
    apply: { type: 'boolean', default: false },
    'no-sandbox': { type: 'boolean', default: false },
    network: { type: 'string', default: 'none' },
    'no-review': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  const candidateMode = flags.candidates !== undefined || (flags['agent-command'] ?? []).length > 0;
  const modes = [flags.all, flags.spec !== undefined, flags.matrix].filter(Boolean).length;
  // Candidates are attempts at --all unless --spec says otherwise, so they need no mode of their own.
  if (modes > 1 || (modes === 0 && !candidateMode))
    throw new UsageError('choose exactly one of --all, --spec ID, --matrix');
  if (candidateMode && flags.matrix)
    throw new UsageError('--candidates ranks attempts at --all or --spec ID, not --matrix');
  if (!candidateMode && (flags.model ?? []).length > 1)
    throw new UsageError('several --model: use --candidates N to run them side by side');
  if (!candidateMode && (flags['self-pick'] || applyBest || flags.price.length > 0))
    throw new UsageError('--self-pick, --price and --apply best go with --candidates N');
  if (candidateMode && flags.apply)
    throw new UsageError('with --candidates, say which to apply: --apply best');
  if (flags.matrix && flags.apply)
    throw new UsageError('--apply applies one run’s patch: use it with --all or --spec, not --matrix');
  return { flags, applyBest, candidateMode };
}

/** `--network none|host` and `--no-sandbox`: how the agent's spec runs are contained. */
function containmentFromFlags(network: string, noSandbox: boolean): ContainmentRequest {
  if (network !== 'none' && network !== 'host')
    throw new UsageError(`--network must be 'none' or 'host' (got '${network}')`);
  return { network, ...(noSandbox ? { forceUnsandboxed: true } : {}) };
}

/** Phase 2: the spec file, and a workspace the agent can start from (a known --spec, specs, a commit). */
async function loadAgentWorkspace(
  workspace: string,
  spec: string | undefined,
): Promise<{ workspaceDir: string; specFile: SpecFile }> {
  const workspaceDir = path.resolve(workspace);
  const loaded = await loadSpecFile(workspaceDir);
  if (!loaded.ok) throw new SpecLoadError(loaded.file, loaded.problems);
  const { specFile } = loaded;
  if (spec !== undefined && !specFile.specs.some((s) => s.id === spec)) {
    throw new UsageError(
      `unknown spec '${spec}'; the specs are: ${specFile.specs.map((s) => s.id).join(', ')}`,
    );
  }
  if (specFile.specs.length === 0)
    throw new UsageError('the spec file has no specs: nothing for the agent to satisfy');
  if ((await gitRoot(workspaceDir)) !== null && (await headCommit(workspaceDir)) === null)
    throw new UsageError(
      'the repository has no commits yet: commit your work first (the agent starts from HEAD plus your changes)',
    );
  return { workspaceDir, specFile };
}

/** `--matrix`: every spec alone and all together, printed; 1 unless every run was conclusive and solved. */
async function matrixMode(
  common: AgentRunSetup & { signal: AbortSignal },
  concurrency: number,
  json: boolean,
): Promise<number> {
  const matrix = await runMatrix({ ...common, concurrency });
  if (json) process.stdout.write(`${JSON.stringify(matrix, null, 2)}\n`);
  else process.stdout.write(formatMatrix(matrix));
  const modelError = matrix.runs.find((r) => r.stopReason === 'model-error');
  if (modelError?.error) process.stderr.write(`weave agent: ${modelError.error}\n`);
  // Unsolved together, or runs that could not show anything: the user must not read this as "all fine".
  const conclusive = matrix.inconclusive.length === 0 && matrix.unsolvedTogether.length === 0;
  return modelError || common.signal.aborted || !conclusive ? 1 : 0;
}

/** `--all` / `--spec ID`: one run, its patch applied when asked (and allowed), printed; 0 when it succeeded. */
async function oneRunMode(
  common: AgentRunSetup,
  target: AgentRunResult['target'],
  workspaceDir: string,
  flags: { apply: boolean; json: boolean; 'no-review': boolean },
): Promise<number> {
  const result = await runAgent({ ...common, target, modelReview: !flags['no-review'] });
  const refusal = applyRefusal(result);
  const { applied, applyError } = flags.apply
    ? await applyIfAllowed(workspaceDir, result, refusal)
    : { applied: undefined, applyError: undefined };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(agentRunJson(result, applied), null, 2)}\n`);
  } else {
    process.stdout.write(formatAgentRun(result, workspaceDir, applied));
  }
  if (result.error) process.stderr.write(`weave agent: ${result.error}\n`);
  if (applyError) process.stderr.write(`weave agent: ${applyError}\n`);
  return succeeded(result, target) && applied !== 'not-applied' && applied !== 'refused' && !refusal ? 0 : 1;
}

type Applied = 'applied' | 'not-applied' | 'refused' | 'nothing';

/** `--apply`: nothing to apply, refused (tampering, a review violation), applied, or a patch that did not apply. */
async function applyIfAllowed(
  workspaceDir: string,
  result: AgentRunResult,
  refusal: string | undefined,
): Promise<{ applied: Applied; applyError: string | undefined }> {
  if (result.patch.trim() === '') return { applied: 'nothing', applyError: undefined };
  if (refusal) return { applied: 'refused', applyError: refusal };
  try {
    await applyAgentResult(workspaceDir, result);
    return { applied: 'applied', applyError: undefined };
  } catch (error) {
    if (!(error instanceof PatchApplyError)) throw error;
    return { applied: 'not-applied', applyError: error.message };
  }
}

/** The CLI's way into an agent run: the model from the flags and the environment, the rest from the core. */
export async function agentRunFromFlags(
  flags: ModelFlagValues,
  run: Pick<AgentRunRequest, 'workspaceDir' | 'specFile' | 'budgets' | 'containment'>,
): Promise<AgentRunSetup> {
  const { client, apiKey } = modelClientFromFlags(flags);
  return agentRunSetup({ ...run, client, apiKey, onProgress: printAgentProgress });
}

function succeeded(result: AgentRunResult, target: AgentRunResult['target']): boolean {
  if (result.stopReason !== 'finished') return false;
  const wanted = target.kind === 'all' ? result.verdicts : result.verdicts.filter((v) => v.id === target.id);
  return wanted.every((v) => v.after === 'pass');
}
