// The real Codex CLI (pinned in agentClients.ts, installed by test/vscode/install-tools.sh) driven offline by a
// scripted OpenAI Responses server on 127.0.0.1 (a custom model provider in CODEX_HOME/config.toml), with Weave
// set up as the README says: `weave guard --install codex` (.codex/hooks.json, committed), the trust step it
// prints appended to config.toml, and `[mcp_servers.weave]` running `npx weave mcp`. The trust test shows that the
// real Codex skips Weave's hooks until that step is done and runs them after it: the hash Weave computes
// (src/cli/guard/codexTrust.ts) is the one Codex checks.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import {
  agentCli,
  type ClientRun,
  CODEX_VERSION,
  makeGuardedProject,
  offlineEnv,
  runClient,
  tempFolder,
} from '../../support/agentClients';
import { gitIn } from '../../support/gitRepo';
import { INDEX_JS } from '../../support/mathWorkspace';
import type { ModelServer, ModelTurn } from '../../support/modelTurns';
import { CLI } from '../../support/paths';
import { type RefusingProxy, startRefusingProxy } from '../../support/refusingProxy';
import {
  type ResponsesRequestBody,
  startScriptedResponsesServer,
} from '../../support/scriptedResponsesServer';

const MARKER = 'WEAVE-CLIENT-TEST';
/**
 * A model Codex knows (bundled metadata): it gets the freeform apply_patch tool, as users' models do. Its MCP
 * tools are deferred behind tool_search, so the weave_check test uses an unknown model id instead, for which
 * Codex falls back to default metadata and lists MCP tools directly (namespace mcp__weave).
 */
const PATCH_MODEL = 'gpt-5.5';
const MCP_MODEL = 'weave-scripted';
let proxy: RefusingProxy;
const cleanup: string[] = [];

before(async () => {
  proxy = await startRefusingProxy();
});
after(async () => {
  await proxy.close();
  for (const dir of cleanup) await fs.rm(dir, { recursive: true, force: true });
});

interface Session {
  project: string;
  configFile: string;
  env: Record<string, string>;
  /** What `weave guard --install codex` printed: the config.toml entries that trust the project and hooks. */
  trustStep: string;
}

/** Codex's user config: the scripted provider, Weave's MCP server, and every startup call off the machine off. */
function baseConfig(project: string, baseURL: string): string {
  return `model = "${PATCH_MODEL}"
model_provider = "scripted"
check_for_update_on_startup = false

[analytics]
enabled = false

[feedback]
enabled = false

# Plugin and app sync, tool suggestions and in-app updates fetch from github.com and chatgpt.com at startup.
[features]
plugins = false
remote_plugin = false
plugin_sharing = false
apps = false
tool_suggest = false
in_app_updates = false
daemon_auto_start = false
system_proxy_fallback = false
api_key_model_discovery = false

[model_providers.scripted]
name = "scripted"
base_url = "${baseURL}"
wire_api = "responses"
env_key = "WEAVE_TEST_MODEL_KEY"

[mcp_servers.weave]
command = "npx"
args = ["weave", "mcp", "--workspace", ${JSON.stringify(project)}]
# Without it, codex exec may ask for the first turn before npx has started the server (its tools then missing).
required = true
`;
}

async function session(server: ModelServer): Promise<Session> {
  const project = await makeGuardedProject();
  const home = await tempFolder('weave-codex-home-');
  cleanup.push(project, home);
  const codexHome = path.join(home, '.codex');
  await fs.mkdir(codexHome);
  const configFile = path.join(codexHome, 'config.toml');
  await fs.writeFile(configFile, baseConfig(project, server.baseURL));
  const env = { ...offlineEnv(home, proxy.url), CODEX_HOME: codexHome, WEAVE_TEST_MODEL_KEY: 'offline-test' };
  const install = await runClient(
    process.execPath,
    [CLI, 'guard', '--install', 'codex', '--workspace', project],
    project,
    env,
  );
  assert.equal(install.code, 0, install.stderr);
  // Committed, as a team shares it: the Stop hook judges the session's changes since HEAD.
  gitIn(project, 'add', '-A');
  gitIn(project, 'commit', '-q', '-m', 'weave guard');
  const printed = /config\.toml:\n\n([\s\S]*?)\nThen check with/.exec(install.stdout);
  assert.ok(printed?.[1], `--install codex printed no trust step:\n${install.stdout}`);
  return { project, configFile, env, trustStep: printed[1] };
}

