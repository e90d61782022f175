// Blame: which edit broke a spec. The diff between the baseline (a git ref, or the commit of the latest clean
// recorded run) and the working tree — uncommitted and untracked files included — is cut into hunks; delta
// debugging applies subsets of them to the baseline in a scratch worktree and runs the ONE spec's test, until the
// smallest set that still breaks it is found. The hunks are then mapped to their enclosing symbols and to the
// specs anchored there. The user's working tree, index and refs are never written: the working tree is
// snapshotted through a private index file, and every probe runs in a throw-away `git worktree`.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { latestCleanRun } from '../check/runStore';
import type { Verdict } from '../check/types';
import { verdictOf } from '../check/verdict';
import { specsExecuting } from '../coverage/coupling';
import { readCoverageStore } from '../coverage/store';
import type { CoverageStore } from '../coverage/types';
import { git, gitRoot, resolveCommit } from '../git/git';
import { withWorktree } from '../git/worktree';
import { runCommand } from '../process/runCommand';
import { loadSpecFile } from '../spec/load';
import { SpecLoadError } from '../spec/problems';
import type { Spec, SpecFile } from '../../shared/specSchema';
import type { SymbolDef } from '../index/types';
import {
  normalizeWorkspacePath,
  resolveAnchors,
  type IndexView,
  type ResolvedAnchor,
} from '../anchors/resolve';
import {
  defaultAttributionCriteria,
  executedTheEdit,
  rankAttribution,
  type AttributionCandidate,
} from './attribution';
import { specCones, type SpecCone } from '../selection/cones';
import { ddmin, type ProbeOutcome } from './ddmin';
import { buildPatch, describeHunk, parseDiff, type DiffHunk, type ParsedDiff } from '../selection/hunks';

export const DEFAULT_BLAME_MAX_RUNS = 32;

export type BlameErrorCode =
  | 'unknown-spec'
  | 'not-git'
  | 'no-baseline'
  | 'baseline-missing'
  | 'empty-diff'
  | 'not-broken'
  | 'fails-on-baseline'
  | 'cancelled';

