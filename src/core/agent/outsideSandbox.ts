// Files whose content something runs on the user's machine, outside every sandbox, without the user running a test:
// coding agents' hooks and MCP servers (Claude Code, Codex, Cursor, Gemini), git hooks and hook managers, direnv,
// the editor's tasks (a `runOn: folderOpen` task starts when the folder opens; any other one when the user picks it)
// and settings that name a program the editor or an extension starts, and a dev container's lifecycle commands
// (`initializeCommand` runs on the host). Code the agent wrote in such a file never ran in the sandbox, so no verdict
// speaks for it: a patch carrying one is refused by apply and disqualifies its candidate (patchSafety.ts, applyPolicy.ts).
// Issue #35 (mechanism 6): a patch adding `.claude/settings.json` hooks or a folderOpen task was applied with a warning.
import path from 'node:path';

/** Folders (at any depth) whose every file configures an agent or a hook manager that runs commands. */
const RUNNER_FOLDERS = ['.claude', '.codex', '.cursor', '.gemini', '.husky', '.githooks', '.devcontainer'];
/** Files (by name, at any depth) that configure commands run outside the sandbox. */
const RUNNER_FILES = new Map([
  ['.envrc', 'is run by direnv when a shell enters the folder'],
  ['.mcp.json', 'starts the MCP servers it names when an agent opens the project'],
  ['.devcontainer.json', "holds a dev container's lifecycle commands (initializeCommand runs on the host)"],
  ['.pre-commit-config.yaml', 'names the hooks pre-commit runs on every commit'],
  ['lefthook.yml', 'names the hooks lefthook runs on git events'],
  ['.lefthook.yml', 'names the hooks lefthook runs on git events'],
]);
/** Files inside `.vscode/` that run things: tasks (folderOpen runs at once) and MCP servers. */
const EDITOR_RUNNER_FILES = new Map([
  [
    'tasks.json',
    'holds editor tasks, which run outside the sandbox (a runOn: folderOpen task when the folder opens)',
  ],
  ['mcp.json', 'starts the MCP servers it names when the editor opens the folder'],
]);
/**
 * `.vscode/settings.json` keys that name a program, its arguments or its environment, or let tasks run on open:
 * a terminal profile, an interpreter or language server path, a test runner's command line.
 */
const RUNNING_SETTING =
  /"((?:terminal\.integrated\.|task\.allowAutomaticTasks|security\.workspace\.trust)[^"]*|[^"]*(?:[pP]ath|[eE]xecutable|[cC]ommand|[cC]ommandLine|[rR]untime|[iI]nterpreter|tsdk|alternateTools|[sS]erverArgs|[eE]nv(?:ironment)?(?:\.[a-z]+)?))"\s*:/;

/** Why a path changed by a patch runs outside the sandbox, or undefined. `lines`: the entry's added and context lines. */
export function runsOutsideSandbox(file: string, lines: readonly string[]): string | undefined {
  const parts = path.posix.normalize(file).split('/');
  const name = parts[parts.length - 1] ?? '';
  const gitAt = parts.indexOf('.git');
  if (gitAt >= 0 && parts[gitAt + 1] === 'hooks') return 'is a git hook, run by git on the user’s machine';
  const folder = parts.slice(0, -1).find((p) => RUNNER_FOLDERS.includes(p));
  if (folder !== undefined) return `is under ${folder}/, whose files start commands outside the sandbox`;
  const byName = RUNNER_FILES.get(name);
  if (byName !== undefined) return byName;
  if (parts[parts.length - 2] === '.vscode') {
    const editor = EDITOR_RUNNER_FILES.get(name);
    if (editor !== undefined) return editor;
    if (name === 'settings.json') {
      const key = lines.map((l) => RUNNING_SETTING.exec(l)?.[1]).find((k) => k !== undefined);
      if (key !== undefined) return `sets "${key}", a setting that names something the editor runs`;
    }
  }
  return undefined;
}
