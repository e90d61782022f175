// `weave mcp`: serves Weave's tools to any MCP client over stdio (src/mcp/server.ts). Stdout carries only the
// protocol; logs go to stderr. Exit code 0 when the client closes the connection, 2 on bad flags.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { LineTransport } from '../../mcp/lineTransport';
import { malformedParams } from '../../mcp/requestParams';
import { createWeaveMcpServer } from '../../mcp/server';
import { NO_RUN_REASON } from '../../mcp/toolContract';
import { parseVerbFlags, UsageError, WORKSPACE_FLAG } from '../flags';
import type { Verb } from '../verb';

const HELP = `Usage: weave mcp [--workspace DIR] [--trust | --no-run]

Serves Weave's tools over the Model Context Protocol on stdin/stdout, for any MCP client (Claude Code, Cursor,
Codex, Cline, VS Code…):
  weave_list_specs   the goal and every spec, their relations, potential interactions and last verdicts
  weave_check        run spec tests {only?, affected?}: verdicts, broken/fixed vs the baseline, failure lines
  weave_affected     which specs the current change can affect, and why {since?}
  weave_blame        which hunks broke a spec {spec}
and the spec file as a resource. Stdout carries only the protocol; logs go to stderr.

Options:
  --workspace DIR  the workspace folder (default: the current directory)
  --trust          let weave_check and weave_blame run spec tests (the default: you configured this server
                   for your folder, as you would run 'weave check' there)
  --no-run         run nothing from the folder: weave_check and weave_blame (spec tests are shell commands)
                   and weave_affected (git, whose repository config can run commands) are refused;
                   weave_list_specs still reads the specs. VS Code passes it for an untrusted folder.
  -h, --help       show this help

Exit codes: 0 the client closed the connection, 2 bad flags.

Example client configuration (Claude Code, .mcp.json):
  {"mcpServers": {"weave": {"command": "npx", "args": ["weave", "mcp", "--workspace", "."]}}}`;

export const mcpVerb: Verb = {
  name: 'mcp',
  summary: "Serve Weave's tools (list specs, check, affected, blame) to MCP clients over stdio",
  help: HELP,
  async run(args) {
    const flags = parseVerbFlags('mcp', args, {
      ...WORKSPACE_FLAG,
      trust: { type: 'boolean', default: false },
      'no-run': { type: 'boolean', default: false },
    });
    if (flags.trust && flags['no-run']) throw new UsageError('give --trust or --no-run, not both');
    const workspaceDir = path.resolve(flags.workspace);
    const stat = await fs.stat(workspaceDir).catch(() => undefined);
    if (!stat?.isDirectory()) throw new UsageError(`--workspace ${flags.workspace} is not a folder`);
    const log = (line: string): void => void process.stderr.write(`weave mcp: ${line}\n`);
    const allowed = !flags['no-run'];
    const server = createWeaveMcpServer({
      workspaceDir,
      policy: { allowed, reason: NO_RUN_REASON },
      version: WEAVE_VERSION,
      log,
    });
    const transport = new LineTransport(process.stdin, process.stdout, { screen: malformedParams, log });
    // The client going away closes stdin: the transport closes once every request read before that is answered.
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
    });
    await server.connect(transport);
    log(`serving ${workspaceDir}${allowed ? '' : ' (--no-run: spec tests are refused)'}`);
    await closed;
    await server.close().catch(() => undefined);
    return 0;
  },
};

declare const WEAVE_VERSION: string;
