// Every verb's exit codes are what its --help says they are. The test walks the verb table (src/cli/verbs.ts):
// each verb's --help has an "Exit codes:" paragraph; every code it names has a way to provoke it in PROVOKE below,
// and every code in PROVOKE is named by the help. A provocation either runs here (the built CLI on a small
// workspace, the scripted model server on 127.0.0.1, a closed loopback port) or, where it needs a whole export,
// audit or bench run, names the e2e test file that provokes it (that file must exist; it runs in this layer).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { verbs } from '../../../src/cli/verbs';
import { CLI, REPO_ROOT } from '../../support/paths';
import { git, writeFiles } from '../../support/repos';
import { startScriptedServer, type ScriptedServer } from '../../support/scriptedOpenAiServer';
import { finishOnlySteps } from '../agent/demoScripts';
import { API_KEY } from '../agent/harness';

interface Run {
  args: (w: Workspaces) => string[];
  stdin?: (w: Workspaces) => string;
}
/**
 * A run here; or the e2e test file that provokes the code through the CLI; or, said openly, a code no test
 * provokes yet (each is listed in the report of issue #38).
 */
type Provocation = Run | { provokedIn: string } | { notYet: string };

interface Workspaces {
  empty: string;
  passing: string;
  failing: string;
  badSpecs: string;
  /** A git repository whose spec passed at the baseline run and fails after an uncommitted edit. */
  broken: string;
  /** Specs whose tests catch a change to the code they anchor (audit: not vacuous) and one whose test does not. */
  audited: string;
  vacuous: string;
  closedUrl: string;
  server: ScriptedServer;
}

const specFile = (command: string) =>
  JSON.stringify({
    version: 1,
    goal: 'exit codes',
    specs: [
      { id: 'only', title: 'the only spec', kind: 'functional', statement: 'it holds', test: { command } },
    ],
  });

const anchoredSpecFile = (command: string) =>
  JSON.stringify({
    version: 1,
    goal: 'exit codes',
    specs: [
      {
        id: 'adds',
        title: 'adds',
        kind: 'functional',
        statement: 'add adds',
        test: { command },
        anchors: ['src/add.js'],
      },
    ],
  });

const STATE_TEST = `const assert = require('node:assert');
const fs = require('node:fs');
require('node:test')('state.txt is good', () => assert.equal(fs.readFileSync('state.txt', 'utf8').trim(), 'good'));
`;

const ADD = 'module.exports = function add(a, b) {\n  return a + b;\n};\n';

const BAD_FLAG: Run = { args: () => ['--no-such-flag'] };
const PRE_TOOL = (dir: string, file: string) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    cwd: dir,
    tool_name: 'Write',
    tool_input: { file_path: path.join(dir, file), content: 'x' },
  });

const PROVOKE: Record<string, Record<number, Provocation>> = {
  init: {
    0: { args: (w) => ['--workspace', w.empty] },
    1: { args: (w) => ['--workspace', w.passing] },
    2: BAD_FLAG,
  },
  validate: {
    0: { args: (w) => ['--workspace', w.passing] },
    2: { args: (w) => ['--workspace', w.badSpecs] },
  },
  check: {
    0: { args: (w) => ['--workspace', w.passing] },
    1: { args: (w) => ['--workspace', w.failing] },
    2: { args: (w) => ['--workspace', w.badSpecs] },
  },
  index: {
    0: { args: (w) => ['--workspace', w.passing] },
    1: { notYet: 'an index that fails (the workers crash or the cache cannot be written) is not provoked' },
    2: BAD_FLAG,
  },
  affected: {
    0: { args: (w) => ['--workspace', w.broken] },
    2: { args: (w) => ['--workspace', w.badSpecs] },
  },
  graph: { 0: { args: (w) => ['--workspace', w.passing] }, 2: { args: (w) => ['--workspace', w.badSpecs] } },
  blame: {
    0: { args: (w) => ['only', '--workspace', w.broken] },
    1: { args: (w) => ['adds', '--baseline-ref', 'HEAD', '--workspace', w.audited] },
    2: { args: (w) => ['no-such-spec', '--workspace', w.broken] },
  },
  agent: {
    0: {
      args: (w) => [
        '--all',
        '--no-review',
        '--model',
        'm',
        '--base-url',
        w.server.baseURL,
        '--workspace',
        w.broken,
      ],
    },
    1: { args: (w) => ['--all', '--model', 'm', '--base-url', w.closedUrl, '--workspace', w.broken] },
    2: BAD_FLAG,
  },
  export: {
    0: { provokedIn: 'test/e2e/tasks/stop.test.ts' },
    1: { notYet: 'a task that does not verify, through the CLI' },
    2: { args: (w) => ['--workspace', w.passing] },
  },
  eval: {
    0: { notYet: 'a scored task through the CLI (the eval tests call the core)' },
    1: { notYet: 'an instance error through the CLI (the eval tests call the core)' },
    2: { args: (w) => ['--tasks', path.join(w.empty, 'no-such-task'), '--gold'] },
  },
  mcp: { 0: { args: (w) => ['--workspace', w.passing], stdin: () => '' }, 2: BAD_FLAG },
  guard: {
    0: { args: (w) => ['--workspace', w.passing], stdin: (w) => PRE_TOOL(w.passing, 'src/app.js') },
    1: { args: (w) => ['--workspace', w.passing], stdin: () => 'not json' },
    2: { args: (w) => ['--workspace', w.passing], stdin: (w) => PRE_TOOL(w.passing, '.weave/specs.json') },
  },
  audit: {
    0: { args: (w) => ['--workspace', w.audited] },
    1: { args: (w) => ['--workspace', w.vacuous] },
    2: BAD_FLAG,
    129: {
      notYet:
        'audit stopped by SIGHUP (check, agent, export and eval have stop tests: test/e2e/stopSignals.ts)',
    },
    130: { notYet: 'audit stopped by SIGINT' },
    143: { notYet: 'audit stopped by SIGTERM' },
  },
  draft: {
    0: { provokedIn: 'test/e2e/audit/cli.test.ts' },
    1: { args: (w) => ['--model', 'm', '--base-url', w.closedUrl, '--workspace', w.passing] },
    2: BAD_FLAG,
  },
  mine: {
    0: { provokedIn: 'test/e2e/mine/mineDataset.test.ts' },
    1: { notYet: 'weave mine stopped mid-run (its kill test sends SIGKILL, which has no exit code)' },
    2: BAD_FLAG,
  },
  bench: {
    0: { notYet: 'a bench run through the CLI that exits 0 (benchRun.test.ts runs it for its output)' },
    2: BAD_FLAG,
  },
};

