// `weave guard --install AGENT`: merges Weave's hooks into the project's hook configuration. Other hooks and
// other settings are kept as they are; Weave's own entries are recognised by `guard` and `--agent AGENT` in their
// command, so installing twice changes nothing (and re-installing from another path only updates Weave's own
// command). A configuration file that is not valid JSON is reported and left untouched. The commands written are
// portable where Weave is in the project (portableStartCommands): a committed configuration works on a clone and
// keeps Codex's trust hash; otherwise they name the running Weave's absolute path, never `npx weave`.
//   claude-code  .claude/settings.json   hooks.PreToolUse (Edit|Write|MultiEdit|NotebookEdit|Bash|mcp__.*) + Stop
//                                        + SessionStart + SessionEnd (the session backstop's record)
//   codex        .codex/hooks.json       hooks.PreToolUse (Bash|apply_patch|Edit|Write|mcp__.*) + hooks.Stop
//                                        + SessionStart + SessionEnd
//   cursor       .cursor/hooks.json      version 1; hooks.beforeShellExecution, hooks.preToolUse, hooks.stop
//   git          the repository's pre-commit hook runs `weave check --affected` and its pre-push hook
//                `weave guard --pre-push`, each after any existing hook
import { existsSync, promises as fs, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../../core/git/git';

export const INSTALL_TARGETS = ['claude-code', 'codex', 'cursor', 'git'] as const;
export type InstallTarget = (typeof INSTALL_TARGETS)[number];

export class InstallError extends Error {
  override name = 'InstallError';
}

/** Shell command prefixes: `weave` runs verbs (`… check --affected`), `guard` takes `--agent AGENT`. */
export interface StartCommands {
  weave: string;
  guard: string;
}

export interface InstallResult {
  file: string;
  /** False when everything was already in place. */
  changed: boolean;
  summary: string;
}

/** Stop hooks run the affected specs' tests: give them time (seconds). */
const STOP_TIMEOUT_S = 600;
const PRE_TOOL_TIMEOUT_S = 30;
/** The tools the PreToolUse hooks see; MCP tools (mcp__SERVER__TOOL) move and write files too. */
export const CLAUDE_MATCHER = 'Edit|Write|MultiEdit|NotebookEdit|Bash|mcp__.*';
export const CODEX_MATCHER = 'Bash|apply_patch|Edit|Write|mcp__.*';

/**
 * How hooks start Weave: portable where possible — the guard bundle of the Weave installed in the project
 * (node_modules/weave/dist), or of the Weave checkout the project is, by a path from the project root
 * (`$CLAUDE_PROJECT_DIR` for Claude Code, the git top level for Codex, Cursor and git, whose hooks may start in a
 * sub-folder) — else the absolute path of the Weave running now (`runningDist`, its dist/ folder). Never a bare
 * `npx weave`: the npm registry has an unrelated package of that name, which a hook would download and run on
 * every tool call. A running Weave in a temporary place (an npx cache, a temp folder) would vanish under the
 * hooks, so that is an InstallError and nothing is written.
 */
export async function portableStartCommands(
  target: InstallTarget,
  projectDir: string,
  runningDist: string,
): Promise<StartCommands> {
  // Real paths on both sides (git prints the top level resolved), but node_modules/weave is kept as a link.
  const project = await fs.realpath(projectDir);
  const running = await fs.realpath(runningDist).catch(() => runningDist);
  const installed = path.join(project, 'node_modules', 'weave', 'dist');
  const distDir = existsSync(path.join(installed, 'guard.js'))
    ? installed
    : isInside(running, project)
      ? running
      : undefined;
  if (distDir === undefined) {
    const temporary = temporaryPlace(running);
    if (temporary !== undefined)
      throw new InstallError(
        `the Weave running now (${running}) lives in ${temporary}, which can vanish under the hooks, and ` +
          `${project} has no Weave of its own (node_modules/weave). Install Weave in the project ` +
          '(npm install --save-dev <weave package or path>) or globally, then run --install again; nothing was written',
      );
    if (!existsSync(path.join(running, 'guard.js')))
      throw new InstallError(
        `the Weave running now has no guard bundle at ${path.join(running, 'guard.js')} (build it: npm run ` +
          'build); nothing was written',
      );
    const absolute = shellQuote(running);
    return { weave: `node ${absolute}/cli.js`, guard: `node ${absolute}/guard.js` };
  }
  let from: string;
  if (target === 'claude-code') from = `"$CLAUDE_PROJECT_DIR"/${path.relative(project, distDir)}`;
  else {
    const top = await git(['rev-parse', '--show-toplevel'], project).then(
      (out) => out.trim(),
      () => undefined,
    );
    from =
      top === undefined
        ? `./${path.relative(project, distDir)}`
        : `"$(git rev-parse --show-toplevel)"/${path.relative(top, distDir)}`;
  }
  return { weave: `node ${from}/cli.js`, guard: `node ${from}/guard.js` };
}

/** Why a folder is a temporary place (an npx cache, the temp folder), or undefined. */
export function temporaryPlace(dir: string): string | undefined {
  if (/[\\/]_npx[\\/]/.test(dir)) return "npx's cache (_npx)";
  for (const tmp of new Set([os.tmpdir(), '/tmp', '/var/tmp', '/dev/shm'])) {
    const real = realOrSame(tmp);
    if (isInside(dir, real) || isInside(dir, tmp)) return `the temporary folder ${tmp}`;
  }
  return undefined;
}

/** A hook command that would ask the npm registry for a package named `weave` (npx, npm exec, pnpm dlx…). */
export function runsRegistryWeave(command: string): boolean {
  return /(^|[\s;&|(])(npx|npm\s+exec|pnpm\s+(dlx|exec)|yarn\s+dlx|bunx)\s+(-[^\s]+\s+)*weave(\s|$)/.test(
    command,
  );
}

function realOrSame(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

export async function installHooks(
  target: InstallTarget,
  projectDir: string,
  commands: StartCommands,
): Promise<InstallResult> {
  if (target === 'git') return installGitHook(projectDir, commands.weave);
  const guard = `${commands.guard} --agent ${target}`;
  if (target === 'cursor') {
    const file = path.join(projectDir, '.cursor', 'hooks.json');
    return mergeJson(file, (config) => {
      config.version ??= 1;
      const hooks = objectAt(config, 'hooks', file);
      let changed = false;
      for (const event of ['beforeShellExecution', 'preToolUse', 'stop']) {
        changed = upsertFlat(arrayAt(hooks, event, file), guard, target, event === 'stop') || changed;
      }
      return changed;
    });
  }
  const file =
    target === 'claude-code'
      ? path.join(projectDir, '.claude', 'settings.json')
      : path.join(projectDir, '.codex', 'hooks.json');
  const matcher = target === 'claude-code' ? CLAUDE_MATCHER : CODEX_MATCHER;
  return mergeJson(file, (config) => {
    const hooks = objectAt(config, 'hooks', file);
    const pre = upsertGrouped(arrayAt(hooks, 'PreToolUse', file), guard, target, {
      matcher,
      timeout: PRE_TOOL_TIMEOUT_S,
    });
    const stop = upsertGrouped(arrayAt(hooks, 'Stop', file), guard, target, { timeout: STOP_TIMEOUT_S });
    // The session backstop: the protected set is recorded when a session starts, forgotten when it ends clean.
    const start = upsertGrouped(arrayAt(hooks, 'SessionStart', file), guard, target, {
      timeout: PRE_TOOL_TIMEOUT_S,
    });
    const end = upsertGrouped(arrayAt(hooks, 'SessionEnd', file), guard, target, {
      timeout: PRE_TOOL_TIMEOUT_S,
    });
    return pre || stop || start || end;
  });
}

type Json = Record<string, unknown>;

async function mergeJson(file: string, merge: (config: Json) => boolean): Promise<InstallResult> {
  let text: string | undefined;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let config: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      config = JSON.parse(text);
    } catch (error) {
      throw new InstallError(`${file} is not valid JSON (${(error as Error).message}); nothing was changed`);
    }
  }
  if (!isObject(config)) throw new InstallError(`${file} does not hold a JSON object; nothing was changed`);
  const changed = merge(config);
  if (changed) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    await fs.writeFile(partial, `${JSON.stringify(config, null, 2)}\n`);
    await fs.rename(partial, file);
  }
  return {
    file,
    changed,
    summary: changed ? `Weave's hooks merged into ${file}` : `${file} already has Weave's hooks`,
  };
}

