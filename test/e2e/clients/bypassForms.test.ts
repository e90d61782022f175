// Issue #36's bypass forms through the real clients (pinned in agentClients.ts), one scripted session per client
// issuing every form as its own tool call, each aimed at its own spec test file (test/support/bypassForms.ts). For
// each form: either the guard refused it before it ran (the tool result the model got says so, and its file is
// untouched at Stop) or it reached its file and the Stop hook of the same session listed that file; then
// `weave guard --restore` (Claude Code: the model runs it after the Stop message; Codex: the person, after the
// session) and every form's file is byte-identical to the original. A control session
// without hooks runs the same forms and every file changes, so each assertion above can fail.
// Claude Code runs all the shell forms; Codex runs its apply_patch forms and a representative subset of the shell
// forms (client runs are slow). Which forms were refused and which were caught is printed (t.diagnostic) for
// docs/session-backstop.md's table.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import {
  agentCli,
  CLAUDE_CODE_VERSION,
  CODEX_VERSION,
  type ClientRun,
  makeGuardedProject,
  offlineEnv,
  runClient,
  tempFolder,
} from '../../support/agentClients';
import {
  addEvilBranches,
  addForms,
  formFile,
  listedChanges,
  originalTest,
  patchFor,
  SHELL_FORMS,
  startEvilServer,
} from '../../support/bypassForms';
import { gitIn } from '../../support/gitRepo';
import type { ModelServer, ModelTurn } from '../../support/modelTurns';
import { CLI } from '../../support/paths';
import { type RefusingProxy, startRefusingProxy } from '../../support/refusingProxy';
import { type MessagesRequestBody, startScriptedMessagesServer } from '../../support/scriptedMessagesServer';
import {
  type ResponsesRequestBody,
  startScriptedResponsesServer,
} from '../../support/scriptedResponsesServer';

const MARKER = 'WEAVE-CLIENT-TEST';
const BLOCKED = /Weave guard blocked this/;
/** A session of some 25 tool calls, each through a hook process, on a loaded machine: a safety net only. */
const SESSION_LIMIT_MS = 900_000;
const RESTORE = 'node node_modules/weave/dist/cli.js guard --restore';
let proxy: RefusingProxy;
let evil: { port: number; close(): Promise<void> };
const cleanup: string[] = [];

before(async () => {
  proxy = await startRefusingProxy();
  evil = await startEvilServer();
});
after(async () => {
  await proxy.close();
  await evil.close();
  for (const dir of cleanup) await fs.rm(dir, { recursive: true, force: true });
});

/** One form as the model issues it: its file, and the tool call. */
interface Step {
  name: string;
  turn: ModelTurn;
}

interface Outcome {
  blocked: string[];
  caught: string[];
}

/**
 * Per form: refused before it ran (the answer to its turn says so for its turn, and Stop does not list its file) or caught at
 * Stop (listed). Returns which was which.
 */
function judge(steps: readonly Step[], answerTo: (turn: number) => string, stop: string): Outcome {
  const listed = listedChanges(stop);
  const outcome: Outcome = { blocked: [], caught: [] };
  steps.forEach((step, turn) => {
    const answer = answerTo(turn);
    const blocked = BLOCKED.test(answer);
    const caught = listed.has(formFile(step.name));
    assert.ok(
      blocked !== caught,
      `${step.name}: ${blocked ? 'refused by the guard, yet its file changed' : 'neither refused nor caught at Stop'}` +
        ` (the tool's answer: ${answer.slice(0, 600)})`,
    );
    (blocked ? outcome.blocked : outcome.caught).push(step.name);
  });
  return outcome;
}

async function assertAllOriginal(project: string, steps: readonly Step[]): Promise<void> {
  for (const { name } of steps)
    assert.equal(await fs.readFile(path.join(project, formFile(name)), 'utf8'), originalTest(name), name);
}