/** The codes an "Exit codes: …" paragraph names: every number standing alone before a word or a comma. */
function helpExitCodes(help: string): number[] {
  const start = help.indexOf('Exit codes:');
  if (start === -1) return [];
  const paragraph = help.slice(start).split(/\n\s*\n/)[0] ?? '';
  const codes = [...paragraph.matchAll(/(?<![\w.-])(\d{1,3})(?= [a-z]|,| or|\.(?:\s|$))/g)].map((m) =>
    Number(m[1]),
  );
  return [...new Set(codes)].sort((a, b) => a - b);
}

function weave(
  verb: string,
  args: string[],
  stdin: string | undefined,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(OPENAI_|WEAVE_)/.test(k)),
    ) as NodeJS.ProcessEnv;
    const child = spawn(process.execPath, [CLI, verb, ...args], { env: { ...env, OPENAI_API_KEY: API_KEY } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.stdin.end(stdin ?? '');
    child.on('close', (code) => resolve({ code, out }));
  });
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-exit-codes-'));
let w: Workspaces;

before(async () => {
  const dir = (name: string, files: Record<string, string>): string => {
    const d = path.join(root, name);
    fs.mkdirSync(d, { recursive: true });
    writeFiles(d, files);
    return d;
  };
  const gitWorkspace = async (name: string, files: Record<string, string>): Promise<string> => {
    const d = dir(name, files);
    git(d, 'init', '-q');
    git(d, 'add', '-A');
    git(d, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', name);
    return Promise.resolve(d);
  };
  // A node:test test: inside the agent's sandbox a pass counts only with the runner's own evidence.
  const broken = dir('broken', {
    '.weave/specs.json': specFile('node --test test/state.test.js'),
    'test/state.test.js': STATE_TEST,
    'state.txt': 'good\n',
    'src/app.js': 'module.exports = 1;\n',
  });
  git(broken, 'init', '-q');
  git(broken, 'add', '-A');
  git(broken, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'good');
  // The baseline: a check on the clean tree.
  assert.equal((await weave('check', ['--workspace', broken], undefined)).code, 0);
  fs.writeFileSync(path.join(broken, 'state.txt'), 'bad\n');
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  w = {
    empty: dir('empty', {}),
    passing: dir('passing', { '.weave/specs.json': specFile('true'), 'src/app.js': 'module.exports = 1;\n' }),
    failing: dir('failing', { '.weave/specs.json': specFile('false') }),
    badSpecs: dir('bad-specs', { '.weave/specs.json': '{ "version": 1, "specs": [ }' }),
    broken,
    audited: await gitWorkspace('audited', {
      '.weave/specs.json': anchoredSpecFile('node --test test/add.test.js'),
      'test/add.test.js': `require('node:test')('adds', () => require('node:assert').equal(require('../src/add.js')(2, 3), 5));\n`,
      'src/add.js': ADD,
    }),
    vacuous: await gitWorkspace('vacuous', {
      '.weave/specs.json': anchoredSpecFile('node --test test/add.test.js'),
      'test/add.test.js': `require('node:test')('asserts nothing', () => {});\n`,
      'src/add.js': ADD,
    }),
    closedUrl: `http://127.0.0.1:${port}/v1`,
    // The agent's model: it puts state.txt right and calls finish.
    server: await startScriptedServer({
      apiKey: API_KEY,
      scripts: [
        {
          matches: () => true,
          steps: [
            {
              kind: 'tools',
              calls: [{ name: 'edit', arguments: { path: 'state.txt', search: 'bad', replace: 'good' } }],
            },
            ...finishOnlySteps('state.txt is good again'),
          ],
        },
      ],
    }),
  };
});

after(async () => {
  await w?.server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('every verb’s exit codes, as its --help states them', () => {
  for (const verb of verbs) {
    test(`weave ${verb.name}`, async () => {
      const help = await weave(verb.name, ['--help'], undefined);
      assert.equal(help.code, 0, help.out);
      const stated = helpExitCodes(help.out);
      assert.ok(stated.length > 0, `weave ${verb.name} --help has no "Exit codes:" paragraph`);
      const table = PROVOKE[verb.name] ?? {};
      assert.deepEqual(
        Object.keys(table).map(Number),
        stated,
        `weave ${verb.name}: the codes --help states, and the ones this test provokes`,
      );
      for (const [code, how] of Object.entries(table)) {
        if ('notYet' in how) continue;
        if ('provokedIn' in how) {
          assert.ok(
            fs.existsSync(path.join(REPO_ROOT, how.provokedIn)),
            `${verb.name} ${code}: ${how.provokedIn}`,
          );
          continue;
        }
        const args = how.args(w);
        const run = await weave(verb.name, args, how.stdin?.(w));
        assert.equal(run.code, Number(code), `weave ${verb.name} ${args.join(' ')}\n${run.out}`);
      }
    });
  }
});
