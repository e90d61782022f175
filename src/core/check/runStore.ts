// Run history under <workspace>/.weave/runs/<id>.json. Runs are local state, never committed: Weave writes
// .weave/.gitignore ("runs/") when it is missing. Stored outputs are excerpts (head and tail) so that the
// history stays small; the newest MAX_STORED_RUNS runs are kept.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { excerpt } from '../process/outputCapture';
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

/** Run state is local: writes .weave/.gitignore (`runs/`) when missing, so runs never show as changes. */
export async function ensureRunsIgnored(workspaceDir: string): Promise<void> {
  const file = path.join(workspaceDir, '.weave', '.gitignore');
  await fs.mkdir(path.dirname(file), { recursive: true });
  try {
    await fs.writeFile(file, '# Written by Weave: run history is local state.\nruns/\n', { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

async function runFileNames(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
}

async function pruneRuns(dir: string): Promise<void> {
  const names = await runFileNames(dir);
  const old = names.slice(0, Math.max(0, names.length - MAX_STORED_RUNS));
  await Promise.all(old.map((n) => fs.rm(path.join(dir, n), { force: true })));
}

/** Stored runs, newest first. Files that are not readable run records are ignored (e.g. hand-edited). */
export async function listRuns(workspaceDir: string): Promise<RunRecord[]> {
  const dir = runsDir(workspaceDir);
  const names = (await runFileNames(dir)).reverse();
  const runs = await Promise.all(names.map((n) => readRun(path.join(dir, n))));
  return runs.filter((r): r is RunRecord => r !== undefined);
}

async function readRun(file: string): Promise<RunRecord | undefined> {
  try {
    const value: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
    return isRunRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isRunRecord(value: unknown): value is RunRecord {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<RunRecord>;
  return typeof v.id === 'string' && typeof v.clean === 'boolean' && Array.isArray(v.results);
}

/**
 * The default baseline: the newest run recorded on a clean tree that ran every id in `covering` (so a
 * `--only` run does not hide the other specs' baseline), else the newest clean run at all.
 */
export async function latestCleanRun(
  workspaceDir: string,
  covering: readonly string[] = [],
): Promise<RunRecord | null> {
  // Newest first, one file at a time: the answer is usually the first clean run, so most files are never read.
  const dir = runsDir(workspaceDir);
  let newestClean: RunRecord | null = null;
  for (const name of (await runFileNames(dir)).reverse()) {
    const run = await readRun(path.join(dir, name));
    if (!run?.clean) continue;
    if (covering.every((id) => run.results.some((r) => r.id === id))) return run;
    newestClean ??= run;
  }
  return newestClean;
}
