// Verifies one proposal in the session's scratch checkout before it counts. In order (the first failing check is
// the reason): valid against the specs.json v1 schema and the existing spec graph (unique id, known references,
// no dependsOn cycle); its test files are new files it declares as test.files; it anchors code that resolves;
// not a duplicate (duplicates.ts); its test runs ≥ 1 test with a recognised runner summary, gives the same
// verdict twice (else flaky), and passes (a constraint) or fails by an assertion (a goal: `goal: true`), never
// errors; and, for a constraint, it kills ≥ 1 mutant of its anchored code (else vacuous). The checkout is left
// as it was found: the proposal's test files are removed again whatever the verdict.
import fs from 'node:fs/promises';
import path from 'node:path';
import { exercisedCode } from '../audit/exercised';
import { mutantSpecFile, mutantTimeoutSeconds, runMutant } from '../audit/mutantRun';
import { generateMutants, selectWithinBudget } from '../audit/runAudit';
import { runSpecsInCheckout, type ScratchCheckout } from '../audit/scratch';
import type { SpecResult } from '../check';
import { resolveAnchors } from '../anchors/resolve';
import type { AnchoredWorkspace } from '../anchors/anchoredWorkspace';
import { parseSpecText, relativePathProblem, type SpecInput } from '../spec';
import type { Spec, SpecFile } from '../../shared/specSchema';
import { duplicateOf } from './duplicates';
import type { KeptDraft, Proposal, RejectedDraft, RejectStage, Verification } from './types';

export interface VerifyContext {
  /** The workspace as indexed in the scratch checkout (ws.workspaceDir is the checkout). */
  ws: AnchoredWorkspace;
  /** That checkout, with the containment its runs get. */
  checkout: ScratchCheckout;
  /** Drafts kept earlier in the session: the graph and the duplicate check include them. */
  kept: readonly KeptDraft[];
  /** Mutants tried at most before a constraint is called vacuous. */
  maxMutants: number;
  signal?: AbortSignal;
}

export type VerifyOutcome = { kept: true; draft: KeptDraft } | { kept: false; rejected: RejectedDraft };

const ASSERTION_FAILURE =
  /AssertionError|ERR_ASSERTION|\bassert(?:ion)?\b.*(?:fail|error)|^E\s+assert\b|expect\(.*\)\.|Expected[:\s]/im;
const LOAD_FAILURE =
  /SyntaxError|Cannot find module|ERR_MODULE_NOT_FOUND|ModuleNotFoundError|ImportError|ReferenceError|is not defined\b|errors? during collection/;

export async function verifyProposal(proposal: Proposal, ctx: VerifyContext): Promise<VerifyOutcome> {
  const rawId = (proposal.spec as { id?: unknown } | null)?.id;
  const id = typeof rawId === 'string' && rawId !== '' ? rawId : '(no id)';
  const checked = await checkBeforeRunning(proposal, ctx);
  const decided = 'stage' in checked ? checked : await runTheProposal(proposal, ctx, checked);
  return 'stage' in decided ? { kept: false, rejected: { id, ...decided } } : decided;
}

interface Rejection {
  stage: RejectStage;
  reason: string;
}

interface Checked {
  /** The spec file with the proposal added (its last spec). */
  candidate: SpecFile;
  spec: Spec;
  anchored: ReturnType<typeof resolveAnchors>;
}

