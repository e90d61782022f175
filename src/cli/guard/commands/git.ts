// git: reads (diff, log, show …) never block; writers (checkout -- PATH, restore, rm, mv, reset, clean, stash)
// write their operands, or the whole tree; commands that move HEAD or bring another commit's files into the work
// tree write every protected file they may touch; apply/am write what their patch names (patches.ts).
import type { ShellWord } from '../shellTypes';
import { gitApply } from './patches';
import { has, literal, operands, setDirs, type Handler, type Uses } from './shared';

/**
 * Configuration that makes git run a program (or read one from a file): an alias (`!cmd` runs a shell; a plain
 * alias renames a subcommand the guard then cannot judge), a pager, an editor, ssh, an fsmonitor, a hooks folder,
 * diff/merge drivers, filters, credential helpers, included files.
 */
const RUNS_PROGRAM =
  /^(alias\..*|core\.(pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy|attributesfile|worktree|excludesfile)|sequence\.editor|diff\..*\.(textconv|command)|diff\.external|difftool\..*|mergetool\..*|merge\..*\.driver|filter\..*|credential\..*|gpg\..*|pager\..*|interactive\.difffilter|uploadpack\..*|receive\..*|ssh\..*|include\..*|includeif\..*|remote\..*\.(uploadpack|receivepack|proxy)|protocol\..*|http\..*\.proxy|init\.templatedir|submodule\..*\.update|url\..*)$/i;

function refuseProgramConfig(key: string, use: Uses, how: string): boolean {
  if (!RUNS_PROGRAM.test(key.trim())) return false;
  use.unresolved(
    key,
    `${how} ${key} (configuration that makes git run a program the command does not show); run the program yourself, or set it outside the agent`,
  );
  return true;
}

const GIT_READS = new Set(
  (
    'diff log show status blame grep ls-files ls-tree cat-file rev-parse describe shortlog branch remote ' +
    'fetch add commit tag reflog show-ref for-each-ref config help version rev-list merge-base name-rev ' +
    'whatchanged range-diff notes'
  ).split(/\s+/),
);
const GIT_WRITES = new Set([
  'checkout',
  'restore',
  'switch',
  'rm',
  'mv',
  'stash',
  'reset',
  'clean',
  'checkout-index',
]);
/**
 * Subcommands that move HEAD or bring another commit's files into the work tree: which files change depends on
 * commits the guard does not read, so every protected file may (`git checkout BRANCH` and `git stash pop|apply`
 * are judged in git() by their operands).
 */
const GIT_MOVES_HEAD = new Set(['merge', 'pull', 'rebase', 'cherry-pick', 'revert', 'read-tree']);

export const git: Handler = (args, use, ctx) => {
  let i = 0;
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === '-C') {
      setDirs(ctx.state, args[i + 1]);
      i++;
    } else if (t === '-c') {
      refuseProgramConfig((args[i + 1]?.text ?? '').split('=')[0]!, use, 'git -c');
      i++;
    } else if (t.startsWith('--config-env=') || t === '--config-env') {
      const value = t === '--config-env' ? (args[++i]?.text ?? '') : t.slice('--config-env='.length);
      refuseProgramConfig(value.split('=')[0]!, use, 'git --config-env');
    } else if (t.startsWith('--exec-path='))
      use.unresolved(t, 'git --exec-path (other git programs); run git as installed');
    else if (t === '--git-dir' || t === '--work-tree' || t === '--namespace') i++;
    else if (!t.startsWith('-')) break;
  }
  const sub = args[i]?.text;
  const rest: ShellWord[] = args.slice(i + 1);
  if (sub === 'config') {
    // Reading configuration is fine; setting a key that runs a program is refused like `git -c`.
    const keys = rest.filter((w) => !w.text.startsWith('-')).map((w) => w.text);
    const reads = rest.some((w) => /^--(get|get-all|get-regexp|list|unset|unset-all)$|^-l$/.test(w.text));
    const key = keys[0] === 'set' ? keys[1] : !reads && keys.length >= 2 ? keys[0] : undefined;
    if (key !== undefined && refuseProgramConfig(key, use, 'git config')) return;
  }
  if (sub === undefined || GIT_READS.has(sub)) return;
  const how = `git ${sub}`;
  if (sub === 'apply' || sub === 'am') {
    gitApply(rest, use, ctx, how);
    return;
  }
  const stashApplies = sub === 'stash' && ['pop', 'apply'].includes(rest[0]?.text ?? '');
  const switchesBranch = (sub === 'checkout' || sub === 'switch') && !rest.some((w) => w.text === '--');
  if (GIT_MOVES_HEAD.has(sub) || stashApplies || switchesBranch) {
    // The whole work tree: denied while it holds protected files (the reason names what it holds).
    use.path(literal('.'), 'write', `${how} (moves HEAD or rewrites the work tree from another commit)`);
    if (!switchesBranch) return;
  }
  if (!GIT_WRITES.has(sub)) {
    use.all(rest, 'other', how);
    return;
  }
  const dashes = rest.findIndex((w) => w.text === '--');
  const ops = dashes >= 0 ? rest.slice(dashes + 1) : operands(rest);
  // Without `--`, `git checkout REF PATH` and `git checkout PATH` look alike: every operand counts.
  use.all(ops, 'write', how);
  const whole =
    (sub === 'reset' && has(rest, '--hard', '--merge', '--keep')) ||
    (sub === 'stash' &&
      (rest[0] === undefined || ['push', 'save'].includes(rest[0].text) || rest[0].text.startsWith('-'))) ||
    sub === 'clean';
  if (whole && ops.length === 0) use.path(literal('.'), 'write', how);
};