async function assertAllChanged(
  project: string,
  steps: readonly Step[],
  answerTo: (turn: number) => string,
): Promise<void> {
  const unchanged: string[] = [];
  for (const [turn, { name }] of steps.entries()) {
    const now = await fs.readFile(path.join(project, formFile(name)), 'utf8').catch(() => '(missing)');
    if (now === originalTest(name)) unchanged.push(`${name}: ${answerTo(turn).slice(0, 400)}`);
  }
  assert.deepEqual(unchanged, [], 'without hooks every form should change its test file');
}

function assertOffline(server: ModelServer): void {
  assert.deepEqual(proxy.attempts, [], 'the client tried to leave 127.0.0.1');
  assert.deepEqual(
    server.unscripted().map((r) => r.turn),
    [],
    'the client asked for more turns than scripted',
  );
}

function request(server: ModelServer, turn: number): unknown {
  const found = server.requests.findLast((r) => r.turn === turn);
  assert.ok(found, `the client never asked for turn ${turn}`);
  return found.body;
}

// ————— Claude Code —————

function claudeSteps(port: number): Step[] {
  return SHELL_FORMS.map((form) => ({
    name: form.name,
    turn: { tool: 'Bash', input: { command: form.command(port), description: form.name } },
  }));
}

async function claudeProject(guarded: boolean, server: ModelServer, names: string[]) {
  const project = await makeGuardedProject();
  const home = await tempFolder('weave-claude-home-');
  cleanup.push(project, home);
  await addForms(project, names);
  const env = {
    ...offlineEnv(home, proxy.url),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    ANTHROPIC_BASE_URL: server.baseURL,
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
    gitIn(project, 'add', '-A');
    gitIn(project, 'commit', '-q', '-m', 'weave guard');
  }
  await addEvilBranches(project, SHELL_FORMS);
  return { project, env };
}

async function claude(t: TestContext, project: string, env: Record<string, string>): Promise<ClientRun> {
  const run = await runClient(
    agentCli('claude'),
    [
      '-p',
      `${MARKER} run the forms`,
      '--output-format',
      'stream-json',
      '--verbose',
      '--allowedTools',
      'Bash',
    ],
    project,
    env,
    SESSION_LIMIT_MS,
  );
  t.diagnostic(`claude ${CLAUDE_CODE_VERSION}: ${run.ms} ms, exit ${run.code}`);
  assert.equal(run.code, 0, `claude failed:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`);
  return run;
}

/** The message that answered turn `turn` (the tool result of that turn's call, or the Stop hook's feedback). */
function claudeAnswerTo(server: ModelServer, turn: number): string {
  const messages = (request(server, turn + 1) as MessagesRequestBody).messages ?? [];
  // Everything after the model's own last message: the tool result, hook feedback, and any note Claude Code adds.
  const last = messages.findLastIndex((m) => m.role === 'assistant');
  return JSON.stringify(messages.slice(last + 1));
}

describe(`Claude Code ${CLAUDE_CODE_VERSION}: every shell form of #36`, () => {
  test(
    'each form is refused before it runs or caught at Stop, and --restore puts every test back',
    { timeout: SESSION_LIMIT_MS },
    async (t) => {
      const steps = claudeSteps(evil.port);
      const done = steps.length;
      const server = await startScriptedMessagesServer(MARKER, [
        ...steps.map((s) => s.turn),
        { text: 'done' },
        { tool: 'Bash', input: { command: RESTORE, description: 'restore' } },
        { text: 'restored' },
      ]);
      try {
        const { project, env } = await claudeProject(
          true,
          server,
          steps.map((s) => s.name),
        );
        await claude(t, project, env);
        const stop = claudeAnswerTo(server, done);
        assert.match(stop, /protected files changed since this agent session started/);
        const outcome = judge(steps, (turn) => claudeAnswerTo(server, turn), stop);
        t.diagnostic(`refused before running: ${outcome.blocked.join(', ')}`);
        t.diagnostic(`caught at Stop: ${outcome.caught.join(', ')}`);
        assert.match(claudeAnswerTo(server, done + 1), /restored \d+ protected file/);
        await assertAllOriginal(project, steps);
        assertOffline(server);
      } finally {
        await server.close();
      }
    },
  );

  test('control: without hooks every form changes its test', { timeout: SESSION_LIMIT_MS }, async (t) => {
    const steps = claudeSteps(evil.port);
    const server = await startScriptedMessagesServer(MARKER, [...steps.map((s) => s.turn), { text: 'done' }]);
    try {
      const { project, env } = await claudeProject(
        false,
        server,
        steps.map((s) => s.name),
      );
      await claude(t, project, env);
      await assertAllChanged(project, steps, (turn) => claudeAnswerTo(server, turn));
      assertOffline(server);
    } finally {
      await server.close();
    }
  });
});

