// The one command table: every `weave.*` command the extension contributes, its title (the palette shows
// "Weave: <title>") and what it needs before it runs. Plain data without `vscode`, so a node unit test can hold it
// against package.json and the README; commands.ts registers every entry and says why when one cannot run.

/** What a command needs, checked in this order; the first that is missing is explained to the user. */
export type Requirement = 'folder' | 'specFile' | 'trust';

export interface CommandEntry {
  readonly id: string;
  readonly title: string;
  readonly needs: readonly Requirement[];
}

const CHECKED: readonly Requirement[] = ['folder', 'specFile', 'trust'];

export const COMMANDS = [
  { id: 'weave.check', title: 'Check constraints', needs: CHECKED },
  { id: 'weave.checkAffected', title: 'Check affected constraints', needs: CHECKED },
  { id: 'weave.explainBroken', title: 'Explain broken spec', needs: CHECKED },
  { id: 'weave.newSpec', title: 'New spec', needs: ['folder'] },
  { id: 'weave.showGraph', title: 'Show spec graph', needs: ['folder', 'specFile'] },
  { id: 'weave.init', title: 'Init specs', needs: ['folder'] },
  { id: 'weave.audit', title: 'Audit specs', needs: CHECKED },
  { id: 'weave.draft', title: 'Draft specs', needs: CHECKED },
  { id: 'weave.draft.accept', title: 'Accept drafted specs', needs: ['folder', 'specFile'] },
  { id: 'weave.draft.reject', title: 'Reject drafted specs', needs: ['folder'] },
  { id: 'weave.export', title: 'Export workspace as benchmark task', needs: CHECKED },
  { id: 'weave.showOutput', title: 'Show output', needs: [] },
  { id: 'weave.agent.runAll', title: 'Run agent on all constraints', needs: CHECKED },
  { id: 'weave.agent.runCandidates', title: 'Run N agents', needs: CHECKED },
  { id: 'weave.agent.applyCandidate', title: "Apply a candidate's change", needs: ['folder'] },
  { id: 'weave.agent.showCandidateChanges', title: "Review a candidate's change", needs: ['folder'] },
  { id: 'weave.agent.stop', title: 'Stop agent runs', needs: ['folder'] },
  { id: 'weave.agent.matrix', title: 'Show interaction matrix', needs: CHECKED },
  { id: 'weave.agent.applyResult', title: "Apply the agent's change", needs: ['folder'] },
  { id: 'weave.agent.discardResult', title: "Discard the agent's change", needs: ['folder'] },
  { id: 'weave.agent.showChanges', title: "Review the agent's change", needs: ['folder'] },
  { id: 'weave.agent.openPatch', title: "Open the agent's patch", needs: ['folder'] },
  { id: 'weave.agent.setApiKey', title: 'Set API key', needs: ['folder'] },
] as const satisfies readonly CommandEntry[];

export type CommandId = (typeof COMMANDS)[number]['id'];

/** What the user is told when a requirement is missing (commands.ts adds the buttons: init, trust). */
export const MISSING: Readonly<Record<Requirement, string>> = {
  folder: 'Weave: open a folder first.',
  specFile: 'Weave: this folder has no .weave/specs.json yet. Create one (the test runner is detected)?',
  trust:
    'This folder is not trusted, so Weave runs no spec test (a spec test is a shell command from the folder). ' +
    'Specs are still shown and validated. Trust the folder to check constraints.',
};
