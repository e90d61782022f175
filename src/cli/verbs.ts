// The one table of CLI verbs, in the order `weave --help` lists them. Each verb's module loads when it runs: a
// verb pays for its own code only, not for every other verb's (the agent's model client, export, the MCP
// server…), which made the CLI's start-up most of a short verb such as `weave affected` (bench/affected.bench.ts).
import type { Verb } from './verb';

export interface VerbEntry {
  name: string;
  load(): Promise<Verb>;
}

export const verbs: readonly VerbEntry[] = [
  { name: 'init', load: async () => (await import('./commands/init.js')).initVerb },
  { name: 'validate', load: async () => (await import('./commands/validate.js')).validateVerb },
  { name: 'check', load: async () => (await import('./commands/check.js')).checkVerb },
  { name: 'index', load: async () => (await import('./commands/index.js')).indexVerb },
  { name: 'affected', load: async () => (await import('./commands/affected.js')).affectedVerb },
  { name: 'graph', load: async () => (await import('./commands/graph.js')).graphVerb },
  { name: 'blame', load: async () => (await import('./commands/blame.js')).blameVerb },
  { name: 'agent', load: async () => (await import('./commands/agent.js')).agentVerb },
  { name: 'export', load: async () => (await import('./commands/export.js')).exportVerb },
  { name: 'eval', load: async () => (await import('./commands/eval.js')).evalVerb },
  { name: 'mcp', load: async () => (await import('./commands/mcp.js')).mcpVerb },
  { name: 'guard', load: async () => (await import('./commands/guard.js')).guardVerb },
  { name: 'audit', load: async () => (await import('./commands/audit.js')).auditVerb },
  { name: 'draft', load: async () => (await import('./commands/draft.js')).draftVerb },
  { name: 'bench', load: async () => (await import('./commands/bench.js')).benchVerb },
  { name: 'mine', load: async () => (await import('./commands/mine.js')).mineVerb },
];
