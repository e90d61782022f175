// The one definition of Weave's agent-facing tools: name, descriptions and zod input schema. It feeds all three
// surfaces (ARCHITECTURE.md, "Other agents"): the MCP server (src/mcp/server.ts registers these shapes), the VS Code
// Language Model Tools (src/extension/lmTools.ts validates with them) and the `contributes.languageModelTools`
// entries of package.json (generated from them by scripts/sync-tool-manifest.mjs; a unit test keeps them equal).
import { z } from 'zod';
import { specIdSchema } from '../shared/specSchema';

export const listSpecsInput = z.strictObject({});

export const checkInput = z.strictObject({
  only: z
    .array(specIdSchema)
    .min(1)
    .optional()
    .describe('Run only these spec ids (and the specs they depend on).'),
  affected: z
    .boolean()
    .optional()
    .describe('Run only the specs the uncommitted changes can affect (see weave_affected).'),
});

export const affectedInput = z.strictObject({
  since: z
    .string()
    .min(1)
    .optional()
    .describe('Changes since this git ref (default HEAD: the uncommitted changes).'),
});

export const blameInput = z.strictObject({
  spec: specIdSchema.describe('The id of the broken spec to blame.'),
});

export type CheckInput = z.output<typeof checkInput>;
export type AffectedInput = z.output<typeof affectedInput>;
export type BlameInput = z.output<typeof blameInput>;

export interface WeaveToolDefinition {
  /** The tool's name on every surface (MCP and vscode.lm). */
  name: string;
  displayName: string;
  /** What `#name` a person types in VS Code chat. */
  toolReferenceName: string;
  /** For the model: when and how to use the tool. */
  description: string;
  /** For people, in the tools picker. */
  userDescription: string;
  input: z.ZodObject;
  /** Whether the tool runs spec tests (a shell command from the workspace): refused when not trusted. */
  runsTests: boolean;
}

export const WEAVE_TOOLS = [
  {
    name: 'weave_list_specs',
    displayName: 'Weave: list specs',
    toolReferenceName: 'weaveSpecs',
    description:
      "Lists the workspace's goal and every Weave spec (constraint): id, kind, title, statement, the test command " +
      'and its test files (read-only: never edit them), anchors (the code the spec is about), dependsOn / ' +
      'interactsWith, the potential interactions found in the code, and the last recorded verdict. Call it ' +
      'before changing code, so you know every constraint your change must keep.',
    userDescription: 'The goal, every spec, their relations and last verdicts.',
    input: listSpecsInput,
    runsTests: false,
  },
  {
    name: 'weave_check',
    displayName: 'Weave: check specs',
    toolReferenceName: 'weaveCheck',
    description:
      "Runs the specs' tests and reports, per spec, the verdict (pass, fail, error, blocked, flaky), its change " +
      'against the baseline (broken = passed before and fails now, fixed, still-failing…) and the first lines ' +
      'of a failure. Give `only` to run some specs, or `affected: true` to run those the uncommitted changes can ' +
      'affect. Call it after every change: a change is done only when no spec is broken.',
    userDescription: 'Run spec tests and report verdicts and what broke.',
    input: checkInput,
    runsTests: true,
  },
  {
    name: 'weave_affected',
    displayName: 'Weave: affected specs',
    toolReferenceName: 'weaveAffected',
    description:
      'Says which specs the current change (uncommitted changes, or changes since `since`) can affect, and why ' +
      '(a changed file is anchored by the spec, is its test, or is imported by them). Runs no test.',
    userDescription: 'Which specs the current change can affect, and why.',
    input: affectedInput,
    runsTests: false,
  },
  {
    name: 'weave_blame',
    displayName: 'Weave: blame a broken spec',
    toolReferenceName: 'weaveBlame',
    description:
      'For a broken spec, finds the smallest set of diff hunks that breaks it (delta debugging in a scratch ' +
      "checkout: the user's files are never touched), the symbols they change and the specs those symbols were " +
      'made for. Runs the spec test several times.',
    userDescription: 'Find the edit that broke a spec.',
    input: blameInput,
    runsTests: true,
  },
] as const satisfies readonly WeaveToolDefinition[];

export type WeaveToolName = (typeof WEAVE_TOOLS)[number]['name'];

/** The JSON Schema of a tool's input, as the manifest and MCP clients see it. */
export function toolInputJsonSchema(tool: WeaveToolDefinition): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.input, { target: 'draft-7', io: 'input' });
  return schema;
}

/** The `contributes.languageModelTools` entries of package.json. */
export function languageModelToolContributions(): Array<Record<string, unknown>> {
  return WEAVE_TOOLS.map((tool) => ({
    name: tool.name,
    displayName: tool.displayName,
    toolReferenceName: tool.toolReferenceName,
    canBeReferencedInPrompt: true,
    icon: '$(check-all)',
    tags: ['weave', 'specs', 'tests'],
    userDescription: tool.userDescription,
    modelDescription: tool.description,
    inputSchema: toolInputJsonSchema(tool),
  }));
}
