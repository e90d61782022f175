// Run history under <workspace>/.weave/runs/<id>.json. Runs are local state, never committed (runsIgnored.ts
// keeps git from seeing them). Stored outputs are excerpts (head and tail) so that the
// history stays small; the newest MAX_STORED_RUNS runs are kept.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { VERDICTS } from '../../shared/verdicts';
import { excerpt } from '../process/outputCapture';
import { ensureRunsIgnored } from './runsIgnored';
import type { RunRecord } from './types';

export const MAX_STORED_RUNS = 50;
/** Characters of each spec's output kept in a stored run. */
export const STORED_OUTPUT_CHARS = 16 * 1024;

export function runsDir(workspaceDir: string): string {
  return path.join(workspaceDir, '.weave', 'runs');
}

/** A sortable, unique id: the start time (UTC, file-name safe) plus 4 random hex digits. */
export function newRunId(startedAt: Date): string {
  return `${startedAt.toISOString().replace(/[:.]/g, '-')}-${randomBytes(2).toString('hex')}`;
}

/** Writes the run (outputs shortened to excerpts), makes sure runs are git-ignored, prunes old runs. */
export async function saveRun(workspaceDir: string, run: RunRecord): Promise<string> {
  const dir = runsDir(workspaceDir);
  await fs.mkdir(dir, { recursive: true });
  await ensureRunsIgnored(workspaceDir);
  const stored: RunRecord = {
    ...run,
    results: run.results.map((r) => {
      const cut = excerpt(r.output, STORED_OUTPUT_CHARS);
      return { ...r, output: cut.text, truncatedBytes: r.truncatedBytes + cut.droppedChars };
    }),
  };
  const file = path.join(dir, `${run.id}.json`);
  // Write then rename, so a reader (the extension, a concurrent check) never sees half a file.
  const partial = `${file}.${process.pid}.tmp`;
  await fs.writeFile(partial, JSON.stringify(stored, null, 2) + '\n');
  await fs.rename(partial, file);
  await pruneRuns(dir);
  return file;
}

/** Names Weave gives its run files (newRunId + .json): pruning never touches anything else in the folder. */
const RUN_FILE_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]{4}\.json$/;

/** The `.json` regular files in `dir`, oldest first (a symlink is never read nor deleted). */
async function runFileNames(dir: string): Promise<string[]> {
  try {
    if ((await fs.lstat(dir)).isSymbolicLink()) return [];
    const entries = await fs.readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && e.name.endsWith('.json'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Keeps the newest MAX_STORED_RUNS of Weave's own run files; other files in the folder are left alone. */
async function pruneRuns(dir: string): Promise<void> {
  const names = (await runFileNames(dir)).filter((n) => RUN_FILE_NAME.test(n));
  const old = names.slice(0, Math.max(0, names.length - MAX_STORED_RUNS));
  await Promise.all(old.map((n) => fs.rm(path.join(dir, n), { force: true })));
}

/** Told about each stored run that is skipped, with the reason and the file's path. */
export type RunStoreWarning = (message: string) => void;

/** Stored runs, newest first. Files that are not readable run records are skipped, each with a warning. */
export async function listRuns(workspaceDir: string, warn?: RunStoreWarning): Promise<RunRecord[]> {
  const dir = runsDir(workspaceDir);
  const names = (await runFileNames(dir)).reverse();
  const runs = await Promise.all(names.map((n) => readRun(path.join(dir, n), warn)));
  return runs.filter((r): r is RunRecord => r !== undefined);
}

async function readRun(file: string, warn: RunStoreWarning | undefined): Promise<RunRecord | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    warn?.(
      `skipped stored run ${file}: ${error instanceof SyntaxError ? 'not valid JSON' : (error as Error).message}`,
    );
    return undefined;
  }
  const problem = runRecordProblem(value);
  if (problem === undefined) return value as RunRecord;
  warn?.(`skipped stored run ${file}: ${problem}`);
  return undefined;
}

const KNOWN_VERDICTS: ReadonlySet<string> = new Set(VERDICTS);

/** Why `value` is not a run record Weave can compare against, or undefined when it is one. */
function runRecordProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const v = value as Partial<Record<keyof RunRecord, unknown>>;
  if (typeof v.id !== 'string') return 'no "id"';
  if (typeof v.clean !== 'boolean') return 'no "clean" flag';
  if (!Array.isArray(v.results)) return 'no "results" list';
  const bad = v.results.findIndex(
    (r: unknown) =>
      typeof r !== 'object' ||
      r === null ||
      typeof (r as { id?: unknown }).id !== 'string' ||
      !KNOWN_VERDICTS.has(String((r as { verdict?: unknown }).verdict)),
  );
  return bad === -1 ? undefined : `results[${bad}] is not a spec result (an object with an id and a verdict)`;
}

/** Stored runs newest first, each file read only when the caller asks for the next (unreadable ones skipped). */
export async function* runsNewestFirst(
  workspaceDir: string,
  warn?: RunStoreWarning,
): AsyncGenerator<RunRecord> {
  const dir = runsDir(workspaceDir);
  for (const name of (await runFileNames(dir)).reverse()) {
    const run = await readRun(path.join(dir, name), warn);
    if (run) yield run;
  }
}

/**
 * The default baseline: the newest run recorded on a clean tree that ran every id in `covering` (so a
 * `--only` run does not hide the other specs' baseline), else the newest clean run at all.
 */
export async function latestCleanRun(
  workspaceDir: string,
  covering: readonly string[] = [],
  warn?: RunStoreWarning,
): Promise<RunRecord | null> {
  // Newest first, one file at a time: the answer is usually the first clean run, so most files are never read.
  const dir = runsDir(workspaceDir);
  let newestClean: RunRecord | null = null;
  for (const name of (await runFileNames(dir)).reverse()) {
    const run = await readRun(path.join(dir, name), warn);
    if (!run?.clean) continue;
    if (covering.every((id) => run.results.some((r) => r.id === id))) return run;
    newestClean ??= run;
  }
  return newestClean;
}
