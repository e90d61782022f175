// The contract between an agent loop and its tools: the tool names, each tool's zod argument schema and
// description (turned into the JSON-schema specs the model is offered), the context a tool runs with and
// the outcome it returns. What the tools do is toolImplementations.ts; validating a call and dispatching it
// is toolbox.ts.
import { z } from 'zod';
import type { SpecResult } from '../check';
import type { SymbolDef } from '../index';
import type { ToolSpec } from '../model';
import type { WorkspaceJail } from './paths';

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

const relPath = z.string().min(1).describe('Path relative to the workspace root, e.g. "src/client.js".');

export const toolSchemas = {
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

export type ToolName = keyof typeof toolSchemas;

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

export const TOOL_NAMES = Object.keys(toolSchemas) as ToolName[];

/** The tools that only look: other agents (the draft agent) reuse them without the editing ones. */
export const READ_TOOL_NAMES: readonly ToolName[] = [
  'list_files',
  'read_file',
  'outline',
  'find_symbol',
  'search_text',
];

/** One tool's behaviour: its parsed arguments and the run's context in, an outcome the model reads out. */
export type ToolImplementation<N extends ToolName> = (
  args: z.output<(typeof toolSchemas)[N]>,
  ctx: ToolContext,
) => Promise<ToolOutcome>;

export function toolSpecs(names: readonly ToolName[] = TOOL_NAMES): ToolSpec[] {
  return names.map((name) => {
    const { $schema: _ignored, ...parameters } = z.toJSONSchema(toolSchemas[name], { io: 'input' }) as Record<
      string,
      unknown
    >;
    return { type: 'function', function: { name, description: descriptions[name], parameters } };
  });
}
