// What each agent tool does, on the run's checkout through the WorkspaceJail: list, read, outline, find and
// search (the looking tools), edit and create (the changing ones), run_specs and finish. A refused path
// throws PathRefusal and any other failure throws; toolbox.ts turns both into a result the model can read.
import fs from 'node:fs/promises';
import path from 'node:path';
import { RE2JS } from 're2js';
import type { SpecResult } from '../check';
import { MAX_TREE_DEPTH } from '../deepTrees';
import { readRegularFile, refuseUnlessRegular, rewriteRegularFile } from './regularFiles';
import type { ToolImplementation, ToolName } from './toolContract';

const MAX_LIST = 500;
const DEFAULT_READ_LINES = 400;
const MAX_SEARCH_RESULTS = 100;
const MAX_TEXT_FILE_BYTES = 1_000_000;
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

export const toolImplementations: { [N in ToolName]: ToolImplementation<N> } = {
  async list_files(args, ctx) {
    const dir = await ctx.jail.resolve(args.path);
    const { files, tooDeep } = await walk(dir.absolute, ctx.jail.root, MAX_LIST + 1);
    const truncated = files.length > MAX_LIST;
    const listed = files.slice(0, MAX_LIST).sort();
    const tail =
      (truncated ? `\n… (stopped at ${MAX_LIST} files; list a sub-folder)` : '') + tooDeepNote(tooDeep);
    return {
      ok: true,
      path: dir.relative,
      content: (listed.length ? listed.join('\n') : '(no files)') + tail,
    };
  },

  async read_file(args, ctx) {
    const file = await ctx.jail.resolve(args.path);
    const text = await readText(file.real, file.relative);
    const lines = text.split('\n');
    const start = args.startLine ?? 1;
    const end = Math.min(args.endLine ?? start + DEFAULT_READ_LINES - 1, lines.length);
    if (start > lines.length) {
      return { ok: false, path: file.relative, content: `${file.relative} has only ${lines.length} lines.` };
    }
    const body = lines
      .slice(start - 1, end)
      .map((line, i) => `${String(start + i).padStart(5)}  ${line}`)
      .join('\n');
    const more =
      end < lines.length ? `\n(… ${lines.length - end} more lines; read with startLine=${end + 1})` : '';
    return {
      ok: true,
      path: file.relative,
      content: `${file.relative} (lines ${start}-${end} of ${lines.length})\n${body}${more}`,
    };
  },

  async outline(args, ctx) {
    const file = await ctx.jail.resolve(args.path);
    const symbols = await (await ctx.symbols()).outline(file.relative);
    const lines = symbols.map(
      (s) => `${s.kind} ${s.qualifiedName}  lines ${s.range.start.line + 1}-${s.range.end.line + 1}`,
    );
    return {
      ok: true,
      path: file.relative,
      content: lines.length ? lines.join('\n') : `(no symbols found in ${file.relative})`,
    };
  },

  async find_symbol(args, ctx) {
    const file = args.path === undefined ? undefined : await ctx.jail.resolve(args.path);
    const found = await (await ctx.symbols()).findSymbol(args.name, file?.relative);
    const lines = found.map(
      (s) => `${s.file}:${s.range.start.line + 1}-${s.range.end.line + 1}  ${s.kind} ${s.qualifiedName}`,
    );
    return { ok: true, content: lines.length ? lines.join('\n') : `No definition of '${args.name}' found.` };
  },

  async search_text(args, ctx) {
    const where = await ctx.jail.resolve(args.path);
    let matcher: (line: string) => boolean;
    if (args.regex) {
      // RE2 (linear time): a pattern like ^(A+)+$ from the model cannot hang the run.
      let re: RE2JS;
      try {
        re = RE2JS.compile(args.query);
      } catch (error) {
        return { ok: false, content: `Invalid regular expression: ${(error as Error).message}` };
      }
      matcher = (line) => re.matcher(line).find();
    } else {
      matcher = (line) => line.includes(args.query);
    }
    const hits: string[] = [];
    const stat = await fs.stat(where.real);
    if (!stat.isDirectory()) refuseUnlessRegular(stat, where.relative);
    const walked = stat.isFile()
      ? { files: [where.relative], tooDeep: [] }
      : await walk(where.absolute, ctx.jail.root);
    const files = walked.files.sort();
    outer: for (const rel of files) {
      ctx.signal.throwIfAborted();
      let text: string;
      try {
        text = await readText(path.join(ctx.jail.root, rel), rel);
      } catch {
        continue;
      }
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (matcher(lines[i]!)) {
          hits.push(`${rel}:${i + 1}: ${lines[i]!.slice(0, 300)}`);
          if (hits.length >= MAX_SEARCH_RESULTS) break outer;
        }
      }
    }
    const more = hits.length >= MAX_SEARCH_RESULTS ? `\n(stopped at ${MAX_SEARCH_RESULTS} matches)` : '';
    const cut = tooDeepNote(walked.tooDeep);
    return { ok: true, content: (hits.length ? hits.join('\n') + more : 'No matches.') + cut };
  },

  async edit(args, ctx) {
    const file = await ctx.jail.resolveForWrite(args.path);
    const text = await readText(file.real, file.relative);
    const count = text.split(args.search).length - 1;
    if (count === 0) {
      return {
        ok: false,
        path: file.relative,
        content: `The search text was not found in ${file.relative}. Read the file again and copy the text exactly (whitespace and indentation matter).`,
      };
    }
    if (count > 1) {
      return {
        ok: false,
        path: file.relative,
        content: `The search text occurs ${count} times in ${file.relative}; include more surrounding lines so it matches exactly once.`,
      };
    }
    const at = text.indexOf(args.search);
    const firstLine = text.slice(0, at).split('\n').length;
    const updated = text.slice(0, at) + args.replace + text.slice(at + args.search.length);
    await rewriteRegularFile(file.real, file.relative, updated);
    ctx.onFileChanged?.(file.relative);
    const lastLine = firstLine + args.replace.split('\n').length - 1;
    return {
      ok: true,
      path: file.relative,
      changed: file.relative,
      content: `Edited ${file.relative} (lines ${firstLine}-${lastLine} now hold the replacement).`,
    };
  },

  async create_file(args, ctx) {
    const file = await ctx.jail.resolveForWrite(args.path);
    try {
      await fs.lstat(file.absolute);
      return {
        ok: false,
        path: file.relative,
        content: `${file.relative} already exists: use edit to change it.`,
      };
    } catch {
      // does not exist: create it
    }
    await fs.mkdir(path.dirname(file.absolute), { recursive: true });
    await fs.writeFile(file.absolute, args.content, { flag: 'wx' });
    ctx.onFileChanged?.(file.relative);
    return {
      ok: true,
      path: file.relative,
      changed: file.relative,
      content: `Created ${file.relative} (${args.content.split('\n').length} lines).`,
    };
  },

  async run_specs(args, ctx) {
    const unknown = (args.ids ?? []).filter((id) => !ctx.specIds.includes(id));
    if (unknown.length > 0) {
      return {
        ok: false,
        content: `Unknown spec id(s): ${unknown.join(', ')}. Known: ${ctx.specIds.join(', ')}.`,
      };
    }
    const results = await ctx.runSpecs(args.ids && args.ids.length > 0 ? args.ids : undefined, ctx.signal);
    return { ok: true, content: formatSpecResults(results) };
  },

  finish(args) {
    return Promise.resolve({ ok: true, content: 'Finished.', finish: { summary: args.summary } });
  },
};

