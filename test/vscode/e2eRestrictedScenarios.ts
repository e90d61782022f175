// The UI end-to-end scenarios outside the trusted demo session: an UNTRUSTED folder ("New spec" opens the panel's
// form; nothing runs, no check is offered) and an EMPTY folder (the panel offers Init specs, which writes specs.json).
import fs from 'node:fs';
import path from 'node:path';
import { FAILING_SPEC } from './e2eDemoSession';
import type { Sessions, Step } from './e2eHarness';
import { waitUntil, Workbench } from './pages/workbench';

export async function untrustedScenarios(sessions: Sessions, step: Step): Promise<void> {
  const untrusted = await sessions.open('untrusted', false);
  const restrictedUi = new Workbench(untrusted.page);
  await step('"Weave: New spec" opens the panel (not open yet) on its form', async () => {
    await restrictedUi.palette.run('Weave: New spec');
    const form = restrictedUi.panel.form.newSpecForm();
    await form.waitFor({ timeout: 60_000 });
    await form.getByRole('button', { name: 'Cancel' }).click();
  });
  await step('in an untrusted folder the panel says nothing runs and offers no check', async () => {
    const restricted = restrictedUi.panel;
    await restricted.open();
    await restricted.text('Weave runs nothing in an untrusted folder').waitFor({ timeout: 30_000 });
    for (const name of ['Check all', 'Check affected', `Check ${FAILING_SPEC}`]) {
      if (!(await restricted.button(name, true).isDisabled()))
        throw new Error(`"${name}" is enabled in an untrusted folder`);
    }
    if (!(await restricted.button('New spec').isEnabled()))
      throw new Error('editing specs must stay possible in an untrusted folder');
    const badges = await restricted.badges();
    if (badges.some((b) => b.trim() !== 'unchecked'))
      throw new Error(`verdicts in an untrusted folder: ${badges}`);
    await restrictedUi.shoot('e2e-panel-untrusted.png', 'sidebar');
  });
  await untrusted.close();
}

export async function emptyFolderScenarios(sessions: Sessions, step: Step): Promise<void> {
  const empty = await sessions.open('empty', true, { empty: true });
  const emptyUi = new Workbench(empty.page);
  await step(
    'an empty folder: the panel offers Init specs, Check all is off; Init writes specs.json',
    async () => {
      const fresh = emptyUi.panel;
      await fresh.reveal();
      const init = fresh.button('Init specs');
      await init.waitFor({ timeout: 60_000 });
      if (!(await fresh.button('Check all', true).isDisabled()))
        throw new Error('"Check all" is enabled without a spec file');
      await emptyUi.shoot('e2e-empty-folder.png', 'sidebar');
      await init.click();
      const file = path.join(empty.workspace, '.weave/specs.json');
      await waitUntil('specs.json on disk', 30_000, () => fs.existsSync(file));
      await fresh.firstSpec().waitFor({ timeout: 30_000 });
      await emptyUi.shoot('e2e-empty-folder-init.png');
    },
  );
}