function isOurs(command: unknown, target: string): boolean {
  return typeof command === 'string' && command.includes('guard') && command.endsWith(`--agent ${target}`);
}

/** Claude Code / Codex shape: [{matcher?, hooks: [{type: 'command', command, timeout}]}]. */
function upsertGrouped(
  groups: unknown[],
  command: string,
  target: string,
  options: { matcher?: string; timeout: number },
): boolean {
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks)) continue;
    for (const hook of group.hooks) {
      if (!isObject(hook) || !isOurs(hook.command, target)) continue;
      if (hook.command === command) return false;
      hook.command = command;
      return true;
    }
  }
  groups.push({
    ...(options.matcher !== undefined ? { matcher: options.matcher } : {}),
    hooks: [{ type: 'command', command, timeout: options.timeout }],
  });
  return true;
}

/** Cursor shape: [{command, timeout?}]. */
function upsertFlat(entries: unknown[], command: string, target: string, isStop: boolean): boolean {
  const ours = entries.find((e) => isObject(e) && isOurs(e.command, target));
  if (isObject(ours)) {
    if (ours.command === command) return false;
    ours.command = command;
    return true;
  }
  entries.push({ command, ...(isStop ? { timeout: STOP_TIMEOUT_S } : {}) });
  return true;
}

