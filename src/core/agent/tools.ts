// The agent's tools. Arguments are validated with zod; a bad call (malformed JSON, wrong fields, unknown
// tool, refused path) becomes an error result the model can read and correct, never an exception that
// ends the run. Every path goes through the WorkspaceJail.
import fs from 'node:fs/promises';
import path from 'node:path';
import { RE2JS } from 're2js';
import { z } from 'zod';
import type { SpecResult } from '../check/types';
import type { SymbolDef } from '../index/types';
import type { ToolSpec } from './modelClient';
import { PathRefusal, type WorkspaceJail } from './paths';

/** The index as the tools see it; unavailable indexes throw with a reason. */
export interface SymbolLookup {
  outline(file: string): Promise<SymbolDef[]>;
  findSymbol(name: string, file?: string): Promise<Array<SymbolDef & { file: string }>>;
}

export interface ToolContext {
  jail: WorkspaceJail;
  specIds: string[];
  runSpecs(ids: string[] | undefined, signal: AbortSignal): Promise<SpecResult[]>;
  symbols(): Promise<SymbolLookup>;
  /** Called after a file changed, so caches (the index) can be refreshed. */
  onFileChanged?(relative: string): void;
  signal: AbortSignal;
}

export interface ToolOutcome {
  ok: boolean;
  content: string;
  refused?: 'outside' | 'protected' | 'invalid';
  path?: string;
  finish?: { summary: string };
  changed?: string;
}

const MAX_LIST = 500;
const DEFAULT_READ_LINES = 400;
const MAX_SEARCH_RESULTS = 100;
const MAX_TEXT_FILE_BYTES = 1_000_000;
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

const relPath = z.string().min(1).describe('Path relative to the workspace root, e.g. "src/client.js".');

const schemas = {
  list_files: z.strictObject({
    path: z.string().default('.').describe('Folder relative to the workspace root (default: the root).'),
  }),
  read_file: z.strictObject({
    path: relPath,
    startLine: z.number().int().min(1).optional().describe('First line (1-based).'),
    endLine: z.number().int().min(1).optional().describe('Last line (inclusive).'),
  }),
  outline: z.strictObject({ path: relPath }),
  find_symbol: z.strictObject({
    name: z.string().min(1).describe('A simple or qualified name, e.g. "get" or "LruCache.get".'),
    path: z.string().min(1).optional().describe('Only in this file.'),
  }),
  search_text: z.strictObject({
    query: z.string().min(1),
    regex: z
      .boolean()
      .default(false)
      .describe('Treat query as a regular expression (RE2 syntax: no backreferences or lookaround).'),
    path: z.string().default('.').describe('Folder or file to search in.'),
  }),
  edit: z.strictObject({
    path: relPath,
    search: z
      .string()
      .min(1)
      .describe('Exact text to replace; must occur exactly once (whitespace matters).'),
    replace: z.string().describe('Replacement text.'),
  }),
  create_file: z.strictObject({ path: relPath, content: z.string() }),
  run_specs: z.strictObject({
    ids: z.array(z.string()).optional().describe('Spec ids to run; omit to run every spec.'),
  }),
  finish: z.strictObject({
    summary: z.string().min(1).describe('What you changed and why, in a few sentences.'),
  }),
} as const;

export type ToolName = keyof typeof schemas;

const descriptions: Record<ToolName, string> = {
  list_files:
    'List the files under a folder of the workspace (recursive; .git and node_modules are skipped).',
  read_file: 'Read a text file, with line numbers; optionally only a line range.',
  outline: 'List the symbols (classes, functions, methods) defined in a file, with their line ranges.',
  find_symbol: 'Find where a symbol is defined in the workspace.',
  search_text:
    'Search the workspace’s text files for a string or regular expression; returns file:line: text.',
  edit: 'Replace one exact occurrence of `search` with `replace` in a file. Read the file first; copy the text exactly.',
  create_file: 'Create a new file with the given content (fails if it exists: use edit for existing files).',
  run_specs: 'Run spec tests (some or all) and get each verdict with the failing output.',
  finish: 'Stop: call this when every spec passes (or you cannot do better), with a summary of your change.',
};

export const TOOL_NAMES = Object.keys(schemas) as ToolName[];

/** The tools that only look: other agents (the draft agent) reuse them without the editing ones. */
export const READ_TOOL_NAMES: readonly ToolName[] = [
  'list_files',
  'read_file',
  'outline',
  'find_symbol',
  'search_text',
];

/** The tools a loop offers and how it runs them: the coding agent's by default, another agent's own set. */
export interface Toolbox {
  specs: ToolSpec[];
  run(name: string, rawArguments: string, ctx: ToolContext): Promise<ToolOutcome>;
}

export const AGENT_TOOLBOX: Toolbox = {
  get specs() {
    return toolSpecs();
  },
  run: (name, args, ctx) => runTool(name, args, ctx),
};

export function toolSpecs(names: readonly ToolName[] = TOOL_NAMES): ToolSpec[] {
  return names.map((name) => {
    const { $schema: _ignored, ...parameters } = z.toJSONSchema(schemas[name], { io: 'input' }) as Record<
      string,
      unknown
    >;
    return { type: 'function', function: { name, description: descriptions[name], parameters } };
  });
}

