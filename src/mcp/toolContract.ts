// What every agent-facing tool shares, whatever it does: the shape of its answer (structured data plus a text a
// model reads), the run policy (workspace trust) it honours, and how a user-facing failure (an invalid spec file,
// an unknown spec, an untrusted workspace) becomes a ToolRefusal whose message says what to do. The tools
// themselves live one per module beside this one (listSpecsTool, checkTool, affectedTool, blameTool), plain Node,
// shared by the MCP server and the VS Code Language Model Tools.
import { BlameError } from '../core/blame/blame';
import { InputError } from '../core/errors';
import { formatProblem, SpecLoadError } from '../core/spec';

/** A tool cannot answer as asked; the message is for the model (and the person) to act on. */
export class ToolRefusal extends Error {
  override name = 'ToolRefusal';
}

export interface ToolOutput<T> {
  structured: T;
  text: string;
}

export interface RunPolicy {
  /**
   * Whether Weave may run anything from the workspace (workspace trust): spec tests, and git, whose repository
   * config can name commands (core.fsmonitor, diff drivers). When not, only files are read.
   */
  allowed: boolean;
  /** Why not, when not allowed. */
  reason: string;
}

export const NO_RUN_REASON =
  'Weave refuses to run spec tests (or git) here: this workspace is not trusted for running (weave mcp ' +
  '--no-run). A spec test is a shell command from the workspace. weave_list_specs still works; ask the user to ' +
  'trust the folder to check constraints.';

/** Options of the tools that run spec tests (check, blame). */
export interface RunningToolOptions {
  signal?: AbortSignal;
  policy: RunPolicy;
}

export function specFileRefusal(error: SpecLoadError): ToolRefusal {
  const problems = error.problems.map((p) => formatProblem(p)).join('\n');
  return new ToolRefusal(`The spec file has errors; nothing was run:\n${problems}`);
}

/** Bad input and answers the core gives as errors become refusals; anything else is a bug and stays an error. */
export function refusalFor(error: unknown): Error {
  if (error instanceof ToolRefusal) return error;
  if (error instanceof SpecLoadError) return specFileRefusal(error);
  if (error instanceof BlameError || error instanceof InputError) return new ToolRefusal(error.message);
  return error instanceof Error ? error : new Error(String(error));
}