async function trust(s: Session, entries: string): Promise<void> {
  await fs.appendFile(s.configFile, `\n${entries}\n`);
}

async function codex(
  t: TestContext,
  s: Session,
  prompt: string,
  model = PATCH_MODEL,
  flags: string[] = [],
): Promise<ClientRun> {
  const run = await runClient(
    agentCli('codex'),
    ['exec', '--json', '-s', 'danger-full-access', '-m', model, ...flags, `${MARKER} ${prompt}`],
    s.project,
    s.env,
  );
  t.diagnostic(`codex ${CODEX_VERSION}: ${run.ms} ms, exit ${run.code}`);
  assert.equal(run.code, 0, `codex failed:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`);
  return run;
}

async function status(s: Session): Promise<ClientRun> {
  return runClient(
    process.execPath,
    [CLI, 'guard', '--status', '--agent', 'codex', '--workspace', s.project],
    s.project,
    s.env,
  );
}

/**
 * What the model was sent when asked for turn `index` (in the last conversation that got that far), without
 * Codex's own developer instructions: the prompt, the tool calls and their outputs, hook messages.
 */
function sentForTurn(server: ModelServer, index: number): string {
  const request = server.requests.findLast((r) => r.turn === index);
  assert.ok(request, `the client never asked for turn ${index}`);
  const input = (request.body as ResponsesRequestBody).input ?? [];
  return JSON.stringify(input.filter((item) => item.role !== 'developer'));
}

function assertOffline(server: ModelServer): void {
  assert.deepEqual(proxy.attempts, [], 'the client tried to leave 127.0.0.1');
  assert.deepEqual(
    server.unscripted().map((r) => JSON.stringify((r.body as ResponsesRequestBody).input?.at(-1))),
    [],
    'the client asked for more turns than scripted (the last item it sent is shown)',
  );
}

const ADD_TEST = 'test/add.test.js';
const PATCH_ADD_TEST = `*** Begin Patch
*** Update File: ${ADD_TEST}
@@
-test('add', () => assert.strictEqual(add(2, 3), 5));
+test('add', () => assert.ok(true));
*** End Patch
`;
const PROTECTED_EDITS: ModelTurn[] = [
  { patch: PATCH_ADD_TEST },
  { tool: 'exec_command', input: { cmd: "cd test && echo '// x' >> add.test.js" } },
  { text: 'done' },
];
const BLOCKED = /Weave guard blocked this: .{0,200}test\/add\.test\.js of spec add-works/;

