// `weave agent` stopped from outside mid-run (#9): while the model is still answering, and while a spec test
// the model asked for is running in the sandbox. Either way the run cleans up before it exits: the model
// request is dropped, every spec process dies, the scratch checkout and temp folders are gone, and the exit
// code says which signal stopped it.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { promises as fs } from 'node:fs';
import { makeRepo } from '../../support/gitRepo';
import { until } from '../../support/polling';
import { everyConversation, startScriptedServer, type ScriptStep } from '../../support/scriptedOpenAiServer';
import * as stop from '../stopSignals';

const cleanup: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** A committed workspace whose one spec passes at once, unless go.txt exists: then it runs `sleep`. */
async function workspace(sleep: string): Promise<string> {
  const specs = {
    version: 1,
    specs: [
      {
        id: 'waits-when-asked',
        title: 'Waits when asked',
        kind: 'functional',
        statement: 'Runs until stopped once go.txt exists.',
        test: { command: `if test -f go.txt; then ${sleep}; fi` },
      },
    ],
  };
  const repo = await makeRepo({ '.weave/specs.json': JSON.stringify(specs, null, 2), 'README.md': 'x\n' });
  cleanup.push(() => fs.rm(repo, { recursive: true, force: true }));
  return repo;
}

async function stopAgentRun(
  steps: ScriptStep[],
  signals: readonly [stop.StopSignal, ...stop.StopSignal[]],
  midFlight: (ctx: { chatRequests(): number; sleep: string; run: stop.RunningWeave }) => Promise<void>,
): Promise<void> {
  const sleep = stop.uniqueSleep();
  const repo = await workspace(sleep);
  const server = await startScriptedServer({ scripts: [everyConversation(steps)] });
  cleanup.push(() => server.close());
  const tmp = stop.privateTempDir();
  cleanup.push(() => tmp.remove());
  const run = stop.startWeave(
    repo,
    ['agent', '--all', '--no-review', '--base-url', server.baseURL, '--model', 'm'],
    { TMPDIR: tmp.dir, WEAVE_API_KEY: '', OPENAI_API_KEY: '' },
  );
  await midFlight({ chatRequests: () => server.chatRequests().length, sleep, run });
  assert.notDeepEqual(tmp.leftovers(), [], 'mid-run, the scratch checkout is in the run’s own temp folder');
  await stop.assertStopsCleanly(run, signals, { sleep, tmp, repo });
  assert.match(run.stderr(), /weave agent: cancelling \(stopping the model, removing checkouts\)/);
  await until('the model request to be dropped', () => server.openSockets() === 0, 10_000);
}

describe('weave agent: stopped by a signal', () => {
  it('SIGINT while the model is answering: the request is dropped, nothing is left, exit 130', async () => {
    await stopAgentRun([{ kind: 'hold' }], ['SIGINT'], async ({ chatRequests, run }) => {
      await until('the agent to ask the model', () => {
        if (run.child.exitCode !== null) throw new Error(`weave agent ended early:\n${run.stderr()}`);
        return chatRequests() > 0;
      });
    });
  });

  for (const signals of [['SIGTERM'], ['SIGHUP', 'SIGINT']] as const) {
    it(`${signals.join(' then ')} while a spec test the model asked for runs: it dies, nothing is left`, async () => {
      const steps: ScriptStep[] = [
        {
          kind: 'tools',
          calls: [
            { name: 'create_file', arguments: { path: 'go.txt', content: 'go\n' } },
            { name: 'run_specs', arguments: {} },
          ],
        },
        { kind: 'hold' },
      ];
      await stopAgentRun(steps, signals, ({ sleep, run }) => stop.untilRunning(sleep, run));
    });
  }
});
