// The one input path of the agent's two prompts (prompt.ts words them): the run's spec file and target, the
// checkout's AGENTS.md, the verdicts before the change, and the potential interactions — the run's own
// (recorded coverage, agentRunSetup.ts) or else those the checkout's static import cones show.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SpecResult } from '../check';
import type { SpecFile } from '../../shared/specSchema';
import type { AgentTarget, PromptInput } from './prompt';
import type { WorktreeIndex } from './symbolIndex';

export interface PromptSource {
  specFile: SpecFile;
  target: AgentTarget;
  potentialInteractions?: ReadonlyMap<string, readonly string[]>;
}

/** `dir` is the checkout the agent works in; `index` its symbol index, when the run uses one. */
export async function promptInputFor(
  dir: string,
  source: PromptSource,
  before: SpecResult[],
  index: WorktreeIndex | undefined,
): Promise<PromptInput> {
  const potentialInteractions =
    source.potentialInteractions ??
    (await index?.potentialInteractions(source.specFile).catch(() => undefined));
  return {
    specFile: source.specFile,
    target: source.target,
    agentsMd: await readOptional(path.join(dir, 'AGENTS.md')),
    before,
    ...(potentialInteractions ? { potentialInteractions } : {}),
  };
}

export async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
