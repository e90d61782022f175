// What the loaded-set readers observed of the file system, so a computed set can be reused (loadedSetCache.ts)
// exactly as long as every observation would come out the same. Each reader's look is recorded with what it
// saw: a file's text (readText), whether a path is a regular file (isFile), a folder's entries (listFolder).
// A computation is a function of the specs and these observations only, so equal observations mean an equal
// set; a file the readers probed and did not find is an observation too (creating it invalidates the set).
// What was seen is kept as it was (the text itself, not a digest): checking the cache on every hook event of the
// guard then needs no hashing, and node:crypto alone costs a hook process 11–16 ms of CPU.
// The trace is per asynchronous computation (AsyncLocalStorage): concurrent computations keep separate traces.
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';

export type ReadKind = 'text' | 'is-file' | 'list';

const MAX_FILE_BYTES = 1 << 20;

/** One observation: what kind of look at which absolute path, and what it saw (seenText, seenListing). */
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

/** A regular file's text (at most 1 MiB), or undefined when it is not one. */
export function textOf(abs: string): string | undefined {
  try {
    const stat = fs.statSync(abs);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    return fs.readFileSync(abs, 'utf8');
  } catch {
    return undefined;
  }
}

export function isFileNow(abs: string): boolean {
  try {
    return fs.statSync(abs).isFile();
  } catch {
    return false;
  }
}

export function entriesOf(abs: string): fs.Dirent[] | undefined {
  try {
    return fs.readdirSync(abs, { withFileTypes: true });
  } catch {
    return undefined;
  }
}

/** What a text look saw, exactly: the text itself (prefixed, so no text reads as `none`). */
export function seenText(text: string | undefined): string {
  return text === undefined ? 'none' : `text:${text}`;
}

/** What a listing saw: a folder's entries with their kinds, sorted (`none` when it cannot be listed). */
export function seenListing(entries: readonly fs.Dirent[] | undefined): string {
  if (entries === undefined) return 'none';
  const names = entries.map((e) => `${e.isDirectory() ? 'd' : e.isFile() ? 'f' : 'o'}:${e.name}`).sort();
  return `list:${names.join('\n')}`;
}

/** What the same look as `kind` sees at `abs` now, as the trace records it (not itself traced). */
export function lookAgain(kind: ReadKind, abs: string): string {
  if (kind === 'text') return seenText(textOf(abs));
  if (kind === 'is-file') return String(isFileNow(abs));
  return seenListing(entriesOf(abs));
}