/** What is decided without running anything: a valid spec, its test files, anchors that resolve, not a duplicate. */
async function checkBeforeRunning(proposal: Proposal, ctx: VerifyContext): Promise<Rejection | Checked> {
  const base = ctx.ws.specFile;
  const existing = [...base.specs, ...ctx.kept.map((k) => k.spec)];
  const candidateText = JSON.stringify(
    { version: 1, goal: base.goal, defaults: base.defaults, specs: [...existing, proposal.spec] },
    null,
    2,
  );
  const parsed = parseSpecText(candidateText, 'the drafted spec');
  if (!parsed.ok) {
    const index = existing.length;
    const problems = parsed.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.path.replace(`specs[${index}]`, 'spec') || 'spec'}: ${p.message}`);
    return { stage: 'invalid', reason: `not a valid spec: ${problems.join('; ')}` };
  }
  const candidate = parsed.specFile;
  const spec = candidate.specs.at(-1)!;

  const fileProblem = await testFileProblem(proposal, spec, ctx.ws.workspaceDir);
  if (fileProblem) return { stage: 'test-files', reason: fileProblem };

  if (spec.anchors.length === 0)
    return {
      stage: 'anchors',
      reason: 'no anchors: name the code this spec constrains (a file, or file#Symbol)',
    };
  const anchored = resolveAnchors({ ...candidate, specs: [spec] }, ctx.ws.index, {
    workspaceDir: ctx.ws.workspaceDir,
  });
  const anchorErrors = anchored.problems.filter((p) => p.severity === 'error').map((p) => p.message);
  if (anchorErrors.length > 0)
    return { stage: 'anchors', reason: `anchors do not resolve: ${anchorErrors.join('; ')}` };

  const duplicate = duplicateOf(spec, existing);
  if (duplicate) return { stage: 'duplicate', reason: duplicate };
  return { candidate, spec, anchored };
}

/** Runs the proposal's test twice in the scratch checkout; a pass must also kill a mutant of its anchors. */
async function runTheProposal(
  proposal: Proposal,
  ctx: VerifyContext,
  { candidate, spec, anchored }: Checked,
): Promise<Rejection | VerifyOutcome> {
  const written = await writeTestFiles(ctx.ws.workspaceDir, proposal.testFiles);
  try {
    const results = await runSpecsInCheckout(ctx.checkout, candidate, [spec.id], {
      repeat: 2,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    const result = results.find((r) => r.id === spec.id)!;
    const verdict = verdictProblem(result);
    if (verdict) return verdict;
    const summary = result.summary!;
    const verification: Verification = {
      verdict: result.verdict as 'pass' | 'fail',
      goal: result.verdict === 'fail',
      runner: summary.runner,
      tests: summary.passed + summary.failed,
      repeats: result.repeats ?? [result.verdict],
      mutantsTried: 0,
      mutantsKilled: 0,
    };
    if (result.verdict === 'pass') {
      const vacuity = await killsAMutant(ctx, candidate, spec, anchored.resolved, result.durationMs);
      Object.assign(verification, vacuity.counts);
      if (!vacuity.killed) return { stage: 'vacuous', reason: vacuity.reason };
    }
    return {
      kept: true,
      draft: { spec, specInput: proposal.spec as SpecInput, testFiles: proposal.testFiles, verification },
    };
  } finally {
    await removeWritten(ctx.ws.workspaceDir, written);
  }
}

async function testFileProblem(proposal: Proposal, spec: Spec, dir: string): Promise<string | undefined> {
  const declared = new Set(spec.test.files.map(clean));
  for (const file of proposal.testFiles) {
    const problem = relativePathProblem(file.path);
    if (problem) return `test file ${file.path}: ${problem}`;
    if (!declared.has(clean(file.path)))
      return `test file ${file.path} is not listed in the spec's test.files (${[...declared].join(', ') || 'none'})`;
    if (await exists(path.join(dir, file.path)))
      return `test file ${file.path} already exists: a draft only adds new test files`;
  }
  const provided = new Set(proposal.testFiles.map((f) => clean(f.path)));
  for (const file of declared) {
    if (!provided.has(file) && !(await exists(path.join(dir, file))))
      return `test.files names ${file}, which neither exists nor is among the proposal's testFiles`;
  }
  if (declared.size === 0)
    return 'the spec lists no test.files: give its test file(s) in test.files and testFiles';
  return undefined;
}

