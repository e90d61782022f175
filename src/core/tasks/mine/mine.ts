// `weave mine`: the repositories of a list (this shard's share of them) mined one after another into OUT/repos,
// then the dataset written from everything finished there. `mergeShards` gathers shard outputs into one OUT and
// writes the same dataset a single run writes.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { mineRepository } from './mineRepository';
import { readRepositoryList, MineInputError, type RepositoryEntry } from './repoList';
import { REPOSITORIES_DIR, REPOSITORY_RESULT } from './mineResult';
import { writeDataset, type DatasetSummary } from './datasetFiles';
import type { CandidateLimits } from './candidateCommits';
import type { SynthesisSettings } from './synthesis';

export { MineInputError } from './repoList';

/** Shard K of N (1-based): repositories whose position in the list is K-1 modulo N. */
export interface Shard {
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count)
    throw new MineInputError(`--shard '${text}': write K/N with 1 ≤ K ≤ N (e.g. 2/4)`);
  return { index, count };
}

/** This shard's repositories: every N-th from the K-th, by their place in the list (stable across runs). */
export function shardOf(entries: RepositoryEntry[], shard: Shard): RepositoryEntry[] {
  return entries.filter((_, position) => position % shard.count === shard.index - 1);
}

export interface MineOptions {
  reposFile: string;
  outDir: string;
  cacheDir?: string;
  shard?: Shard;
  /** The dataset's name in Harbor's org/name form. */
  name: string;
  limits?: CandidateLimits;
  weaveVersion: string;
  /** With a model (--model): synthesised constraint specs and observed interactions per task. */
  synthesis?: SynthesisSettings;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** Share set-up environments between candidates (default true; --no-env-reuse: false). */
  envReuse?: boolean;
}

export interface MineSummary extends DatasetSummary {
  /** This run's repositories and whether each was mined now or found finished. */
  ran: Array<{ key: string; outcome: 'mined' | 'already mined' }>;
}

export async function mine(options: MineOptions): Promise<MineSummary> {
  const entries = await readRepositoryList(options.reposFile);
  const mine = options.shard === undefined ? entries : shardOf(entries, options.shard);
  const outDir = path.resolve(options.outDir);
  const reposDir = path.join(outDir, REPOSITORIES_DIR);
  await fs.mkdir(reposDir, { recursive: true });
  const cacheDir = path.resolve(options.cacheDir ?? path.join(outDir, '.cache'));
  const ran: MineSummary['ran'] = [];
  for (const [index, entry] of mine.entries()) {
    options.onProgress?.(`[${index + 1}/${mine.length}] ${entry.line}`);
    const outcome = await mineRepository({
      entry,
      reposDir,
      cacheDir,
      weaveVersion: options.weaveVersion,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.synthesis ? { synthesis: options.synthesis } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.envReuse === false ? { envReuse: false } : {}),
    });
    ran.push({ key: entry.key, outcome });
  }
  const dataset = await writeDataset(outDir, options.name);
  return { ...dataset, ran };
}

/** Copies the finished repositories of each shard output into OUT (refusing two different results for one key). */
export async function mergeShards(
  outDir: string,
  shardDirs: string[],
  name: string,
): Promise<DatasetSummary> {
  const target = path.join(path.resolve(outDir), REPOSITORIES_DIR);
  await fs.mkdir(target, { recursive: true });
  for (const shardDir of shardDirs) {
    const from = path.join(path.resolve(shardDir), REPOSITORIES_DIR);
    let names: string[];
    try {
      names = (await fs.readdir(from)).filter((n) => !n.startsWith('.')).sort();
    } catch {
      throw new MineInputError(
        `${shardDir} holds no ${REPOSITORIES_DIR}/ folder: not the output of weave mine`,
      );
    }
    for (const key of names) {
      const result = path.join(from, key, REPOSITORY_RESULT);
      const text = await fs.readFile(result, 'utf8').catch(() => undefined);
      if (text === undefined) continue; // not finished there
      const existing = await fs
        .readFile(path.join(target, key, REPOSITORY_RESULT), 'utf8')
        .catch(() => undefined);
      if (existing !== undefined) {
        if (existing !== text)
          throw new MineInputError(
            `${key} was mined differently in two of the outputs (${shardDir} and another)`,
          );
        continue;
      }
      const partial = path.join(target, `.${key}.partial-${process.pid}`);
      await fs.cp(path.join(from, key), partial, { recursive: true });
      await fs.rename(partial, path.join(target, key));
    }
  }
  return writeDataset(outDir, name);
}
