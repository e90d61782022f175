// The real Claude Code CLI (pinned in agentClients.ts, installed by test/vscode/install-tools.sh) driven offline by
// a scripted Anthropic Messages server on 127.0.0.1, with Weave set up as the README says: `weave guard --install
// claude-code` (hooks in .claude/settings.json) and `claude mcp add weave -- npx weave mcp --workspace .`. What the
// model is sent back is read from the requests the CLI made, so each assertion is about what crossed the wire.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import {
  agentCli,
  CLAUDE_CODE_VERSION,
  type ClientRun,
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
import { type MessagesRequestBody, startScriptedMessagesServer } from '../../support/scriptedMessagesServer';

const MARKER = 'WEAVE-CLIENT-TEST';
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
  env: Record<string, string>;
}

/** A project with Weave in node_modules; `guarded` also installs the hooks and the MCP server as documented. */
async function session(guarded: boolean, server?: ModelServer): Promise<Session> {
  const project = await makeGuardedProject();
  const home = await tempFolder('weave-claude-home-');
  cleanup.push(project, home);
  const env = {
    ...offlineEnv(home, proxy.url),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    ANTHROPIC_BASE_URL: server?.baseURL ?? 'http://127.0.0.1:9',
    ANTHROPIC_API_KEY: 'sk-ant-offline-test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
  if (guarded) {
    const install = await runClient(
      process.execPath,
      [CLI, 'guard', '--install', 'claude-code', '--workspace', project],
      project,
      env,
    );
    assert.equal(install.code, 0, install.stderr);
    const add = await runClient(
      agentCli('claude'),
      ['mcp', 'add', 'weave', '--', 'npx', 'weave', 'mcp', '--workspace', '.'],
      project,
      env,
    );
    assert.equal(add.code, 0, add.stdout + add.stderr);
    // Committed, as the README says: the Stop hook judges the session's changes since HEAD, and an uncommitted
    // settings file is a change no spec's cone traces, which selects every spec (sub-works fails from the start).
    gitIn(project, 'add', '-A');
    gitIn(project, 'commit', '-q', '-m', 'weave guard');
  }
  return { project, env };
}

async function claude(t: TestContext, s: Session, prompt: string): Promise<ClientRun> {
  const run = await runClient(
    agentCli('claude'),
    [
      '-p',
      `${MARKER} ${prompt}`,
      '--output-format',
      'stream-json',
      '--verbose',
      '--allowedTools',
      'Edit Write Bash mcp__weave',
    ],
    s.project,
    s.env,
  );
  t.diagnostic(`claude ${CLAUDE_CODE_VERSION}: ${run.ms} ms, exit ${run.code}`);
  assert.equal(run.code, 0, `claude failed:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`);
  return run;
}

/** The conversation as the model saw it on its turn `index` (the request that asked for that turn). */
function sentForTurn(server: ModelServer, index: number): string {
  const request = server.requests.find((r) => r.turn === index);
  assert.ok(request, `the client never asked for turn ${index}`);
  return JSON.stringify((request.body as MessagesRequestBody).messages);
}

function assertOffline(server: ModelServer): void {
  assert.deepEqual(proxy.attempts, [], 'the client tried to leave 127.0.0.1');
  assert.deepEqual(
    server.unscripted().map((r) => JSON.stringify((r.body as MessagesRequestBody).messages?.at(-1))),
    [],
    'the client asked for more turns than scripted (the last message it sent is shown)',
  );
}

const ADD_TEST = 'test/add.test.js';
const PROTECTED_EDITS: ModelTurn[] = [
  { tool: 'Write', input: { file_path: ADD_TEST, content: "require('node:test')('add', () => {});\n" } },
  { tool: 'Bash', input: { command: "cd test && echo '// x' > add.test.js", description: 'append' } },
  { text: 'done' },
];

describe(`Claude Code ${CLAUDE_CODE_VERSION} with Weave's guard and MCP server`, () => {
  test('a Write and a shell write of a spec test are blocked by the PreToolUse hook', async (t) => {
    const server = await startScriptedMessagesServer(MARKER, PROTECTED_EDITS);
    try {
      const s = await session(true, server);
      const before = await fs.readFile(path.join(s.project, ADD_TEST), 'utf8');
      await claude(t, s, 'rewrite the add test');
      assert.equal(await fs.readFile(path.join(s.project, ADD_TEST), 'utf8'), before);
      for (const turn of [1, 2])
        assert.match(
          sentForTurn(server, turn),
          /Weave guard blocked this: .{0,200}test\/add\.test\.js of spec add-works/,
        );
      assertOffline(server);
    } finally {
      await server.close();
    }
  });

  test('control: without the hooks, the same edits go through (the test above can fail)', async (t) => {
    const server = await startScriptedMessagesServer(MARKER, PROTECTED_EDITS);
    try {
      const s = await session(false, server);
      await claude(t, s, 'rewrite the add test');
      assert.equal(await fs.readFile(path.join(s.project, ADD_TEST), 'utf8'), '// x\n');
      assert.doesNotMatch(sentForTurn(server, 1), /Weave guard/);
      assertOffline(server);
    } finally {
      await server.close();
    }
  });

  test("a source edit is allowed; the Stop hook's report of a broken spec reaches the model", async (t) => {
    const fixSub = { old_string: 'return b - a;', new_string: 'return a - b;' };
    const breakAdd = { old_string: 'return a + b;', new_string: 'return a * b;' };
    const server = await startScriptedMessagesServer(MARKER, [
      { tool: 'Edit', input: { file_path: 'index.js', ...fixSub } },
      { tool: 'Edit', input: { file_path: 'index.js', ...breakAdd } },
      { text: 'done' },
      {
        tool: 'Edit',
        input: { file_path: 'index.js', old_string: breakAdd.new_string, new_string: breakAdd.old_string },
      },
      { text: 'fixed' },
    ]);
    try {
      const s = await session(true, server);
      await claude(t, s, 'fix sub');
      // The first edit went through; the break was reverted after the Stop hook's report.
      assert.equal(
        await fs.readFile(path.join(s.project, 'index.js'), 'utf8'),
        INDEX_JS.replace(fixSub.old_string, fixSub.new_string),
      );
      assert.doesNotMatch(sentForTurn(server, 1), /Weave guard blocked/);
      const afterStop = sentForTurn(server, 3);
      assert.match(afterStop, /Weave: 1 spec\(s\) affected by your changes are broken/);
      assert.match(afterStop, /- add-works: fail/);
      assert.doesNotMatch(sentForTurn(server, 2), /affected by your changes are broken/);
      assertOffline(server);
    } finally {
      await server.close();
    }
  });

  // A form the guard does not read (#36): inline code writing to a path it gets as a plain argument (the guard reads
  // the code's own strings, not what it does with its arguments: treating them as written would refuse every
  // `perl -ne … FILE` read). It reaches the test file; the backstop's record, taken when the session started,
  // catches it at Stop, and the agent puts it back with --restore. (The guard now refuses the earlier forms here:
  // `… | base64 -d | sh`, `perl -0pi`, and the same code given `$(ls test/add*)`.)
  const UNREADABLE = String.raw`node -e "require('fs').writeFileSync(process.argv[1], '// x\n')" test/add.test.js`;

  test('a write the guard cannot read is caught by the Stop hook and restored with weave guard --restore', async (t) => {
    const server = await startScriptedMessagesServer(MARKER, [
      { tool: 'Bash', input: { command: UNREADABLE, description: 'rewrite in place' } },
      { text: 'done' },
      {
        tool: 'Bash',
        input: { command: 'node node_modules/weave/dist/cli.js guard --restore', description: 'restore' },
      },
      { text: 'restored' },
    ]);
    try {
      const s = await session(true, server);
      const before = await fs.readFile(path.join(s.project, ADD_TEST), 'utf8');
      await claude(t, s, 'rewrite the add test');
      const afterStop = sentForTurn(server, 2);
      assert.match(afterStop, /protected files changed since this agent session started/);
      assert.match(afterStop, /test\/add\.test\.js \(changed\)/);
      assert.match(afterStop, /weave guard --restore/);
      assert.match(sentForTurn(server, 3), /restored 1 protected file/);
      assert.equal(await fs.readFile(path.join(s.project, ADD_TEST), 'utf8'), before);
      assertOffline(server);
    } finally {
      await server.close();
    }
  });

  test('control: without the hooks, the unreadable write changes the test and nothing notices', async (t) => {
    const server = await startScriptedMessagesServer(MARKER, [
      { tool: 'Bash', input: { command: UNREADABLE, description: 'rewrite in place' } },
      { text: 'done' },
    ]);
    try {
      const s = await session(false, server);
      await claude(t, s, 'rewrite the add test');
      assert.equal(await fs.readFile(path.join(s.project, ADD_TEST), 'utf8'), '// x\n');
      assertOffline(server);
    } finally {
      await server.close();
    }
  });

  test('weave_check runs through the MCP server and its result reaches the model', async (t) => {
    const server = await startScriptedMessagesServer(MARKER, [
      { tool: 'mcp__weave__weave_check', input: {} },
      { text: 'done' },
    ]);
    try {
      const s = await session(true, server);
      await claude(t, s, 'check the specs');
      const result = sentForTurn(server, 1);
      // Claude Code hands the model the structuredContent: the summary first, then the verdicts.
      assert.match(result, /2 specs: 1 pass, 1 fail/);
      assert.match(result, /sub-works/);
      assert.ok((await fs.readdir(path.join(s.project, '.weave/runs'))).length > 0, 'no run was recorded');
      assertOffline(server);
    } finally {
      await server.close();
    }
  });
});