function verdictProblem(result: SpecResult): { stage: RejectStage; reason: string } | undefined {
  const tail = (): string => `\n--- test output (tail) ---\n${result.output.slice(-1200)}`;
  if (result.verdict === 'flaky') return { stage: 'flaky', reason: `flaky: ${result.reason ?? ''}` };
  if (result.verdict === 'blocked') return { stage: 'blocked', reason: result.reason ?? 'blocked' };
  if (result.verdict === 'error' && result.reason?.startsWith('ran no test'))
    return { stage: 'no-test', reason: `its test ${result.reason}` };
  if (result.verdict === 'tampered' || result.verdict === 'unverified')
    return { stage: 'error', reason: `its test run is ${result.verdict}: ${result.reason ?? ''}` };
  if (result.verdict === 'error' || result.verdict === 'skipped')
    return {
      stage: 'error',
      reason: `its test could not run properly: ${result.reason ?? result.verdict}${tail()}`,
    };
  const summary = result.summary;
  if (summary === undefined || summary.passed + summary.failed < 1)
    return {
      stage: 'no-test',
      reason:
        'no recognised test-runner summary: Weave cannot tell that a test ran (use node:test, mocha, vitest, jest, pytest, …)',
    };
  if (
    result.verdict === 'fail' &&
    (LOAD_FAILURE.test(result.output) || !ASSERTION_FAILURE.test(result.output))
  )
    return {
      stage: 'error',
      reason: `its test fails, but not by an assertion (a load error or a crash is no goal)${tail()}`,
    };
  return undefined;
}

async function killsAMutant(
  ctx: VerifyContext,
  candidate: SpecFile,
  spec: Spec,
  resolved: AnchoredWorkspace['resolved'],
  baselineMs: number,
): Promise<{
  killed: boolean;
  reason: string;
  counts: Pick<Verification, 'mutantsTried' | 'mutantsKilled' | 'killedExample'>;
}> {
  const exercised = exercisedCode({ ...ctx.ws, specFile: candidate, resolved }, [spec.id]);
  const { texts, perSpec } = await generateMutants(ctx.ws.workspaceDir, exercised);
  const mutants = selectWithinBudget([spec.id], perSpec, ctx.maxMutants);
  if (mutants.length === 0)
    return {
      killed: false,
      reason:
        'vacuous: its anchored code offers no mutant to check the test against (anchor the logic it tests)',
      counts: { mutantsTried: 0, mutantsKilled: 0 },
    };
  const timeout = mutantTimeoutSeconds(
    baselineMs,
    spec.test.timeoutSeconds ?? candidate.defaults.timeoutSeconds,
  );
  const runnable = mutantSpecFile(candidate, () => timeout);
  let tried = 0;
  const survivors: string[] = [];
  for (const mutant of mutants) {
    if (ctx.signal?.aborted) break;
    tried++;
    const outcome = (
      await runMutant(ctx.checkout, mutant, texts.get(mutant.file)!, runnable, [spec.id], ctx.signal)
    ).get(spec.id);
    const label = `${mutant.file}:${mutant.line} \`${mutant.original}\` → \`${mutant.replacement}\``;
    if (outcome === 'killed' || outcome === 'timed-out')
      return {
        killed: true,
        reason: '',
        counts: { mutantsTried: tried, mutantsKilled: 1, killedExample: label },
      };
    survivors.push(label);
  }
  return {
    killed: false,
    reason: `vacuous: its test passed against all ${tried} mutant(s) of its anchored code, e.g. ${survivors.slice(0, 3).join('; ')}`,
    counts: { mutantsTried: tried, mutantsKilled: 0 },
  };
}

async function writeTestFiles(
  dir: string,
  files: readonly Proposal['testFiles'][number][],
): Promise<string[]> {
  const written: string[] = [];
  for (const file of files) {
    const target = path.join(dir, file.path);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, file.content, { flag: 'wx' });
    written.push(target);
  }
  return written;
}

async function removeWritten(dir: string, written: readonly string[]): Promise<void> {
  for (const file of written) {
    await fs.rm(file, { force: true });
    // Folders the proposal created are removed too, as long as nothing else is in them.
    for (let d = path.dirname(file); d.startsWith(dir + path.sep); d = path.dirname(d)) {
      if (
        !(await fs.rmdir(d).then(
          () => true,
          () => false,
        ))
      )
        break;
    }
  }
}

function clean(p: string): string {
  return p.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}