/** Blame cannot answer as asked; `message` says why and what to do. The CLI prints it (exit 2 or 1). */
export class BlameError extends Error {
  override name = 'BlameError';
  constructor(
    readonly code: BlameErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface BlameOptions {
  workspaceDir: string;
  specId: string;
  /** Git ref of the baseline; default: the commit of the latest clean recorded run. */
  baselineRef?: string;
  signal?: AbortSignal;
  /** Most spec runs in all, the two checks (broken now, passes on the baseline) included. Default 32. */
  maxRuns?: number;
  onProgress?: (event: BlameProgress) => void;
  /** The workspace index (for symbols and anchors); blame builds one when absent. */
  index?: IndexView;
  /** Builds the index when `index` is absent. */
  loadIndex?: (workspaceDir: string, signal?: AbortSignal) => Promise<IndexView>;
}

export interface BlameProgress {
  run: number;
  maxRuns: number;
  /** Hunks applied in this probe, and how many hunks there are in all. */
  applied: number;
  total: number;
  verdict: Verdict;
}

export interface BlamedHunk {
  /** Workspace-relative file. */
  file: string;
  location: string;
  /** 1-based first line of the hunk in the working tree, and its line count there (0: lines were deleted). */
  line: number;
  lineCount: number;
  kind: DiffHunk['kind'];
  /** `-`/`+` lines of the hunk. */
  diff: string;
  /** Innermost enclosing definitions of the changed lines in the working tree (qualified names). */
  symbols: string[];
  /**
   * The spec(s) the edit was made for: of the specs (other than the blamed one) anchored over it, those ranked
   * first by the attribution criteria (attribution.ts), which no criterion tells apart.
   */
  anchoredBy: string[];
  /** Every spec anchored over the edit, best first, with the anchor that covers it most specifically. */
  attribution: Array<{ specId: string; anchor: string; coneDistance: number | null }>;
  /** Specs (other than the blamed one) whose recorded tests executed those symbols (per-spec coverage). */
  executedBy: string[];
}

export interface BlameResult {
  specId: string;
  baseline: { commit: string; ref?: string; runId?: string };
  /** Hunks in the diff (excluding the spec file and the spec's own test files, which every probe keeps). */
  totalHunks: number;
  hunks: BlamedHunk[];
  /** False when the run budget ran out before the set was 1-minimal. */
  minimal: boolean;
  runs: number;
  /** Verdict of the spec with every change applied ('fail' or 'error'). */
  brokenVerdict: Verdict;
  /** One line per blamed hunk: "the edit to `LruCache.get` (src/cache.js:42-43), made for `cache-hit`, breaks `no-stale-read`". */
  explanation: string[];
}

export async function blameSpec(options: BlameOptions): Promise<BlameResult> {
  const workspaceDir = await fs
    .realpath(path.resolve(options.workspaceDir))
    .catch(() => path.resolve(options.workspaceDir));
  const maxRuns = options.maxRuns ?? DEFAULT_BLAME_MAX_RUNS;
  const loaded = await loadSpecFile(workspaceDir);
  if (!loaded.ok) throw new SpecLoadError(loaded.file, loaded.problems);
  const { specFile } = loaded;
  const spec = specFile.specs.find((s) => s.id === options.specId);
  if (!spec) {
    const known = specFile.specs.map((s) => s.id).join(', ');
    throw new BlameError('unknown-spec', `unknown spec id '${options.specId}' (specs: ${known})`);
  }
  const root = await gitRoot(workspaceDir);
  if (root === null)
    throw new BlameError('not-git', `${workspaceDir} is not in a git repository: blame needs a git baseline`);
  const prefix = toPosix(path.relative(root, workspaceDir));

  const baseline = await findBaseline(workspaceDir, options.baselineRef, spec.id);
  const workingTree = await workingTreeAsGitTree(root, workspaceDir);
  const pathspec = prefix === '' ? '.' : prefix;
  const rawDiff = await git(
    [
      'diff',
      '--no-renames',
      '--binary',
      '--full-index',
      '-U0',
      '--no-color',
      '--no-ext-diff',
      baseline.commit,
      workingTree,
      '--',
      pathspec,
    ],
    root,
  );
  const diff = parseDiff(rawDiff);

  // The spec file and the blamed spec's own tests are held at their current version in every probe (as
  // `weave check --baseline-ref` does): the question is which CODE change breaks today's test.
  const toWorkspace = (repoPath: string): string =>
    prefix === '' ? repoPath : repoPath.slice(prefix.length + 1);
  const pinnedFiles = new Set([
    normalizeWorkspacePath('.weave/specs.json'),
    ...spec.test.files.map(normalizeWorkspacePath),
  ]);
  // Weave's own local state (run history, index cache) is never part of the change being blamed.
  const relevant = diff.hunks.filter((h) => {
    const file = toWorkspace(h.file);
    return !file.startsWith('.weave/') || file === '.weave/specs.json';
  });
  const pinned = relevant.filter((h) => pinnedFiles.has(toWorkspace(h.file)));
  const candidates = relevant.filter((h) => !pinnedFiles.has(toWorkspace(h.file)));
  if (candidates.length === 0) {
    const where = prefix === '' ? 'the working tree' : `the working tree's ${prefix}/`;
    throw new BlameError(
      'empty-diff',
      pinned.length === 0
        ? `nothing changed between the baseline ${short(baseline.commit)} and ${where}: there is no edit to blame`
        : `only the spec file and ${spec.id}'s own test files changed since the baseline ${short(baseline.commit)}: there is no code edit to blame`,
    );
  }

  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-blame-'));
  let runs = 0;
  try {
    return await withWorktree(workspaceDir, baseline.commit, async (workspaceInCheckout) => {
      const checkoutRoot =
        prefix === '' ? workspaceInCheckout : workspaceInCheckout.slice(0, -(prefix.length + 1));
      const probe = async (subset: DiffHunk[]): Promise<Verdict> => {
        if (options.signal?.aborted) throw new BlameError('cancelled', 'blame was cancelled');
        runs++;
        const verdict = await runProbe(
          checkoutRoot,
          workspaceInCheckout,
          scratch,
          diff,
          [...pinned, ...subset],
          spec,
          specFile,
          options.signal,
        );
        options.onProgress?.({
          run: runs,
          maxRuns,
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
          `${spec.id} does not pass on the baseline ${short(baseline.commit)} either (${baseVerdict}): the change did not break it, so there is nothing to blame`,
        );
      }
      const test = async (subset: DiffHunk[]): Promise<ProbeOutcome> => {
        const verdict = await probe(subset);
        if (verdict === 'skipped') throw new BlameError('cancelled', 'blame was cancelled');
        // Only the same failure counts; anything else (an error from a half-applied change) is unresolved.
        return verdict === brokenVerdict ? 'fails' : verdict === 'pass' ? 'passes' : 'unresolved';
      };
      const found = await ddmin(candidates, test, Math.max(0, maxRuns - runs), (h) => h.id);
      const index = options.index ?? (await requireIndexLoader(options)(workspaceDir, options.signal));
      const { resolved } = resolveAnchors(specFile, index, { workspaceDir });
      const others = new Map([...resolved].filter(([id]) => id !== spec.id));
      const cones = specCones(specFile, index, { workspaceDir, resolved });
      const coverage = await readCoverageStore(workspaceDir);
      const hunks = found.items.map((h) =>
        describeBlamed(h, toWorkspace(h.file), {
          specFile,
          index,
          anchors: others,
          cones,
          coverage,
          blamedId: spec.id,
        }),
      );
      const result: BlameResult = {
        specId: spec.id,
        baseline,
        totalHunks: candidates.length,
        hunks,
        minimal: found.minimal,
        runs,
        brokenVerdict,
        explanation: hunks.map((h) => explain(h, spec.id)),
      };
      return result;
    });
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

function requireIndexLoader(
  options: BlameOptions,
): (dir: string, signal?: AbortSignal) => Promise<IndexView> {
  if (!options.loadIndex) throw new Error('blameSpec needs `index` or `loadIndex`');
  return options.loadIndex;
}

async function findBaseline(
  workspaceDir: string,
  ref: string | undefined,
  specId: string,
): Promise<BlameResult['baseline']> {
  if (ref !== undefined) {
    try {
      return { commit: await resolveCommit(workspaceDir, ref), ref };
    } catch {
      throw new BlameError(
        'baseline-missing',
        `baseline ${ref} does not exist: it is not a commit in this repository`,
      );
    }
  }
  const run = await latestCleanRun(workspaceDir, [specId]);
  if (run === null || run.commit === null) {
    throw new BlameError(
      'no-baseline',
      'no baseline: no run was recorded on a clean tree; pass --baseline-ref REF (e.g. HEAD) or run `weave check` on a clean tree first',
    );
  }
  try {
    return { commit: await resolveCommit(workspaceDir, run.commit), runId: run.id };
  } catch {
    throw new BlameError(
      'baseline-missing',
      `the baseline run ${run.id} was recorded at commit ${short(run.commit)}, which no longer exists; pass --baseline-ref REF`,
    );
  }
}

/**
 * The working tree as a git tree object, untracked (non-ignored) files included. A private copy of the index is
 * used, so the user's index is left exactly as it was.
 */
async function workingTreeAsGitTree(root: string, workspaceDir: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-index-'));
  try {
    const indexFile = path.join(dir, 'index');
    const realIndex = path.resolve(root, (await git(['rev-parse', '--git-path', 'index'], root)).trim());
    const env = { ...process.env, GIT_INDEX_FILE: indexFile };
    const copied = await fs.copyFile(realIndex, indexFile).then(
      () => true,
      () => false,
    );
    if (
      !copied &&
      (await git(['rev-parse', '--verify', '--quiet', 'HEAD'], root).then(
        () => true,
        () => false,
      ))
    ) {
      await gitWithEnv(['read-tree', 'HEAD'], root, env);
    }
    await gitWithEnv(['add', '-A', '--', '.'], workspaceDir, env);
    return (await gitWithEnv(['write-tree'], root, env)).trim();
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function runProbe(
  checkoutRoot: string,
  workspaceInCheckout: string,
  scratch: string,
  diff: ParsedDiff,
  hunks: DiffHunk[],
  spec: Spec,
  specFile: SpecFile,
  signal: AbortSignal | undefined,
): Promise<Verdict> {
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
  const timeoutMs = (spec.test.timeoutSeconds ?? specFile.defaults.timeoutSeconds) * 1000;
  const outcome = await runCommand({
    command: spec.test.command,
    cwd: path.join(workspaceInCheckout, spec.test.cwd ?? specFile.defaults.cwd),
    env: { ...specFile.defaults.env, ...(spec.test.env ?? {}) },
    timeoutMs,
    ...(signal ? { signal } : {}),
  });
  return verdictOf(outcome, timeoutMs).verdict;
}

interface AttributionContext {
  specFile: SpecFile;
  index: IndexView;
  /** Resolved anchors of every spec but the blamed one. */
  anchors: Map<string, ResolvedAnchor[]>;
  cones: Map<string, SpecCone>;
  /** Recorded per-spec coverage: a spec whose test executed the edited code is the first candidate. */
  coverage: CoverageStore;
  blamedId: string;
}

function describeBlamed(hunk: DiffHunk, file: string, context: AttributionContext): BlamedHunk {
  const symbols: SymbolDef[] = [];
  if (hunk.kind !== 'deleted' && !hunk.wholeFile) {
    const { first, last } = hunkLines(hunk);
    for (let line = first; line <= last; line++) {
      const s = context.index.enclosingSymbol(file, line);
      if (s && !symbols.some((x) => x.qualifiedName === s.qualifiedName)) symbols.push(s);
    }
  }
  const order = context.specFile.specs.map((s) => s.id);
  const names = symbols.map((s) => s.qualifiedName);
  const executedBy = specsExecuting(context.coverage, file, names, order).filter(
    (id) => id !== context.blamedId,
  );
  const { ranked, top } = rankAttribution({
    file,
    lines: hunk.wholeFile ? { first: 0, last: Infinity } : hunkLines(hunk),
    anchors: context.anchors,
    cones: context.cones,
    order,
    criteria: [executedTheEdit(new Set(executedBy)), ...defaultAttributionCriteria],
  });
  return {
    file,
    location: describeHunk({ ...hunk, file }),
    line: Math.max(1, hunk.newStart),
    lineCount: hunk.wholeFile ? 0 : hunk.newCount,
    kind: hunk.kind,
    diff: hunk.body.join('\n'),
    symbols: names,
    anchoredBy: top.map((c) => c.specId),
    attribution: ranked.map(describeCandidate),
    executedBy,
  };
}

function describeCandidate(c: AttributionCandidate): BlamedHunk['attribution'][number] {
  return {
    specId: c.specId,
    anchor: c.anchor.anchor,
    coneDistance: Number.isFinite(c.coneDistance) ? c.coneDistance : null,
  };
}

/** The 0-based lines a hunk touches in the new file (a pure deletion: the line it happened before). */
function hunkLines(hunk: DiffHunk): { first: number; last: number } {
  const first = Math.max(1, hunk.newStart) - 1;
  return { first, last: hunk.newCount === 0 ? first : hunk.newStart + hunk.newCount - 2 };
}

/**
 * Who the edit was for, by criteria in order: the specs whose tests execute the edited symbol (coverage), narrowed
 * to those anchored there when some are; else the specs anchored there.
 */
function explain(h: BlamedHunk, specId: string): string {
  const what = h.symbols.length > 0 ? h.symbols.map((s) => `\`${s}\``).join(', ') : h.file;
  const quoted = (ids: string[]): string =>
    ids.length <= 3
      ? ids.map((s) => `\`${s}\``).join(', ')
      : `${ids
          .slice(0, 3)
          .map((s) => `\`${s}\``)
          .join(', ')} and ${ids.length - 3} more`;
  const both = h.executedBy.filter((id) => h.anchoredBy.includes(id));
  const madeFor =
    both.length > 0
      ? `, made for ${quoted(both)} (${both.length === 1 ? 'its test executes' : 'their tests execute'} it),`
      : h.executedBy.length > 0
        ? `, which ${quoted(h.executedBy)} also execute${h.executedBy.length === 1 ? 's' : ''},`
        : h.anchoredBy.length > 0
          ? `, made for ${quoted(h.anchoredBy)},`
          : '';
  return `the edit to ${what} (${h.location})${madeFor} breaks \`${specId}\``;
}

function short(commit: string): string {
  return commit.slice(0, 12);
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

function gitWithEnv(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, env, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args.join(' ')}: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      },
    );
  });
}