function objectAt(parent: Json, key: string, file: string): Json {
  const value = parent[key] ?? {};
  if (!isObject(value)) throw new InstallError(`${file}: "${key}" is not an object; nothing was changed`);
  parent[key] = value;
  return value;
}

function arrayAt(parent: Json, key: string, file: string): unknown[] {
  const value = parent[key] ?? [];
  if (!Array.isArray(value)) throw new InstallError(`${file}: "${key}" is not an array; nothing was changed`);
  parent[key] = value;
  return value;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The git hooks: pre-commit runs `weave check --affected` (a protected file changed during an agent session makes
 * its specs `tampered`, refusing the commit); pre-push runs `weave guard --pre-push`, which compares each pushed
 * commit with the session's record (a commit made with --no-verify is still refused). A user's existing hook is
 * kept as HOOK.weave-chained and runs first (pre-push: with git's ref lines, which both hooks read on stdin).
 */
async function installGitHook(projectDir: string, weaveCommand: string): Promise<InstallResult> {
  const hooksDir = await gitHooksDir(projectDir);
  if (hooksDir === undefined)
    throw new InstallError(`${projectDir} is not in a git repository: there is no git hook to install`);
  const workspace = shellQuote(projectDir);
  const commit = await installOneGitHook(hooksDir, 'pre-commit', (chained) => [
    '# Runs the specs the changes can affect; a failing, broken or tampered spec stops the commit (git commit --no-verify skips it).',
    ...(chained ? ['"$(dirname "$0")/pre-commit.weave-chained" "$@" || exit $?'] : []),
    `exec ${weaveCommand} check --affected --workspace ${workspace}`,
  ]);
  const push = await installOneGitHook(hooksDir, 'pre-push', (chained) => [
    '# Refuses a push whose commits change spec tests, their runner configuration or .weave/ since an agent session',
    '# started (weave guard --accept-tests makes a deliberate change the reference; git push --no-verify skips it).',
    ...(chained
      ? [
          'refs=$(cat)',
          'printf \'%s\\n\' "$refs" | "$(dirname "$0")/pre-push.weave-chained" "$@" || exit $?',
          `printf '%s\\n' "$refs" | exec ${weaveCommand} guard --pre-push --workspace ${workspace}`,
        ]
      : [`exec ${weaveCommand} guard --pre-push --workspace ${workspace}`]),
  ]);
  return {
    file: commit.file,
    changed: commit.changed || push.changed,
    summary: [commit.summary, push.summary].join('\n'),
  };
}

/** The repository's hooks folder (core.hooksPath honoured), or undefined outside git. */
export async function gitHooksDir(projectDir: string): Promise<string | undefined> {
  try {
    return path.resolve(projectDir, (await git(['rev-parse', '--git-path', 'hooks'], projectDir)).trim());
  } catch {
    return undefined;
  }
}

export const GIT_HOOK_MARKER = (hook: string): string => `# weave guard: ${hook}`;

/** One git hook, written once: already ours → unchanged; another → kept as HOOK.weave-chained and run first. */
async function installOneGitHook(
  hooksDir: string,
  hook: 'pre-commit' | 'pre-push',
  body: (chained: boolean) => string[],
): Promise<InstallResult> {
  const file = path.join(hooksDir, hook);
  const chained = path.join(hooksDir, `${hook}.weave-chained`);
  const existing = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (existing?.includes(GIT_HOOK_MARKER(hook)))
    return { file, changed: false, summary: `${file} already runs Weave` };
  await fs.mkdir(hooksDir, { recursive: true });
  if (existing !== undefined) {
    if (existsSync(chained))
      throw new InstallError(
        `${file} is not Weave's and ${path.basename(chained)} already exists beside it; move one of them away ` +
          'and run --install git again; nothing was changed',
      );
    await fs.rename(file, chained);
  }
  const script = ['#!/bin/sh', GIT_HOOK_MARKER(hook), ...body(existing !== undefined), ''].join('\n');
  await fs.writeFile(file, script, { mode: 0o755 });
  return {
    file,
    changed: true,
    summary:
      existing !== undefined
        ? `${file} now runs the existing hook (moved to ${path.basename(chained)}) and then Weave`
        : `${file} runs Weave`,
  };
}

export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