describe(`Codex ${CODEX_VERSION} with Weave's guard and MCP server`, () => {
  test("Codex skips Weave's hooks until the trust step is done, and runs them after it", async (t) => {
    const server = await startScriptedResponsesServer(MARKER, PROTECTED_EDITS);
    try {
      const s = await session(server);
      const original = await fs.readFile(path.join(s.project, ADD_TEST), 'utf8');
      const edited = original.replace('assert.strictEqual(add(2, 3), 5)', 'assert.ok(true)') + '// x\n';
      const addTest = () => fs.readFile(path.join(s.project, ADD_TEST), 'utf8');
      const [projectEntry, ...hookEntries] = s.trustStep.split(/\n(?=\[hooks\.state\.)/);
      assert.match(projectEntry ?? '', /^\[projects\."[^"]+"\]\ntrust_level = "trusted"/);
      assert.equal(hookEntries.length, 4, s.trustStep);

      // Nothing trusted, then the project alone, then the hooks with a hash Weave did not compute: skipped.
      // Nothing trusted; the project trusted by Codex itself (`codex exec --trust` writes the project entry, not
      // the hooks'); the hook entries present with a hash Weave did not compute. Each time: no hook runs.
      const stages = [
        { stage: 'nothing trusted', flags: [], entries: '', status: /the project is not trusted/ },
        {
          stage: 'codex exec --trust',
          flags: ['--trust'],
          entries: '',
          status: /PreToolUse hook is untrusted/,
        },
        {
          stage: 'hook hashes altered',
          flags: [],
          entries: hookEntries.map((e) => e.replace(/sha256:[0-9a-f]{4}/, 'sha256:0000')).join('\n'),
          status: /PreToolUse hook is modified/,
        },
      ];
      for (const { stage, flags, entries, status: expected } of stages) {
        if (entries !== '') await trust(s, entries);
        await codex(t, s, 'rewrite the add test', PATCH_MODEL, flags);
        assert.equal(await addTest(), edited, `${stage}: Codex should have run no hook`);
        assert.doesNotMatch(sentForTurn(server, 1), /Weave guard/, stage);
        const said = await status(s);
        assert.equal(said.code, 1, `${stage}: weave guard --status must fail`);
        assert.match(said.stdout + said.stderr, expected, stage);
        gitIn(s.project, 'checkout', '-q', '--', ADD_TEST);
      }
      assert.match(
        await fs.readFile(s.configFile, 'utf8'),
        /^\[projects\."[^"]+"\]\ntrust_level = "trusted"/m,
      );

      // The trust step exactly as printed (it replaces the altered entries: TOML allows each table once).
      await fs.writeFile(s.configFile, `${baseConfig(s.project, server.baseURL)}\n${s.trustStep}\n`);
      const ok = await status(s);
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      await codex(t, s, 'rewrite the add test');
      assert.equal(await addTest(), original);
      assert.match(sentForTurn(server, 1), BLOCKED); // the apply_patch
      assert.match(sentForTurn(server, 2), BLOCKED); // the shell write after `cd test`
      assertOffline(server);
    } finally {
      await server.close();
    }
  });

  test("a source edit is allowed; the Stop hook's report of a broken spec reaches the model", async (t) => {
    const patch = (from: string, to: string) =>
      `*** Begin Patch\n*** Update File: index.js\n@@\n-  ${from}\n+  ${to}\n*** End Patch\n`;
    const server = await startScriptedResponsesServer(MARKER, [
      { patch: patch('return b - a; // the bug the failing spec reports', 'return a - b;') },
      { patch: patch('return a + b;', 'return a * b;') },
      { text: 'done' },
      { patch: patch('return a * b;', 'return a + b;') },
      { text: 'fixed' },
    ]);
    try {
      const s = await session(server);
      await trust(s, s.trustStep);
      await codex(t, s, 'fix sub');
      assert.equal(
        await fs.readFile(path.join(s.project, 'index.js'), 'utf8'),
        INDEX_JS.replace('return b - a; // the bug the failing spec reports', 'return a - b;'),
      );
      assert.doesNotMatch(sentForTurn(server, 1), /Weave guard blocked/);
      assert.doesNotMatch(sentForTurn(server, 2), /affected by your changes are broken/);
      const afterStop = sentForTurn(server, 3);
      assert.match(afterStop, /Weave: 1 spec\(s\) affected by your changes are broken/);
      assert.match(afterStop, /- add-works: fail/);
      assertOffline(server);
    } finally {
      await server.close();
    }
  });

  test('weave_check runs through the MCP server and its result reaches the model', async (t) => {
    const server = await startScriptedResponsesServer(MARKER, [
      { tool: 'weave_check', namespace: 'mcp__weave', input: {} },
      { text: 'done' },
    ]);
    try {
      const s = await session(server);
      await trust(s, s.trustStep);
      const run = await codex(t, s, 'check the specs', MCP_MODEL);
      const result = sentForTurn(server, 1);
      // Codex hands the model the structuredContent: the summary first, then the verdicts.
      assert.ok(
        /2 specs: 1 pass, 1 fail/.test(result),
        `${result.slice(-1500)}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`,
      );
      assert.match(result, /sub-works/);
      assert.ok((await fs.readdir(path.join(s.project, '.weave/runs'))).length > 0, 'no run was recorded');
      assertOffline(server);
    } finally {
      await server.close();
    }
  });
});