// ————— Codex —————

/** Codex's apply_patch forms and a representative subset of the shell forms. */
const CODEX_SHELL = ['reset-hard', 'perl-0pi', 'ansi-c', 'base64-sh', 'bash-env'];

function codexSteps(port: number): Step[] {
  const heredoc = `apply_patch <<'EOF'\n${patchFor('patch-heredoc')}\nEOF`;
  return [
    // The shell forms first: `git reset --hard` discards every change made before it.
    ...SHELL_FORMS.filter((f) => CODEX_SHELL.includes(f.name)).map((form) => ({
      name: form.name,
      turn: { tool: 'exec_command', input: { cmd: form.command(port) } } as ModelTurn,
    })),
    // Codex runs a heredoc apply_patch itself (its hook says tool_name "Bash").
    { name: 'patch-heredoc', turn: { tool: 'exec_command', input: { cmd: heredoc } } },
    // Piped in, and as an argument: Codex's `apply_patch` program on the shell's PATH. `login: false` keeps that
    // PATH (a login shell rereads /etc/profile, which drops Codex's folder for it on Debian).
    {
      name: 'patch-stdin',
      turn: {
        tool: 'exec_command',
        input: { cmd: `printf '%s\\n' "${patchFor('patch-stdin')}" | apply_patch`, login: false },
      },
    },
    {
      name: 'patch-arg',
      turn: { tool: 'exec_command', input: { cmd: `apply_patch "${patchFor('patch-arg')}"`, login: false } },
    },
  ];
}

/** The array form: Codex 0.171 offers no `shell` tool to these models and answers "unsupported call: shell". */
const ARRAY_TURN: ModelTurn = { tool: 'shell', input: { command: ['apply_patch', patchFor('patch-array')] } };

function codexConfig(baseURL: string): string {
  return `model = "gpt-5.5"
model_provider = "scripted"
check_for_update_on_startup = false

[analytics]
enabled = false

[feedback]
enabled = false

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
`;
}

async function codexProject(guarded: boolean, server: ModelServer, names: string[]) {
  const project = await makeGuardedProject();
  const home = await tempFolder('weave-codex-home-');
  cleanup.push(project, home);
  await addForms(project, names);
  const codexHome = path.join(home, '.codex');
  // Codex makes its apply_patch program in a folder it refuses to put under the temporary folder; the home is in
  // one here, so the temporary folder moves beside it.
  const tmp = path.join(home, 'tmp');
  await fs.mkdir(codexHome);
  await fs.mkdir(tmp);
  const configFile = path.join(codexHome, 'config.toml');
  await fs.writeFile(configFile, codexConfig(server.baseURL));
  const env = {
    ...offlineEnv(home, proxy.url),
    CODEX_HOME: codexHome,
    TMPDIR: tmp,
    WEAVE_TEST_MODEL_KEY: 'offline-test',
  };
  if (guarded) {
    const install = await runClient(
      process.execPath,
      [CLI, 'guard', '--install', 'codex', '--workspace', project],
      project,
      env,
    );
    assert.equal(install.code, 0, install.stderr);
    const step = /config\.toml:\n\n([\s\S]*?)\nThen check with/.exec(install.stdout)?.[1];
    assert.ok(step, install.stdout);
    await fs.appendFile(configFile, `\n${step}\n`);
    gitIn(project, 'add', '-A');
    gitIn(project, 'commit', '-q', '-m', 'weave guard');
  }
  await addEvilBranches(
    project,
    SHELL_FORMS.filter((f) => CODEX_SHELL.includes(f.name)),
  );
  return { project, env };
}