export async function runTool(
  name: string,
  rawArguments: string,
  ctx: ToolContext,
  available: readonly ToolName[] = TOOL_NAMES,
): Promise<ToolOutcome> {
  // hasOwn, not `in`: a model calling `constructor` or `toString` must get "unknown tool", not a crash.
  if (!Object.hasOwn(schemas, name) || !available.includes(name as ToolName)) {
    return { ok: false, content: `Unknown tool '${name}'. Available tools: ${available.join(', ')}.` };
  }
  const tool = name as ToolName;
  let json: unknown;
  try {
    json = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
  } catch (error) {
    return {
      ok: false,
      content: `The arguments of ${tool} are not valid JSON (${(error as Error).message}). Send a JSON object.`,
    };
  }
  // Real models add keys the schema does not have ("reasoning", "explanation"): drop them and say so, rather
  // than failing a call that is otherwise right.
  const ignored = unknownKeys(schemas[tool], json);
  if (ignored.length > 0 && json !== null && typeof json === 'object') {
    json = Object.fromEntries(Object.entries(json).filter(([key]) => !ignored.includes(key)));
  }
  const note = ignored.length > 0 ? `\n(Ignored unknown argument(s) of ${tool}: ${ignored.join(', ')}.)` : '';
  const parsed = schemas[tool].safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`);
    return { ok: false, content: `Invalid arguments for ${tool}: ${problems.join('; ')}.` };
  }
  const pathArgument = (parsed.data as { path?: unknown }).path;
  try {
    const outcome = await implementations[tool](parsed.data as never, ctx);
    return note ? { ...outcome, content: outcome.content + note } : outcome;
  } catch (error) {
    if (error instanceof PathRefusal) {
      return {
        ok: false,
        content: `Refused: ${error.message}.`,
        refused: error.reason,
        ...(error.relative !== undefined
          ? { path: error.relative }
          : typeof pathArgument === 'string'
            ? { path: pathArgument }
            : {}),
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, content: `${tool} failed: ${message}` };
  }
}

type Impl<N extends ToolName> = (
  args: z.output<(typeof schemas)[N]>,
  ctx: ToolContext,
) => Promise<ToolOutcome>;

const implementations: { [N in ToolName]: Impl<N> } = {
  async list_files(args, ctx) {
    const dir = await ctx.jail.resolve(args.path);
    const files: string[] = [];
    let truncated = false;
    for await (const file of walk(dir.absolute, ctx.jail.root)) {
      if (files.length >= MAX_LIST) {
        truncated = true;
        break;
      }
      files.push(file);
    }
    files.sort();
    const tail = truncated ? `\n… (stopped at ${MAX_LIST} files; list a sub-folder)` : '';
    return { ok: true, path: dir.relative, content: files.length ? files.join('\n') + tail : '(no files)' };
  },

  async read_file(args, ctx) {
    const file = await ctx.jail.resolve(args.path);
    const text = await readText(file.absolute, file.relative);
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
    const stat = await fs.stat(where.absolute);
    const files = stat.isFile() ? [where.relative] : [];
    if (!stat.isFile()) for await (const f of walk(where.absolute, ctx.jail.root)) files.push(f);
    files.sort();
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
    return { ok: true, content: hits.length ? hits.join('\n') + more : 'No matches.' };
  },

  async edit(args, ctx) {
    const file = await ctx.jail.resolveForWrite(args.path);
    const text = await readText(file.absolute, file.relative);
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
    await fs.writeFile(file.absolute, updated);
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

export function formatSpecResults(results: SpecResult[]): string {
  const width = Math.max(4, ...results.map((r) => r.id.length));
  const table = results.map((r) => `${r.id.padEnd(width)}  ${r.verdict}${r.reason ? ` (${r.reason})` : ''}`);
  const failing = results
    .filter((r) => r.verdict === 'fail' || r.verdict === 'error' || r.verdict === 'tampered')
    .map((r) => `--- ${r.id} output (tail) ---\n${r.output.slice(-1500)}`);
  const passed = results.filter((r) => r.verdict === 'pass').length;
  return [`${passed}/${results.length} specs pass.`, ...table, ...failing].join('\n');
}

async function readText(absolute: string, relative: string): Promise<string> {
  const stat = await fs.stat(absolute);
  if (stat.isDirectory()) throw new Error(`${relative} is a folder: use list_files`);
  if (stat.size > MAX_TEXT_FILE_BYTES) throw new Error(`${relative} is larger than 1 MB`);
  const buffer = await fs.readFile(absolute);
  if (buffer.includes(0)) throw new Error(`${relative} is a binary file`);
  return buffer.toString('utf8');
}

/** Workspace-relative files under `dir`, skipping .git, node_modules and Weave's run state; no symlinks followed. */
async function* walk(dir: string, root: string): AsyncGenerator<string> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const absolute = path.join(dir, entry.name);
    const relative = path.relative(root, absolute).split(path.sep).join('/');
    if (entry.isDirectory()) {
      if (SKIPPED_DIRS.has(entry.name) || relative === '.weave/runs') continue;
      yield* walk(absolute, root);
    } else if (entry.isFile()) {
      yield relative;
    }
  }
}

/** Top-level keys of `json` that the tool's (strict) object schema does not declare. */
function unknownKeys(schema: z.ZodObject, json: unknown): string[] {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return [];
  return Object.keys(json).filter((key) => !Object.hasOwn(schema.shape, key));
}
