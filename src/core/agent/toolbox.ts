// The toolbox an agent loop calls: one entry point that takes the model's raw call (a name and JSON text),
// validates it against the tool's schema (toolContract.ts) and runs the tool (toolImplementations.ts). A bad
// call (malformed JSON, wrong fields, unknown tool, refused path) becomes an error result the model can read
// and correct, never an exception that ends the run. Every path goes through the WorkspaceJail.
import type { z } from 'zod';
import type { ToolSpec } from '../model';
import { PathRefusal } from './paths';
import {
  TOOL_NAMES,
  toolSchemas,
  toolSpecs,
  type ToolContext,
  type ToolName,
  type ToolOutcome,
} from './toolContract';
import { toolImplementations } from './toolImplementations';

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

export async function runTool(
  name: string,
  rawArguments: string,
  ctx: ToolContext,
  available: readonly ToolName[] = TOOL_NAMES,
): Promise<ToolOutcome> {
  // hasOwn, not `in`: a model calling `constructor` or `toString` must get "unknown tool", not a crash.
  if (!Object.hasOwn(toolSchemas, name) || !available.includes(name as ToolName)) {
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
  const ignored = unknownKeys(toolSchemas[tool], json);
  if (ignored.length > 0 && json !== null && typeof json === 'object') {
    json = Object.fromEntries(Object.entries(json).filter(([key]) => !ignored.includes(key)));
  }
  const note = ignored.length > 0 ? `\n(Ignored unknown argument(s) of ${tool}: ${ignored.join(', ')}.)` : '';
  const parsed = toolSchemas[tool].safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`);
    return { ok: false, content: `Invalid arguments for ${tool}: ${problems.join('; ')}.` };
  }
  const pathArgument = (parsed.data as { path?: unknown }).path;
  try {
    const outcome = await toolImplementations[tool](parsed.data as never, ctx);
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

/** Top-level keys of `json` that the tool's (strict) object schema does not declare. */
function unknownKeys(schema: z.ZodObject, json: unknown): string[] {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return [];
  return Object.keys(json).filter((key) => !Object.hasOwn(schema.shape, key));
}
