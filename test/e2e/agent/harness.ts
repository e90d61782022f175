// Shared set-up for agent runs in tests: a demo repo, a scripted server, a client with a key, and the
// assertion that a run left nothing behind.
import assert from 'node:assert/strict';
import { holdsWithin } from '../../support/polling';
import { createModelClient } from '../../../src/core/model/modelClient';
import type { AgentRunOptions } from '../../../src/core/agent/runAgent';
import { loadSpecFile } from '../../../src/core/spec/load';
import type { SpecFile } from '../../../src/shared/specSchema';
import {
  startScriptedServer,
  type Script,
  type ScriptedServer,
  type ScriptStep,
} from '../../support/scriptedOpenAiServer';
import {
  childProcesses,
  createDemoRepo,
  extraWorktrees,
  leftoverCheckouts,
  type DemoRepo,
} from '../../support/demoWorkspace';

export const API_KEY = 'sk-test-0123456789abcdefSECRET';
export const isReviewConversation = (k: string): boolean => k.startsWith('You review');

export async function loadSpecs(workspace: string): Promise<SpecFile> {
  const loaded = await loadSpecFile(workspace);
  assert.ok(loaded.ok, 'the demo spec file loads');
  return loaded.specFile;
}

export interface Harness {
  repo: DemoRepo;
  server: ScriptedServer;
  specFile: SpecFile;
  options(extra?: Partial<AgentRunOptions>): AgentRunOptions;
  close(): Promise<void>;
}

export async function harness(
  scripts: Script[],
  setup: { stream?: boolean; subfolder?: string; git?: boolean } = {},
): Promise<Harness> {
  const repo = createDemoRepo({
    ...(setup.subfolder ? { subfolder: setup.subfolder } : {}),
    ...(setup.git === false ? { git: false } : {}),
  });
  const server = await startScriptedServer({ scripts, apiKey: API_KEY });
  const loaded = await loadSpecs(repo.workspace);
  // This machine is shared with other test suites: a spec test that times out under load would be an
  // environment failure, not an agent one, so the tests get a generous per-spec timeout.
  const specFile = {
    ...loaded,
    specs: loaded.specs.map((s) => ({ ...s, test: { ...s.test, timeoutSeconds: 600 } })),
  };
  const client = createModelClient({
    baseURL: server.baseURL,
    model: 'scripted-model',
    apiKey: API_KEY,
    timeoutMs: 10_000,
    maxRetries: 2,
    ...(setup.stream !== undefined ? { stream: setup.stream } : {}),
  });
  return {
    repo,
    server,
    specFile,
    options: (extra = {}) => ({
      workspaceDir: repo.workspace,
      specFile,
      target: { kind: 'all' },
      client,
      secrets: [API_KEY],
      modelReview: false,
      ...extra,
    }),
    close: async () => {
      await server.close();
      repo.dispose();
    },
  };
}

/** The agent's conversations (not the model review's). */
export function agentScript(steps: ScriptStep[], after?: ScriptStep): Script {
  const matches = (k: string): boolean => !isReviewConversation(k);
  return after ? { matches, steps, after } : { matches, steps };
}

export async function assertNothingLeftBehind(repo: DemoRepo): Promise<void> {
  if (repo.git) assert.deepEqual(extraWorktrees(repo.root), [], 'no git worktree is left');
  assert.deepEqual(leftoverCheckouts(), [], 'no scratch checkout folder is left');
  assert.ok(
    await holdsWithin(() => childProcesses().length === 0, 5000),
    `no child process is left: ${childProcesses().join(', ')}`,
  );
}
