// `weave export --from-history RANGE`: every commit of RANGE (oldest first, merges left out) whose non-test change
// makes some spec go fail → pass becomes its own verified task (the SWE-smith / Repo2RLEnv way of mining a
// repository's history): base = the commit's parent, target = the commit, judged by the spec file and spec
// tests of the commit itself. Specs failing before and after the commit (waiting for a later one) are left out
// of FAIL_TO_PASS / PASS_TO_PASS and listed as still_failing; a spec the commit breaks still disqualifies it. A commit that fixes nothing a spec sees (a refactor, a docs change) or touches
// only spec tests yields no task, with the reason. Output: DIR/tasks/<sha12>/ (SWE-bench shape),
// DIR/harbor/<sha12>/ (Harbor shape: `harbor run -p DIR/harbor`) and optionally one dataset line per task.
import path from 'node:path';
import { assertRevision, git, GitError } from '../../git/git';
import { exportTask, ExportInputError, type ExportOptions, type ExportResult } from './exportTask';

export interface HistoryOptions extends Omit<
  ExportOptions,
  'outDir' | 'targetCommit' | 'base' | 'harborDir' | 'instanceId'
> {
  range: string;
  outDir: string;
  onCommit?: (entry: HistoryEntry, index: number, total: number) => void;
}

export interface HistoryEntry {
  commit: string;
  subject: string;
  /** The task written for it. */
  result?: ExportResult;
  /** Why the commit yields no task. */
  skipped?: string;
}

export async function exportHistory(options: HistoryOptions): Promise<HistoryEntry[]> {
  const workspaceDir = path.resolve(options.workspaceDir);
  assertRevision(options.range, '--from-history', (m) => new ExportInputError(m));
  let listing: string;
  try {
    listing = await git(
      [
        'rev-list',
        '--reverse',
        '--no-merges',
        '--format=%H %s',
        '--end-of-options',
        options.range,
        '--',
        '.',
      ],
      workspaceDir,
    );
  } catch (error) {
    if (error instanceof GitError)
      throw new ExportInputError(
        `--from-history '${options.range}' is not a revision range here: ${error.stderr.trim()}`,
      );
    throw error;
  }
  const commits = listing
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('commit '))
    .map((line) => ({ commit: line.slice(0, 40), subject: line.slice(41) }));
  if (commits.length === 0)
    throw new ExportInputError(`--from-history '${options.range}' holds no commit touching ${workspaceDir}`);
  const format = options.format ?? 'both';
  const entries: HistoryEntry[] = [];
  for (const [index, { commit, subject }] of commits.entries()) {
    const short = commit.slice(0, 12);
    const entry: HistoryEntry = { commit, subject };
    try {
      const result = await exportTask({
        ...options,
        workspaceDir,
        targetCommit: commit,
        excludeStillFailing: true,
        outDir: path.join(options.outDir, format === 'harbor' ? 'harbor' : 'tasks', short),
        ...(format === 'both' ? { harborDir: path.join(options.outDir, 'harbor', short) } : {}),
      });
      if (result.written) entry.result = result;
      else entry.skipped = whyNoTask(result);
    } catch (error) {
      if (!(error instanceof ExportInputError)) throw error;
      entry.skipped = error.message;
    }
    entries.push(entry);
    options.onCommit?.(entry, index, commits.length);
  }
  return entries;
}

function whyNoTask(result: ExportResult): string {
  const reasons = result.reasons.map((r) => (r.spec === '*' ? r.reason : `${r.spec}: ${r.reason}`));
  if (result.failToPass.length === 0 && result.reasons.every((r) => r.spec === '*'))
    return `no spec goes from fail to pass (a refactor or a change no spec sees): ${reasons.join('; ')}`;
  return `it does not verify: ${reasons.join('; ')}`;
}