async function codex(t: TestContext, project: string, env: Record<string, string>): Promise<ClientRun> {
  const run = await runClient(
    agentCli('codex'),
    ['exec', '--json', '-s', 'danger-full-access', '-m', 'gpt-5.5', `${MARKER} run the forms`],
    project,
    env,
    SESSION_LIMIT_MS,
  );
  t.diagnostic(`codex ${CODEX_VERSION}: ${run.ms} ms, exit ${run.code}`);
  assert.equal(run.code, 0, `codex failed:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`);
  return run;
}

/** What answered turn `turn`: the items after the model's last one in the next request (tool output, hook text). */
function codexAnswerTo(server: ModelServer, turn: number): string {
  const input = (request(server, turn + 1) as ResponsesRequestBody).input ?? [];
  const last = input.findLastIndex(
    (i) =>
      i.type === 'function_call' ||
      i.type === 'custom_tool_call' ||
      (i.type === 'message' && i.role === 'assistant'),
  );
  return JSON.stringify(input.slice(last + 1));
}

describe(`Codex ${CODEX_VERSION}: apply_patch in every form and a subset of the shell forms`, () => {
  test(
    'each form is refused before it runs or caught at Stop, and --restore puts every test back',
    { timeout: SESSION_LIMIT_MS },
    async (t) => {
      const steps = codexSteps(evil.port);
      const names = [...steps.map((s) => s.name), 'patch-array'];
      const server = await startScriptedResponsesServer(MARKER, [
        ...steps.map((s) => s.turn),
        ARRAY_TURN,
        { text: 'done' },
        // Told to restore, the model stops (its second Stop is let through): the person restores, as the Stop
        // message says. (Run by the model, Codex's exec_command returns after 10 s with the restore still running
        // on a loaded machine, and the test would race it.)
        { text: 'leaving the tests to you' },
      ]);
      try {
        const { project, env } = await codexProject(true, server, names);
        await codex(t, project, env);
        const done = steps.length + 1;
        assert.match(codexAnswerTo(server, steps.length), /unsupported call: shell/);
        const stop = codexAnswerTo(server, done);
        assert.match(stop, /protected files changed since this agent session started/);
        const outcome = judge(steps, (turn) => codexAnswerTo(server, turn), stop);
        t.diagnostic(`refused before running: ${outcome.blocked.join(', ')}`);
        t.diagnostic(`caught at Stop: ${outcome.caught.join(', ')}`);
        // Every apply_patch form is refused early.
        assert.deepEqual(
          outcome.blocked.filter((n) => n.startsWith('patch-')),
          ['patch-heredoc', 'patch-stdin', 'patch-arg'],
        );
        const restored = await runClient(
          process.execPath,
          [CLI, 'guard', '--restore', '--workspace', project],
          project,
          env,
        );
        assert.equal(restored.code, 0, restored.stderr);
        assert.match(restored.stdout, new RegExp(`restored ${outcome.caught.length} protected file`));
        await assertAllOriginal(project, [...steps, { name: 'patch-array', turn: ARRAY_TURN }]);
        assertOffline(server);
      } finally {
        await server.close();
      }
    },
  );

  test(
    'control: without hooks every form changes its test (the array form cannot run)',
    { timeout: SESSION_LIMIT_MS },
    async (t) => {
      const steps = codexSteps(evil.port);
      const server = await startScriptedResponsesServer(MARKER, [
        ...steps.map((s) => s.turn),
        ARRAY_TURN,
        { text: 'done' },
      ]);
      try {
        const { project, env } = await codexProject(false, server, [
          ...steps.map((s) => s.name),
          'patch-array',
        ]);
        await codex(t, project, env);
        await assertAllChanged(project, steps, (turn) => codexAnswerTo(server, turn));
        assert.equal(
          await fs.readFile(path.join(project, formFile('patch-array')), 'utf8'),
          originalTest('patch-array'),
          'Codex ran an apply_patch given as an array: the hook-level rows of guard.test.ts no longer suffice',
        );
        assertOffline(server);
      } finally {
        await server.close();
      }
    },
  );
});
