// `weave check` end to end: spawns the built CLI (dist/cli.js) on temp workspaces and checks exit codes, the
// table, --json, --junit and --github, and that bad input gives located messages and exit 2, never a stack.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { gitIn, makeRepo, writeFiles } from '../../support/gitRepo';
import { processesRunning } from '../sandbox/processes';
import { STOP_EXIT_CODES, startWeave, stopWith, uniqueSleep, untilRunning } from '../stopSignals';

const cli = path.resolve(__dirname, '../../../../dist/cli.js');
const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

function weave(cwd: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  delete env.NODE_TEST_CONTEXT;
  delete env.GITHUB_WORKSPACE;
  const r = spawnSync(process.execPath, [cli, 'check', ...args], {
    cwd,
    encoding: 'utf8',
    env,
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function specsJson(specs: Array<{ id: string; command: string; dependsOn?: string[] }>): string {
  // Hand-written layout so the test knows the line of each spec id.
  const entries = specs.map(
    (s) =>
      `    {\n      "id": "${s.id}",\n      "title": "${s.id}",\n      "kind": "functional",\n      "statement": "x",\n` +
      `      "test": { "command": ${JSON.stringify(s.command)} },\n      "dependsOn": ${JSON.stringify(s.dependsOn ?? [])}\n    }`,
  );
  return `// specs\n{\n  "version": 1,\n  "specs": [\n${entries.join(',\n')}\n  ]\n}\n`;
}

async function workspace(specs: Parameters<typeof specsJson>[0]): Promise<string> {
  const repo = await makeRepo({ '.weave/specs.json': specsJson(specs), 'state.txt': 'good\n' });
  cleanup.push(repo);
  return repo;
}

const noStack = (text: string): void => assert.doesNotMatch(text, /\n\s+at .*:\d+:\d+/);

describe('weave check (CLI)', () => {
  it('exits 0 when every spec passes, and prints a table and a summary', async () => {
    const ws = await workspace([
      { id: 'alpha', command: 'echo "# tests 1"; echo "# pass 1"' },
      { id: 'beta', command: 'true', dependsOn: ['alpha'] },
    ]);
    const r = weave(ws);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^SPEC\s+KIND\s+VERDICT\s+VS BASELINE\s+TIME\s+REASON$/m);
    assert.match(r.stdout, /^alpha\s+functional\s+pass\s+new\s+/m);
    assert.match(r.stdout, /^2 specs: 2 pass in .*; no baseline yet/m);
    assert.match(r.stdout, /run recorded: .*\.weave\/runs\/.*\.json \(clean tree\)/);
    assert.equal(r.stderr, '', 'no progress line when CI is set');
  });

  it('says which passes rest on the exit code alone, in the table, the summary and --json', async () => {
    const ws = await workspace([
      { id: 'verified', command: 'node --test t.test.js | cat' },
      { id: 'plain', command: 'echo ok' },
    ]);
    await writeFiles(ws, { 't.test.js': "require('node:test')('t', () => {});\n" });
    const r = weave(ws, '--no-record');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^verified\s+functional\s+pass\s+new\s+[\d.]+ s$/m);
    assert.match(r.stdout, /^plain\s+functional\s+pass\s+new\s+[\d.]+ s\s+unverified: no test result seen$/m);
    assert.match(r.stdout, /^2 specs: 2 pass in [\d.]+ s \(1 pass unverified: no test result seen\);/m);
    const doc = JSON.parse(weave(ws, '--no-record', '--json').stdout) as {
      run: { results: Array<{ id: string; evidence: string; reason?: string }> };
    };
    assert.deepEqual(
      doc.run.results.map((x) => [x.id, x.evidence, x.reason]),
      [
        ['verified', 'runner', undefined],
        ['plain', 'exit-code', 'unverified: no test result seen'],
      ],
    );
  });

  it('exits 1 and reports broken against the clean baseline, with --json, --junit and --github', async () => {
    const ws = await workspace([
      { id: 'alpha', command: 'grep -q good state.txt' },
      { id: 'beta', command: 'true', dependsOn: ['alpha'] },
      { id: 'gamma', command: 'true' },
    ]);
    assert.equal(weave(ws).code, 0);
    await writeFiles(ws, { 'state.txt': 'bad\n' });

    const table = weave(ws, '--no-record');
    assert.equal(table.code, 1);
    assert.match(table.stdout, /^alpha\s+functional\s+fail\s+broken\s+/m);
    assert.match(
      table.stdout,
      /^beta\s+functional\s+blocked\s+broken\s+.*blocked by alpha \(alpha: fail\)$/m,
    );
    assert.match(table.stdout, /: 2 broken, 0 fixed/);

    const junitFile = path.join(ws, 'report.xml');
    const json = weave(ws, '--json', '--no-record', '--junit', junitFile);
    assert.equal(json.code, 1);
    const doc = JSON.parse(json.stdout) as {
      run: { results: Array<{ id: string; verdict: string }> };
      report: { PASS_TO_FAIL: string[]; PASS_TO_PASS: string[]; changes: Record<string, string> };
    };
    assert.deepEqual(doc.report.PASS_TO_FAIL, ['alpha', 'beta']);
    assert.deepEqual(doc.report.PASS_TO_PASS, ['gamma']);
    assert.deepEqual(
      doc.run.results.map((r) => r.verdict),
      ['fail', 'blocked', 'pass'],
    );
    const xml = await fs.readFile(junitFile, 'utf8');
    assert.match(xml, /<testsuites name="weave" tests="3" failures="1" errors="0" skipped="1"/);
    assert.match(
      xml,
      /<testcase classname="weave.functional" name="alpha" time="[\d.]+" file="[^"]*specs.json"><failure message="fail \[broken\]: exit code 1" type="fail"\/>/,
    );
    assert.match(
      xml,
      /name="beta"[^>]*><skipped message="blocked \[broken\]: blocked by alpha \(alpha: fail\)"\/>/,
    );

    const github = weave(ws, '--github', '--no-record');
    assert.equal(github.code, 1);
    // alpha's "id" is on line 6, column 13 of the hand-written file; beta's on line 14.
    assert.match(
      github.stdout,
      /^::error file=[^,]*specs\.json,line=6,col=13,title=weave%3A alpha broken::fail \(broken: passed in the baseline\): exit code 1$/m,
    );
    assert.match(
      github.stdout,
      /^::error file=[^,]*specs\.json,line=14,col=13,title=weave%3A beta broken::blocked/m,
    );
    assert.doesNotMatch(github.stdout, /^::\w+ .*gamma/m);
  });

  it('compares with --baseline-ref in a worktree', async () => {
    const ws = await workspace([{ id: 'alpha', command: 'grep -q good state.txt' }]);
    await writeFiles(ws, { 'state.txt': 'bad\n' });
    const r = weave(ws, '--baseline-ref', 'HEAD', '--no-record');
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^alpha\s+functional\s+fail\s+broken/m);
    assert.match(r.stdout, /vs HEAD \([0-9a-f]{10}\): 1 broken, 0 fixed/);
    assert.equal(await fs.readFile(path.join(ws, 'state.txt'), 'utf8'), 'bad\n');
    assert.equal(gitIn(ws, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 1);
  });

  it('exits 2 with located problems for a bad spec file, never a stack trace', async () => {
    const ws = await workspace([{ id: 'alpha', command: 'true' }]);
    await writeFiles(ws, {
      '.weave/specs.json': '{\n  "version": 1,\n  "specs": [ { "id": "alpha", "title": 3 } ]\n}\n',
    });
    const r = weave(ws);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /\.weave\/specs\.json:3:\d+: specs\[0\]\.title: /);
    assert.match(r.stderr, /has errors; nothing was run/);
    assert.equal(r.stdout, '');
    noStack(r.stderr);
    await fs.rm(path.join(ws, '.weave/specs.json'));
    await fs.mkdir(path.join(ws, '.weave/specs.json'));
    const dirInstead = weave(ws);
    assert.equal(dirInstead.code, 2);
    assert.match(dirInstead.stderr, /specs\.json:1:1: .*is a directory/);
    noStack(dirInstead.stderr);
  });

  it('exits 2 with a located problem for every malformed spec file fixture, running nothing', async () => {
    const fixtures = path.resolve(__dirname, '../../../../test/fixtures/specs-bad');
    const names = await fs.readdir(fixtures);
    assert.ok(names.length >= 25, `only ${names.length} fixtures`);
    for (const name of names) {
      const r = weave(process.cwd(), '--workspace', path.join(fixtures, name), '--no-record');
      assert.equal(r.code, 2, `${name}: ${r.stderr}`);
      assert.match(r.stderr, /specs\.json:\d+:\d+: /, name);
      assert.equal(r.stdout, '', name);
      noStack(r.stderr);
    }
  });

  it('exits 2 for wrong flags, unknown ids and unknown refs', async () => {
    const ws = await workspace([{ id: 'alpha', command: 'true' }]);
    const cases: Array<[string[], RegExp]> = [
      [['--frobnicate'], /weave check: Unknown option '--frobnicate'/],
      [['--concurrency', '0'], /--concurrency must be a whole number ≥ 1, got '0'/],
      [['--repeat', 'two'], /--repeat must be a whole number ≥ 1, got 'two'/],
      [['--only', 'alpha,nope'], /unknown spec id: nope/],
      [['--baseline-ref', 'no-such-ref'], /unknown git ref 'no-such-ref'/],
    ];
    for (const [args, message] of cases) {
      const r = weave(ws, ...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      noStack(r.stderr);
    }
  });

  it('stops on SIGINT (Ctrl-C): kills every test process, records nothing, exits 130', async () => {
    const sleep = uniqueSleep();
    const ws = await workspace([{ id: 'hangs', command: `${sleep} & echo $! > bg.pid; wait` }]);
    const run = startWeave(ws, ['check']);
    await untilRunning(sleep, run);
    assert.equal(await stopWith(run, ['SIGINT']), 130);
    assert.match(run.stderr(), /stopping \(killing running tests\)/);
    assert.deepEqual(processesRunning(sleep), []);
    await assert.rejects(fs.readdir(path.join(ws, '.weave/runs')), 'a cancelled run is not recorded');
  });

  for (const signals of [['SIGTERM'], ['SIGHUP'], ['SIGINT', 'SIGINT']] as const) {
    it(`stops on ${signals.join(' then ')}: every test process dies, nothing is recorded`, async () => {
      const sleep = uniqueSleep();
      const ws = await workspace([{ id: 'hangs', command: `${sleep} & echo $! > bg.pid; wait` }]);
      const run = startWeave(ws, ['check']);
      await untilRunning(sleep, run);
      // The second signal arrives while the first one's clean-up is under way: it must not cut it short.
      assert.equal(await stopWith(run, signals), STOP_EXIT_CODES[signals[0]], run.stderr());
      assert.deepEqual(processesRunning(sleep), []);
      await assert.rejects(fs.readdir(path.join(ws, '.weave/runs')), 'a stopped run is not recorded');
    });
  }

  it('a closed stdout (| head) ends quietly, without an EPIPE stack trace', async () => {
    const specs = Array.from({ length: 40 }, (_, i) => ({ id: `s${i}`, command: 'true' }));
    const ws = await workspace(specs);
    const r = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${cli}" check | true`], {
      cwd: ws,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', NODE_TEST_CONTEXT: '' },
      timeout: 120_000,
    });
    assert.doesNotMatch(r.stderr, /EPIPE|internal error/);
    noStack(r.stderr);
  });
});
