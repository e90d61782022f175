// The draft agent's toolbox: the coding agent's read/search tools (reused, not forked), `propose_spec` (every
// proposal is verified before it counts, and the verdict is the tool's result, so the model can revise) and
// `finish`. Nothing here writes the user's files.
import { z } from 'zod';
import type { ToolSpec } from '../model';
import { READ_TOOL_NAMES, toolSpecs, type ToolOutcome } from '../agent/toolContract';
import { runTool, type Toolbox } from '../agent/toolbox';
import { specSchema } from '../../shared/specSchema';
import type { Proposal } from './types';

const testFileSchema = z.strictObject({
  path: z.string().min(1).describe('Workspace-relative path of a NEW test file, listed in spec.test.files.'),
  content: z.string().describe('The whole file.'),
});

/** What the model is shown: the real spec schema, so it can fill the object in exactly. */
const advertised = z.strictObject({
  spec: specSchema.describe('One spec object exactly as in .weave/specs.json v1.'),
  testFiles: z.array(testFileSchema).describe('The test files this spec adds (its test.files).'),
});
/** What the tool accepts: the spec is checked by verification, which reports located, fixable problems. */
const accepted = z.strictObject({ spec: z.unknown(), testFiles: z.array(testFileSchema).default([]) });
const finishSchema = z.strictObject({ summary: z.string().min(1).describe('What you proposed and why.') });

export interface DraftToolHandlers {
  propose(
    proposal: Proposal,
    signal: AbortSignal,
  ): Promise<{ kept: boolean; message: string; done: boolean }>;
}

export function draftToolbox(handlers: DraftToolHandlers): Toolbox {
  return {
    specs: [
      ...toolSpecs(READ_TOOL_NAMES),
      tool(
        'propose_spec',
        'Propose one spec with its new test file(s). It is verified in a scratch copy (schema and graph, runs ≥ 1 ' +
          'test, stable over 2 runs, passes or fails by an assertion, kills ≥ 1 mutant of its anchored code, not ' +
          'a duplicate); the result says KEPT or REJECTED with the reason, so you can revise and propose again.',
        advertised,
      ),
      tool('finish', 'Stop: call this when you have proposed the specs the goal needs.', finishSchema),
    ],
    async run(name, rawArguments, ctx): Promise<ToolOutcome> {
      if (name === 'propose_spec') {
        const parsed = parseArguments(rawArguments, accepted);
        if (typeof parsed === 'string') return { ok: false, content: parsed };
        const verdict = await handlers.propose(parsed as Proposal, ctx.signal);
        return {
          ok: verdict.kept,
          content: verdict.message,
          ...(verdict.done ? { finish: { summary: 'the draft limit is reached' } } : {}),
        };
      }
      if (name === 'finish') {
        const parsed = parseArguments(rawArguments, finishSchema);
        if (typeof parsed === 'string') return { ok: false, content: parsed };
        return { ok: true, content: 'Finished.', finish: { summary: parsed.summary } };
      }
      return runTool(name, rawArguments, ctx, READ_TOOL_NAMES);
    },
  };
}

function tool(name: string, description: string, schema: z.ZodType): ToolSpec {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(schema, { io: 'input' }) as Record<
    string,
    unknown
  >;
  return { type: 'function', function: { name, description, parameters } };
}

function parseArguments<T>(raw: string, schema: z.ZodType<T>): T | string {
  let json: unknown;
  try {
    json = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch (error) {
    return `The arguments are not valid JSON (${(error as Error).message}). Send a JSON object.`;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    return `Invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ')}.`;
  return parsed.data;
}
