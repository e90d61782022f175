// `weave index`: indexes the workspace with tree-sitter and prints what was indexed.
import fs from 'node:fs';
import path from 'node:path';
import { createIndexer } from '../../core/index';
import type { ParserReport, SkippedFile, WorkspaceIndex } from '../../core/index';
import { parseVerbFlags, UsageError, wholeNumber, WORKSPACE_FLAG } from '../flags';
import type { Verb } from '../verb';

const HELP = `Usage: weave index [--workspace DIR] [--json [--symbols]] [--no-cache] [--workers N]

Indexes the workspace's source files with tree-sitter (TypeScript, TSX, JavaScript, Python, Go, Rust, Java):
definitions with qualified names (Class.method, outer.inner), calls, and imports resolved to files. Files are
listed as git lists them (tracked + untracked, .gitignore respected; outside git a walk that reads the
.gitignore files); binary files, files over 2 MB, unknown languages and symlink loops are skipped with the
reason. Results are cached in .weave/cache/index/ (git-ignored), so an unchanged workspace re-indexes fast.
Parse workers use the native tree-sitter binding where it and the grammar packages load, web-tree-sitter
(WebAssembly) otherwise; small jobs parse in the main thread with web-tree-sitter. Both give the same trees;
the output says which ran (--json: stats.parser, with the reason for any fallback).

Options:
  --workspace DIR  the workspace folder (default: the current directory)
  --json           print one JSON document {workspace, stats, languages, files, skipped}; stats.parser says
                   which tree-sitter parsed ({ran, where, byLanguage, fallbacks})
  --symbols        with --json: each file also has symbolList [{qualifiedName, name, kind, line, endLine}]
                   (1-based lines): the names anchors can use (file#qualifiedName)
  --no-cache       ignore the cache and do not write it
  --workers N      parse worker threads (default: CPU count, at most 4; 0 = in the main thread)
  -h, --help       show this help

Exit codes: 0 indexed, 1 indexing failed, 2 bad flags or workspace folder.`;

export const indexVerb: Verb = {
  name: 'index',
  summary: 'Index the workspace with tree-sitter and print files, languages, symbols and time',
  help: HELP,
  async run(args) {
    const flags = parseVerbFlags('index', args, {
      ...WORKSPACE_FLAG,
      json: { type: 'boolean', default: false },
      symbols: { type: 'boolean', default: false },
      'no-cache': { type: 'boolean', default: false },
      workers: { type: 'string' },
    });
    if (flags.symbols && !flags.json) throw new UsageError('--symbols goes with --json');
    const workspaceDir = path.resolve(flags.workspace);
    if (!fs.statSync(workspaceDir, { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(`--workspace ${flags.workspace}: not a folder`);
    const workers = wholeNumber('index', 'workers', flags.workers, { min: 0, max: 64 });
    const indexer = createIndexer({
      workspaceDir,
      useCache: !flags['no-cache'],
      ...(workers !== undefined ? { workers } : {}),
    });
    try {
      const index = await indexer.indexWorkspace();
      const output = flags.json
        ? `${JSON.stringify(indexReport(index, workspaceDir, flags.symbols), null, 2)}\n`
        : `${summaryLines(index).join('\n')}\n`;
      process.stdout.write(output);
      return 0;
    } catch (error) {
      process.stderr.write(`weave index: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    } finally {
      indexer.dispose();
    }
  },
};

/** `weave index --json`: the stats, and every file with its counts (and its symbols with --symbols). */
function indexReport(index: WorkspaceIndex, workspaceDir: string, withSymbols: boolean): object {
  const { stats } = index;
  const files = [...index.files.values()].map((f) => ({
    path: f.path,
    language: f.language,
    sizeBytes: f.sizeBytes,
    symbols: f.symbols.length,
    imports: f.imports,
    hasSyntaxErrors: f.hasSyntaxErrors,
    ...(withSymbols
      ? {
          symbolList: f.symbols.map((s) => ({
            qualifiedName: s.qualifiedName,
            name: s.name,
            kind: s.kind,
            line: s.range.start.line + 1,
            endLine: s.range.end.line + 1,
          })),
        }
      : {}),
  }));
  return { workspace: workspaceDir, stats, languages: stats.byLanguage, files, skipped: index.skipped };
}

/** `weave index`'s text: files, size, time, symbols, languages, the parser that ran, syntax errors, skips. */
function summaryLines(index: WorkspaceIndex): string[] {
  const { stats } = index;
  const languages = Object.entries(stats.byLanguage)
    .sort(([, a], [, b]) => b - a)
    .map(([language, n]) => `${language} ${n}`)
    .join(', ');
  const withErrors = [...index.files.values()].filter((f) => f.hasSyntaxErrors).length;
  const lines = [
    `indexed ${stats.files} files (${formatBytes(stats.bytes)}) in ${stats.durationMs} ms` +
      ` — ${stats.symbols} symbols, ${stats.cacheHits} from cache`,
    `languages: ${languages || 'none'}`,
    describeParser(stats.parser),
  ];
  if (withErrors > 0) lines.push(`${withErrors} file(s) with syntax errors (indexed anyway)`);
  lines.push(...describeSkipped(index.skipped));
  return lines;
}

/** Counts per reason; files are listed except for the (usually long, uninteresting) unknown-language ones. */
function describeSkipped(skipped: SkippedFile[]): string[] {
  if (skipped.length === 0) return ['skipped: none'];
  const byReason = new Map<string, SkippedFile[]>();
  for (const s of skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s]);
  const lines = [
    `skipped ${skipped.length}: ${[...byReason].map(([r, l]) => `${r} ${l.length}`).join(', ')}`,
  ];
  for (const [reason, list] of byReason) {
    if (reason === 'unknown-language') continue;
    for (const s of list)
      lines.push(`  ${s.path}: ${reason}${s.detail !== undefined ? ` (${s.detail})` : ''}`);
  }
  return lines;
}

function describeParser(parser: ParserReport | undefined): string {
  if (!parser || parser.ran === 'none') return 'parser: none (nothing parsed)';
  const name = { native: 'native tree-sitter', wasm: 'web-tree-sitter', mixed: 'mixed' }[parser.ran];
  const where = parser.where === 'workers' ? 'worker threads' : 'main thread';
  const byLanguage =
    parser.ran === 'mixed'
      ? ` (${Object.entries(parser.byLanguage)
          .map(([language, kind]) => `${language} ${kind}`)
          .join(', ')})`
      : '';
  const byReason = new Map<string, string[]>();
  for (const [language, why] of Object.entries(parser.fallbacks))
    byReason.set(why, [...(byReason.get(why) ?? []), language]);
  const fallbacks = [...byReason].map(([why, langs]) => `; web-tree-sitter for ${langs.join(', ')}: ${why}`);
  return `parser: ${name} in ${where}${byLanguage}${fallbacks.join('')}`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
