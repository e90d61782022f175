// UI end-to-end test of Weave in a real VS Code: the packaged VSIX installed into code-server (VS Code 1.139
// server + web workbench), driven like a person would through headless Debian chromium (playwright-core).
// Trusted session on a committed copy of examples/:
//   - palette "Check constraints" while the panel is open: specs show queued / running, then Problems lists the
//     violated spec and the Test Explorer shows the same verdicts (a palette check is a TestRun too);
//   - the panel: full ids, the assertion as the failure line, one Tab stop with arrow keys, an ELK graph that
//     fits the width, and its large editor view;
//   - the form: no silent anchor from unmatched text, test files from a picker (a source file a spec anchors is
//     warned of), the id rule in words, the spec written to specs.json in the file's style with comments kept,
//     then revealed in the list (a hiding filter cleared), the "Saved" note fading;
//   - one schema error in specs.json is one row in Problems (Weave's, with its field and line);
//   - a breaking edit: one toast for the newly broken spec, "Explain broken spec" puts blame at the hunk; after
//     the revert "Check affected" clears broken everywhere, and the notification center holds one Weave toast;
//   - the agent (scripted model): a result tab with real paths and Apply, Apply re-checks; the interaction
//     matrix of runs that all ran out of steps says "Inconclusive";
//   - specs.json opens as JSON with Comments, without "Comments are not permitted"; no CSP violation.
// Then an UNTRUSTED session ("New spec" opens the panel's form; nothing runs), an EMPTY folder (Init specs) and
// a generated 40-SPEC workspace (the panel at 170 px, its filter, graph sizes, Dark High Contrast, the Extensions
// page: e2ePanelAdapts.ts).
// Every step saves screenshots to test-results/ (git-ignored). The steps talk to page objects (test/vscode/pages:
// the palette, Problems, the status bar, notifications, editors, the Test Explorer and the side panel). This file
// runs them in order and counts them; the scenarios
// live in e2ePanelScenarios.ts and e2eChangeScenarios.ts (trusted session, e2eDemoSession.ts) and
// e2eRestrictedScenarios.ts (untrusted and empty folders).
// Then the comparison tab of Run N agents scrolled right (a 12-spec copy, three scripted candidates: e2eCompare.ts).
// Usage: npm run build && node out/test/vscode/e2e.js [--only adapts|panel|issue39|export|compare]   (prints "N
// passed, N failed" last; exit 1 on failure; --only adapts runs the 40-spec session alone, --only panel the demo's
// panel and form steps, --only issue39 the demo's broken-news, blame-after-reload and mid-check counts steps, --only
// export the export to a new folder typed in its box: e2eExport.ts, --only compare the comparison tab)
// Env: WEAVE_E2E_TIMEOUT_S (whole run, default 900), WEAVE_E2E_HEADED=1 (watch it, with a display).
import fs from 'node:fs';
import path from 'node:path';
import type { ScriptedServer } from '../support/scriptedOpenAiServer';
import { AGENT_STEPS, startAgentModel } from './e2eAgent';
import { changeScenarios } from './e2eChangeScenarios';
import { compareScenarios } from './e2eCompare';
import { demoSession } from './e2eDemoSession';
import { exportScenarios } from './e2eExport';
import { issue39Scenarios } from './e2eIssue39';
import { RESULTS_DIR, say, Sessions, type Outcome, type Step } from './e2eHarness';
import { panelAdaptScenarios } from './e2ePanelAdapts';
import { panelScenarios } from './e2ePanelScenarios';
import { emptyFolderScenarios, untrustedScenarios } from './e2eRestrictedScenarios';

async function main(): Promise<number> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const outcomes: Outcome[] = [];
  let sessions: Sessions | undefined;
  let model: ScriptedServer | undefined;
  const cleanup = async (): Promise<void> => {
    await sessions?.stop();
    await model?.close();
  };
  const timeoutS = Number(process.env.WEAVE_E2E_TIMEOUT_S ?? 900);
  const watchdog = setTimeout(() => {
    say(`TIMEOUT after ${timeoutS} s`);
    void cleanup().finally(() => process.exit(124));
  }, timeoutS * 1000);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  }
  const step: Step = async (name, body) => {
    const t0 = Date.now();
    try {
      await body();
      outcomes.push({ name });
      say(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      const error = e instanceof Error ? (e.message.split('\n')[0] ?? e.message) : String(e);
      outcomes.push({ name, error });
      say(`FAIL ${name}: ${error}`);
    }
  };

  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  try {
    sessions = new Sessions();
    if (only === 'adapts') await panelAdaptScenarios(sessions, step);
    else if (only === 'panel') await trustedSession(sessions, step, (started) => (model = started), false);
    else if (only === 'issue39') await issue39Scenarios(sessions, step);
    else if (only === 'export') await exportScenarios(sessions, step);
    else if (only === 'compare') await compareScenarios(sessions, step);
    else await allSessions(sessions, step, (started) => (model = started));
  } catch (e) {
    outcomes.push({ name: 'set-up', error: e instanceof Error ? e.message : String(e) });
    say(`FAIL set-up: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    clearTimeout(watchdog);
    await cleanup();
  }
  const failed = outcomes.filter((o) => o.error !== undefined).length;
  console.log(`screenshots: ${path.relative(path.dirname(RESULTS_DIR), RESULTS_DIR)}/e2e-*.png`);
  console.log(`${outcomes.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

/** Every session in order: the demo (trusted), untrusted, empty folder, then the 40-spec workspace. */
async function allSessions(
  sessions: Sessions,
  step: Step,
  modelStarted: (model: ScriptedServer) => void,
): Promise<void> {
  await trustedSession(sessions, step, modelStarted, true);
  await untrustedScenarios(sessions, step);
  await emptyFolderScenarios(sessions, step);
  await panelAdaptScenarios(sessions, step);
  await issue39Scenarios(sessions, step);
  await exportScenarios(sessions, step);
  await compareScenarios(sessions, step);
}

/** The demo (trusted): the panel and form scenarios, then (`withChanges`) the edits, blame and the agent. */
async function trustedSession(
  sessions: Sessions,
  step: Step,
  modelStarted: (model: ScriptedServer) => void,
  withChanges: boolean,
): Promise<void> {
  const model = await startAgentModel();
  modelStarted(model);
  const trusted = await sessions.open('trusted', true, {
    settings: {
      // One test at a time, so a check visibly queues specs; the agent talks to the scripted model.
      'weave.concurrency': 1,
      'weave.agent.baseUrl': model.baseURL,
      'weave.agent.model': 'scripted-model',
      'weave.agent.modelReview': false,
      'weave.agent.maxSteps': AGENT_STEPS + 1,
      'weave.agent.matrixConcurrency': 2,
    },
  });
  const demo = demoSession(trusted);
  await panelScenarios(demo, step);
  if (withChanges) await changeScenarios(demo, step);
  await demo.ui.shoot('e2e-window.png');
  await trusted.close();
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
