// Reads, checks and indexes one file in the current thread (a parse worker or, for small jobs, the main
// thread). Imports are resolved later, on the main thread, against the whole workspace's file list.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { extractFile } from './extract';
import type { ParseHost } from './syntax';
import type { FileIndex, LanguageId, SkippedFile } from './types';

export interface ParseJob {
  /** Workspace-relative, '/' separators. */
  path: string;
  absPath: string;
  language: LanguageId;
  sizeBytes: number;
  /** Hash recorded in the cache for this path: when the content still hashes to it, the entry is reused. */
  expectHash?: string;
  maxFileBytes: number;
}

export type ParseOutcome =
  | { kind: 'indexed'; file: FileIndex }
  | { kind: 'unchanged'; path: string; hash: string }
  | { kind: 'skipped'; skipped: SkippedFile };

export function contentHash(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * How a file is read: asynchronously on the main thread (the extension host must not block), synchronously in a
 * parse worker, which has nothing else to do meanwhile: an async read there costs four thread-pool round trips
 * per file (open, stat, read, close) during which the worker sits idle (issue #26 profile, 2026-12-03).
 */
export type ReadMode = 'async' | 'sync';

export async function parseFileJob(
  host: ParseHost,
  job: ParseJob,
  read: ReadMode = 'async',
): Promise<ParseOutcome> {
  let content: Buffer;
  try {
    content = read === 'sync' ? fs.readFileSync(job.absPath) : await fs.promises.readFile(job.absPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { kind: 'skipped', skipped: { path: job.path, reason: 'symlink-loop' } };
    return {
      kind: 'skipped',
      skipped: { path: job.path, reason: 'unreadable', detail: errorMessage(error) },
    };
  }
  // The size was checked before reading; a file can grow in between.
  if (content.length > job.maxFileBytes)
    return { kind: 'skipped', skipped: { path: job.path, reason: 'too-large' } };
  if (content.includes(0)) return { kind: 'skipped', skipped: { path: job.path, reason: 'binary' } };
  const hash = contentHash(content);
  if (hash === job.expectHash) return { kind: 'unchanged', path: job.path, hash };
  try {
    const file = await indexText(host, job.path, job.language, content.toString('utf8'), {
      hash,
      sizeBytes: content.length,
    });
    return { kind: 'indexed', file };
  } catch (error) {
    // One file tree-sitter cannot take must not sink the whole index; it is reported with the reason.
    return {
      kind: 'skipped',
      skipped: { path: job.path, reason: 'unreadable', detail: errorMessage(error) },
    };
  }
}

/** Parses `text`, extracts what the index keeps, and deletes the tree. `imports` is left empty. */
export async function indexText(
  host: ParseHost,
  path: string,
  language: LanguageId,
  text: string,
  identity?: { hash: string; sizeBytes: number },
): Promise<FileIndex> {
  const lang = await host.language(language);
  const tree = host.parse(lang, text);
  try {
    const extracted = extractFile(tree, lang);
    return {
      path,
      language,
      hash: identity?.hash ?? contentHash(text),
      sizeBytes: identity?.sizeBytes ?? Buffer.byteLength(text),
      symbols: extracted.symbols,
      references: extracted.references,
      importSpecifiers: extracted.importSpecifiers,
      imports: [],
      hasSyntaxErrors: extracted.hasSyntaxErrors,
    };
  } finally {
    host.release(tree);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
