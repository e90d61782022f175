// What the agent is told: the goal, EVERY spec (so it sees the constraints its change must not break),
// the declared and potential interactions, the repository's AGENTS.md, and how to work.
import type { SpecResult } from '../check';
import type { SpecFile } from '../../shared/specSchema';

/** 'all': satisfy every spec together; otherwise one spec id solved alone (the matrix). */
export type AgentTarget = { kind: 'all' } | { kind: 'spec'; id: string };

export interface PromptInput {
  specFile: SpecFile;
  target: AgentTarget;
  /** Spec id → ids of specs that share code with it (static coupling), when known. */
  potentialInteractions?: ReadonlyMap<string, readonly string[]>;
  agentsMd?: string | undefined;
  before: SpecResult[];
}

export function targetLabel(target: AgentTarget): string {
  return target.kind === 'all' ? 'all specs together' : `spec ${target.id} alone`;
}

export function buildSystemPrompt(input: PromptInput): string {
  const { specFile } = input;
  const protectedFiles = [...new Set(specFile.specs.flatMap((s) => s.test.files))];
  const specs = specFile.specs.map((s) => {
    const potential = input.potentialInteractions?.get(s.id) ?? [];
    return [
      `### ${s.id} (${s.kind}): ${s.title}`,
      `Statement: ${s.statement}`,
      `Test: \`${s.test.command}\`${s.test.files.length ? ` — test files (read-only): ${s.test.files.join(', ')}` : ''}`,
      `Depends on: ${s.dependsOn.join(', ') || 'none'}`,
      `Declared interactions: ${s.interactsWith.join(', ') || 'none'}`,
      `Potential interactions (shared code): ${potential.join(', ') || 'none found'}`,
    ].join('\n');
  });
  const sections = [
    'You are a careful coding agent. You work in a throw-away copy of the repository; the user reviews your ' +
      'change as a patch. Use the tools to read, search and edit files and to run the spec tests.',
    '## Goal\n' + (specFile.goal.trim() || '(no goal given: make the specs below hold)'),
    '## Specifications\nEach spec is a constraint with an executable test. They interact: a change that fixes one ' +
      'can break another, so run every spec before you finish.\n\n' +
      specs.join('\n\n'),
    '## Rules\n' +
      `- Never edit a spec's test files (${protectedFiles.join(', ') || 'none listed'}) or anything under .weave/: ` +
      'they are read-only and such edits are refused. Fix the code under test instead.\n' +
      '- Do not skip, delete or weaken tests, and do not hard-code values copied from test expectations.\n' +
      '- Paths are relative to the workspace root; you cannot leave it.\n' +
      '- edit replaces one exact occurrence of the search text: read the file first and copy the text exactly.\n' +
      '- When you are done (or cannot do better), call finish with a short summary.',
  ];
  if (input.agentsMd?.trim())
    sections.push('## Repository instructions (AGENTS.md)\n' + input.agentsMd.trim());
  return sections.join('\n\n');
}

export function buildTaskPrompt(input: PromptInput): string {
  const verdicts = input.before
    .map((r) => `- ${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}`)
    .join('\n');
  const task =
    input.target.kind === 'all'
      ? 'Target: all specs together. Make every spec pass at the same time, without breaking any that pass now.'
      : `Target: spec ${input.target.id} alone. Make spec ${input.target.id} pass. (The other specs are listed for context.)`;
  return `${task}\n\nVerdicts before your change:\n${verdicts || '(no spec ran)'}`;
}
