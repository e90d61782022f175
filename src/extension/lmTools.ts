// Weave's tools as VS Code Language Model Tools (`contributes.languageModelTools` + `vscode.lm.registerTool`), so
// Copilot agent mode and chat can call #weaveCheck and friends. Names, descriptions and input schemas come from
// src/mcp/toolSchemas.ts (the same zod schemas the MCP server uses); the work is src/mcp's tool modules
// (listSpecsTool.ts, affectedTool.ts, blameTool.ts), except weave_check, which runs through CheckService so that
// diagnostics, Test Explorer and the status bar show it too (it shares only checkTool.ts's answer, checkOutput).
// Workspace trust: in an untrusted folder the tools that run spec tests (or git) refuse (they throw, which VS Code
// hands to the model as the tool's error); listing the specs reads files only.
import * as vscode from 'vscode';
import { WEAVE_TOOLS, type WeaveToolDefinition, type WeaveToolName } from '../mcp/toolSchemas';
import { affectedSpecs } from '../mcp/affectedTool';
import { blameBrokenSpec } from '../mcp/blameTool';
import { checkOutput } from '../mcp/checkTool';
import { listSpecs } from '../mcp/listSpecsTool';
import type { RunPolicy, ToolOutput } from '../mcp/toolContract';
import type { AffectedSelector } from './affected';
import type { CheckService } from './checks';
import type { SpecStore } from './specStore';
import { UNTRUSTED_REASON } from './trust';

export interface LmToolContext {
  store: SpecStore;
  checks: CheckService;
  affected: AffectedSelector;
  log: vscode.LogOutputChannel;
}

type Invoke = (input: never, signal: AbortSignal) => Promise<ToolOutput<object>>;

export function registerLanguageModelTools(ctx: LmToolContext): vscode.Disposable[] {
  const workspaceDir = ctx.store.folder.uri.fsPath;
  const policy = (): RunPolicy => ({ allowed: vscode.workspace.isTrusted, reason: UNTRUSTED_REASON });
  const handlers: Record<WeaveToolName, Invoke> = {
    weave_list_specs: () => listSpecs(workspaceDir, policy()),
    weave_check: (input: { only?: string[]; affected?: boolean }, signal) =>
      checkInEditor(ctx, input, signal),
    weave_affected: (input: { since?: string }) => affectedSpecs(workspaceDir, input, policy()),
    weave_blame: (input: { spec: string }, signal) =>
      blameBrokenSpec(workspaceDir, input, { policy: policy(), signal }),
  };
  return WEAVE_TOOLS.map((tool) =>
    vscode.lm.registerTool<Record<string, unknown>>(tool.name, {
      prepareInvocation: (options) => prepare(tool, options.input),
      invoke: async (options, token) => {
        const parsed = tool.input.safeParse(options.input);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`);
          throw new Error(`Invalid input for ${tool.name}: ${issues.join('; ')}`);
        }
        if (tool.runsTests && !vscode.workspace.isTrusted) throw new Error(UNTRUSTED_REASON);
        const abort = new AbortController();
        const cancelled = token.onCancellationRequested(() => abort.abort());
        try {
          const output = await handlers[tool.name](parsed.data as never, abort.signal);
          ctx.log.info(`language model tool ${tool.name}: done`);
          return new vscode.LanguageModelToolResult([
            new vscode.LanguageModelTextPart(output.text),
            new vscode.LanguageModelTextPart(JSON.stringify(output.structured)),
          ]);
        } finally {
          cancelled.dispose();
        }
      },
    }),
  );
}

/** Running spec tests executes shell commands from the folder: the user confirms (VS Code remembers "always"). */
function prepare(tool: WeaveToolDefinition, input: unknown): vscode.PreparedToolInvocation {
  if (!tool.runsTests) return { invocationMessage: `${tool.displayName}…` };
  const only = (input as { only?: unknown } | undefined)?.only;
  const which = Array.isArray(only) ? `the specs ${only.join(', ')}` : 'the spec tests';
  const what =
    tool.name === 'weave_blame'
      ? 'run the broken spec’s test several times in a scratch checkout'
      : `run ${which}`;
  return {
    invocationMessage: `${tool.displayName}…`,
    confirmationMessages: {
      title: tool.displayName,
      message: new vscode.MarkdownString(
        `Weave will ${what}: each test is a shell command from \`.weave/specs.json\`.`,
      ),
    },
  };
}

async function checkInEditor(
  ctx: LmToolContext,
  input: { only?: string[]; affected?: boolean },
  signal: AbortSignal,
): Promise<ToolOutput<object>> {
  if (input.only !== undefined && input.affected === true)
    throw new Error('give `only` or `affected`, not both');
  let only = input.only;
  if (input.affected === true) {
    only = (await ctx.affected.affectedByWorkingTreeChanges()).specIds;
    if (only.length === 0) {
      const summary = 'No spec is affected by the uncommitted changes: nothing to run.';
      return { structured: { summary, specs: [], broken: [], failing: [] }, text: summary };
    }
  }
  const result = await ctx.checks.check({
    ...(only !== undefined ? { only } : {}),
    label: 'specs for a language model tool',
    signal,
  });
  if (!result.ran) throw new Error(result.message);
  const { run, report, specFile } = result.outcome;
  return checkOutput(run, report, specFile);
}
