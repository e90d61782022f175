// What every face's agent run starts from (`weave agent`, the editor's Run agent and matrix, a `weave bench`
// cell), built in one place so that no face gives the model a different prompt: the workspace and its specs, the
// model and the key to redact, the budgets, containment, and the potential interactions the workspace's
// recorded coverage shows (absent, the checkout's static import cones decide: promptInput.ts).
import { coveredInteractionMap } from '../coverage/coupling';
import { readCoverageStore } from '../coverage/store';
import type { ContainmentRequest } from '../sandbox/containment';
import type { SpecFile } from '../../shared/specSchema';
import type { ModelClient } from '../model';
import type { AgentBudgets, AgentProgress, AgentRunOptions } from './runAgent';

export interface AgentRunRequest {
  workspaceDir: string;
  specFile: SpecFile;
  client: ModelClient;
  /** Redacted from everything the run writes. */
  apiKey: string | undefined;
  budgets?: Partial<AgentBudgets>;
  containment?: ContainmentRequest;
  signal?: AbortSignal;
  onProgress?: (event: AgentProgress) => void;
}

/** The options runAgent and runMatrix share; a face adds the target (or the matrix's concurrency). */
export type AgentRunSetup = Omit<AgentRunOptions, 'target' | 'before' | 'modelReview'>;

export async function agentRunSetup(request: AgentRunRequest): Promise<AgentRunSetup> {
  const { apiKey, ...rest } = request;
  // Specs whose tests executed the same functions (recorded coverage) are the prompt's potential interactions.
  const potentialInteractions = coveredInteractionMap(
    await readCoverageStore(request.workspaceDir),
    request.specFile.specs.map((s) => s.id),
  );
  return { ...rest, secrets: [apiKey], ...(potentialInteractions ? { potentialInteractions } : {}) };
}