function formatSpecResults(results: SpecResult[]): string {
  const width = Math.max(4, ...results.map((r) => r.id.length));
  const table = results.map((r) => `${r.id.padEnd(width)}  ${r.verdict}${r.reason ? ` (${r.reason})` : ''}`);
  const failing = results
    .filter(
      (r) =>
        r.verdict === 'fail' ||
        r.verdict === 'error' ||
        r.verdict === 'tampered' ||
        r.verdict === 'unverified',
    )
    .map((r) => `--- ${r.id} output (tail) ---\n${r.output.slice(-1500)}`);
  const passed = results.filter((r) => r.verdict === 'pass').length;
  return [`${passed}/${results.length} specs pass.`, ...table, ...failing].join('\n');
}

async function readText(real: string, relative: string): Promise<string> {
  const buffer = await readRegularFile(real, relative, MAX_TEXT_FILE_BYTES);
  if (buffer.includes(0)) throw new Error(`${relative} is a binary file`);
  return buffer.toString('utf8');
}

/** What a walk found: workspace-relative files, and the folders it did not enter because they nest too deep. */
interface Walk {
  files: string[];
  tooDeep: string[];
}

/**
 * Workspace-relative files under `dir`, skipping .git, node_modules and Weave's run state; no symlinks followed;
 * folders more than MAX_TREE_DEPTH levels below `dir` are cut (a chain the agent's code built must not hang or
 * crash the tool). Stops once `limit` files are found.
 */
async function walk(dir: string, root: string, limit = Infinity): Promise<Walk> {
  const found: Walk = { files: [], tooDeep: [] };
  const visit = async (current: string, depth: number): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (found.files.length >= limit) return;
      const absolute = path.join(current, entry.name);
      const relative = path.relative(root, absolute).split(path.sep).join('/');
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name) || relative === '.weave/runs') continue;
        if (depth >= MAX_TREE_DEPTH) found.tooDeep.push(relative);
        else await visit(absolute, depth + 1);
      } else if (entry.isFile()) {
        found.files.push(relative);
      }
    }
  };
  await visit(dir, 0);
  return found;
}

/** The note a listing ends with when folders were cut for depth. */
function tooDeepNote(tooDeep: readonly string[]): string {
  if (tooDeep.length === 0) return '';
  const first = tooDeep[0]!;
  const shown = first.length > 120 ? `${first.slice(0, 120)}…` : first;
  return `\n(folders deeper than ${MAX_TREE_DEPTH} levels are not listed (${shown}${tooDeep.length > 1 ? ` and ${tooDeep.length - 1} more` : ''}))`;
}
