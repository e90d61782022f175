// What the loaded-set readers observed of the file system, so a computed set can be reused (loadedSetCache.ts)
// exactly as long as every observation would come out the same. Each reader's look is recorded with what it
// saw: a file's text (readText), whether a path is a regular file (isFile), a folder's entries (listFolder).
// A computation is a function of the specs and these observations only, so equal observations mean an equal
// set; a file the readers probed and did not find is an observation too (creating it invalidates the set).
// The trace is per asynchronous computation (AsyncLocalStorage): concurrent computations keep separate traces.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import fs from 'node:fs';

export type ReadKind = 'text' | 'is-file' | 'list';

/** One observation: what kind of look at which absolute path, and a digest of what it saw. */
export interface Observation {
  kind: ReadKind;
  path: string;
  seen: string;
}

const traces = new AsyncLocalStorage<Map<string, Observation>>();

/** Runs `compute` and returns its value with every observation the readers made during it. */
export async function traceReads<T>(
  compute: () => Promise<T>,
): Promise<{ value: T; observations: Observation[] }> {
  const trace = new Map<string, Observation>();
  const value = await traces.run(trace, compute);
  return { value, observations: [...trace.values()] };
}

/** Records a look the reader made (a no-op outside traceReads). */
export function noteRead(kind: ReadKind, abs: string, seen: string): void {
  traces.getStore()?.set(`${kind}\0${abs}`, { kind, path: abs, seen });
}

export function digestOf(text: string | undefined): string {
  return text === undefined ? 'none' : createHash('sha256').update(text).digest('hex');
}

/** A folder's entries with their kinds, sorted, digested (`none` when it cannot be listed). */
export function listingDigest(entries: readonly fs.Dirent[] | undefined): string {
  if (entries === undefined) return 'none';
  const names = entries.map((e) => `${e.isDirectory() ? 'd' : e.isFile() ? 'f' : 'o'}:${e.name}`).sort();
  return digestOf(names.join('\n'));
}
