// The CLI's agent and the editor's agent get the same prompts for the same workspace: each face's own way into
// a run (flags and environment → agentRunFromFlags; settings → agentSettingsFrom, modelSettingsOf, editorAgentRun)
// reaches the core's one run set-up, and the prompts are built from what each returns. The workspace has recorded
// coverage, which the CLI alone once put in the prompt. Also: the budget defaults the editor's settings declare
// in package.json are the core's.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { agentRunFromFlags } from '../../../src/cli/commands/agent';
import type { AgentRunSetup } from '../../../src/core/agent/agentRunSetup';
import { modelFromSettings } from '../../../src/core/model/modelSettings';
import { buildSystemPrompt, buildTaskPrompt, type AgentTarget } from '../../../src/core/agent/prompt';
import { promptInputFor } from '../../../src/core/agent/promptInput';
import { DEFAULT_BUDGETS } from '../../../src/core/agent/runAgent';
import type { SpecResult } from '../../../src/core/check/types';
import type { CoverageStore } from '../../../src/core/coverage/types';
import { loadSpecFile } from '../../../src/core/spec/load';
import { agentSettingsFrom, editorAgentRun, modelSettingsOf } from '../../../src/extension/agent/agentSetup';
import { REPO_ROOT } from '../../support/paths';

const BASE_URL = 'http://127.0.0.1:9/v1';
const MODEL = 'scripted';

const spec = (id: string): object => ({
  id,
  title: `spec ${id}`,
  kind: 'functional',
  statement: `${id} holds`,
  test: { command: `node test/${id}.test.js`, files: [`test/${id}.test.js`] },
});

// Specs a and b executed cache.js#Cache.get, c only cache.js#Cache.clear: a ↔ b is the one covered pair.
const coverage: CoverageStore = {
  version: 1,
  specs: Object.fromEntries(
    [
      ['a', [0]],
      ['b', [0]],
      ['c', [1]],
    ].map(([id, functions]) => [
      id as string,
      {
        runId: 'r1',
        recordedAt: '2026-01-01T00:00:00.000Z',
        tracers: ['v8' as const],
        files: { 'src/cache.js': { hash: 'h1', tracer: 'v8' as const, functions: functions as number[] } },
      },
    ]),
  ),
  units: {
    h1: [
      ['Cache.get', 1, 4],
      ['Cache.clear', 5, 8],
    ],
  },
};

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

async function workspace(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-prompt-parity-'));
  cleanup.push(dir);
  const files: Record<string, string> = {
    '.weave/specs.json': JSON.stringify({ version: 1, goal: 'a cache', specs: ['a', 'b', 'c'].map(spec) }),
    '.weave/cache/coverage/coverage-v1.json': JSON.stringify(coverage),
    'AGENTS.md': 'Use two-space indents.\n',
  };
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  }
  return dir;
}

const before: SpecResult[] = [];

async function prompts(setup: AgentRunSetup, dir: string, target: AgentTarget): Promise<string[]> {
  const input = await promptInputFor(dir, { ...setup, target }, before, undefined);
  return [buildSystemPrompt(input), buildTaskPrompt(input)];
}

describe('the CLI and the editor give the agent the same prompt', () => {
  it('builds byte-identical prompts through both faces, with the recorded coverage interactions', async () => {
    const dir = await workspace();
    const loaded = await loadSpecFile(dir);
    assert.ok(loaded.ok);
    const { specFile } = loaded;

    const cli = await agentRunFromFlags(
      { model: MODEL, 'base-url': BASE_URL, 'no-stream': false },
      {
        workspaceDir: dir,
        specFile,
      },
    );
    const editorValues: Record<string, unknown> = { provider: 'openai', baseUrl: BASE_URL, model: MODEL };
    const settings = agentSettingsFrom(<T>(key: string, fallback: T) =>
      key in editorValues ? (editorValues[key] as T) : fallback,
    );
    const client = modelFromSettings(modelSettingsOf(settings, undefined));
    const editor = await editorAgentRun(
      { specFile, client, settings, apiKey: undefined },
      { workspaceDir: dir },
    );

    for (const target of [{ kind: 'all' } as const, { kind: 'spec', id: 'c' } as const]) {
      const [cliSystem, cliTask] = await prompts(cli, dir, target);
      const [editorSystem, editorTask] = await prompts(editor, dir, target);
      assert.equal(editorSystem, cliSystem);
      assert.equal(editorTask, cliTask);
    }
    const [system] = await prompts(editor, dir, { kind: 'all' });
    assert.match(system!, /### a \(functional\)[^#]*Potential interactions \(shared code\): b\n/);
    assert.match(system!, /### c \(functional\)[^#]*Potential interactions \(shared code\): none found/);
    assert.match(system!, /Use two-space indents\./);
    assert.deepEqual(editor.budgets, DEFAULT_BUDGETS);
  });

  it("declares the core's budget defaults as the editor settings' defaults", async () => {
    const manifest = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
    };
    const declared = manifest.contributes.configuration.properties;
    assert.deepEqual(
      {
        maxSteps: declared['weave.agent.maxSteps']?.default,
        maxTokens: declared['weave.agent.maxTokens']?.default,
        timeoutSeconds: declared['weave.agent.timeoutSeconds']?.default,
      },
      DEFAULT_BUDGETS,
    );
  });
});
