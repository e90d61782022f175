// What one simple command does with its words, for the guard: which are paths it reads, which it writes, which
// are code for another interpreter or shell. Wrappers that run the rest of their words as a command (timeout,
// nice, env, sudo, busybox, stdbuf, setsid, flock, npx, uv run …) are unwrapped first, with their own options.
// A command this table does not know gets `other` access to its words: the guard then blocks it when a word is
// a protected path (deny by default). Known reads never block; known writers block on any protected target,
// including a folder or glob that covers one, and on a target the reader cannot resolve.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { APPLY_PATCH_HANDLERS } from './applyPatch';
import type { CommandContext, PathAccess, ShellWord } from './shellTypes';

type Handler = (args: ShellWord[], use: Uses, ctx: CommandContext) => void;

/** Commands that only read the paths they are given (or print, list, test, compare them). */
const READS = new Set(
  (
    'cat tac less more head tail wc grep egrep fgrep rg ag ack diff diff3 cmp comm ls ll la dir tree stat file du ' +
    'df cut tr nl od xxd hexdump strings md5sum sha1sum sha256sum sha512sum b2sum cksum sum jq column fold fmt ' +
    'paste join rev expand unexpand look bat batcat zcat zless bzcat xzcat readlink realpath basename dirname ' +
    'test [ [[ echo printf true false : pwd sleep seq date which whereis type whoami id uname hostname export ' +
    'set unset local declare readonly read shift return exit break continue wait jobs alias hash ulimit umask ' +
    'history printenv expr yes mkdir clear tput nproc free uptime ps top pgrep lsof env-nothing sha224sum ' +
    'sha384sum numfmt getconf locale tty stty mktemp ' +
    // test runners: running a spec's tests reads them
    'pytest py.test vitest jest mocha ava tap nyc c8 playwright karma'
  ).split(/\s+/),
);
/** Commands whose every operand is a file they change, replace or delete. */
const WRITES_ALL = new Set(
  (
    'rm rmdir unlink shred truncate touch chmod chown chgrp chattr setfacl sponge tee ex vi vim nvim view nano ' +
    'emacs ed pico micro joe mg kak hx gzip gunzip bzip2 bunzip2 xz unxz lzma zstd unzstd lz4 compress ' +
    'uncompress dos2unix unix2dos mv mkfifo mknod split csplit'
  ).split(/\s+/),
);
/** Commands whose last operand (or -t DIR) is the target, the others read. */
const WRITES_LAST = new Set(['cp', 'install', 'ln', 'rsync', 'scp', 'link']);
/** Build tools and package managers: their words are targets and script names, not paths (until `--`). */
const TARGET_RUNNERS = new Set([
  'make',
  'gmake',
  'ninja',
  'just',
  'task',
  'rake',
  'gradle',
  'gradlew',
  'mvn',
  'mvnw',
  'tox',
  'nox',
  'npm',
  'pnpm',
  'yarn',
]);
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
const INTERPRETER =
  /^(python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|perl|ruby|php|Rscript|lua|tsx|ts-node|jshell)$/;
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish', 'busybox-sh']);

/** The words a command passes on, with helpers that report them. */
class Uses {
  constructor(private readonly ctx: CommandContext) {}

  path(word: ShellWord, access: PathAccess, how: string): void {
    if (!word.exact) {
      if (access === 'write') this.ctx.emit({ kind: 'unresolved', text: word.text, how });
      return;
    }
    if (access === 'read') return;
    this.ctx.emit({ kind: 'path', word, dirs: this.ctx.state.dirs, access, how });
  }

  all(words: ShellWord[], access: PathAccess, how: string): void {
    for (const w of words) this.path(w, access, how);
  }

  inline(code: string, how: string): void {
    this.ctx.emit({ kind: 'inline', code, dirs: this.ctx.state.dirs, how });
  }

  unresolved(text: string, how: string): void {
    this.ctx.emit({ kind: 'unresolved', text, how });
  }
}

export function commandEffects(words: ShellWord[], ctx: CommandContext): void {
  const argv = unwrap(words, ctx);
  if (argv === undefined || argv.length === 0) return;
  const use = new Uses(ctx);
  const [first, ...args] = argv;
  if (!first!.exact) {
    // A command named by a variable or a substitution: anything could run.
    use.all(args, 'other', `a command the guard cannot read (${first!.text})`);
    return;
  }
  const name = path.basename(first!.text);
  const handler = HANDLERS[name] ?? (INTERPRETER.test(name) ? interpreter(name) : undefined);
  if (handler) handler(args, use, ctx);
  else if (READS.has(name)) return;
  else if (TARGET_RUNNERS.has(name)) {
    const dashes = args.findIndex((w) => w.text === '--');
    if (dashes >= 0) use.all(args.slice(dashes + 1), 'other', name);
  } else if (WRITES_ALL.has(name)) use.all(operands(args), 'write', name);
  else if (WRITES_LAST.has(name)) {
    const targets = optionValues(args, ['-t', '--target-directory']);
    use.all(targets.length > 0 ? targets : operands(args).slice(-1), 'write', name);
  } else if (SHELLS.has(name)) shell(args, use, ctx, name);
  else use.all(args, 'other', name);
}

// ————— wrappers —————

/** Option letters that take a value, per wrapper; `--name=value` forms are always one word. */
interface WrapperShape {
  valued: string[];
  /** Operands before the command (timeout's duration, flock's lock file, chrt's priority). */
  leading?: number;
  /** A flag that means "no command follows" (command -v, ionice -p). */
  noCommand?: string[];
}

const WRAPPERS: Record<string, WrapperShape> = {
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], leading: 1 },
  nice: { valued: ['-n', '--adjustment'] },
  ionice: { valued: ['-c', '--class', '-n', '--classdata'], noCommand: ['-p', '--pid', '-P', '-u'] },
  chrt: { valued: [], leading: 1, noCommand: ['-p', '--pid'] },
  taskset: { valued: ['-c', '--cpu-list'], noCommand: ['-p', '--pid'] },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  setsid: { valued: [] },
  nohup: { valued: [] },
  time: { valued: ['-f', '--format', '-o', '--output'] },
  command: { valued: [], noCommand: ['-v', '-V'] },
  builtin: { valued: [] },
  exec: { valued: ['-a'] },
  sudo: {
    valued: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T', '--chdir', '--user', '--group'],
  },
  doas: { valued: ['-u', '-C'] },
  unbuffer: { valued: [] },
  chronic: { valued: [] },
  nocache: { valued: [] },
  caffeinate: { valued: ['-t', '-w'] },
  strace: { valued: ['-o', '-e', '-p', '-s', '-u', '-E', '-I', '-b', '-S', '-X', '-a', '-P'] },
  ltrace: { valued: ['-o', '-e', '-p', '-s', '-u', '-n', '-a'] },
  flock: { valued: ['-w', '--wait', '--timeout', '-E', '--conflict-exit-code'], leading: 1 },
  runuser: { valued: ['-u', '-g', '-G', '--user', '--group'] },
  watch: { valued: ['-n', '--interval', '-d', '-q'] },
};
/** Package runners: the first operand is the program (a package name, maybe with @version). */
const RUNNERS: Record<string, { valued: string[]; sub?: string[] }> = {
  npx: { valued: ['-p', '--package', '--cache', '--userconfig', '-w', '--workspace'] },
  bunx: { valued: ['-p', '--package'] },
  pnpx: { valued: [] },
  pnpm: { valued: ['-C', '--dir', '--filter', '-F'], sub: ['exec', 'dlx'] },
  yarn: { valued: ['--cwd'], sub: ['exec', 'dlx', 'run'] },
  npm: { valued: ['-w', '--workspace', '--prefix'], sub: ['exec', 'x'] },
  uv: { valued: ['--with', '-p', '--python', '--directory', '--project'], sub: ['run'] },
  uvx: { valued: ['--with', '-p', '--python', '--from'] },
  poetry: { valued: ['-C', '--directory'], sub: ['run'] },
  pipenv: { valued: [], sub: ['run'] },
  pdm: { valued: [], sub: ['run'] },
  hatch: { valued: [], sub: ['run'] },
  pipx: { valued: ['--spec'], sub: ['run'] },
  bundle: { valued: [], sub: ['exec'] },
};

/** The command a chain of wrappers runs, or undefined when there is none; applies -C/--chdir on the way. */
function unwrap(words: ShellWord[], ctx: CommandContext): ShellWord[] | undefined {
  let rest = words;
  for (let guard = 0; guard < 16 && rest.length > 0; guard++) {
    const step = unwrapOne(rest, ctx);
    if ('end' in step) return step.end;
    rest = step.next;
  }
  return rest;
}

/** One wrapper taken off: the words it runs next, or the end of the chain (`end`: the command, or none). */
type Unwrapped = { next: ShellWord[] } | { end: ShellWord[] | undefined };

const XARGS_VALUED = [
  '-a',
  '-d',
  '-E',
  '-e',
  '-I',
  '-i',
  '-L',
  '-l',
  '-n',
  '-P',
  '-s',
  '--arg-file',
  '--delimiter',
  '--max-args',
  '--max-procs',
  '--replace',
];

/** The first word of `rest` (not empty) as a wrapper: what it runs, or where the chain ends. */
function unwrapOne(rest: ShellWord[], ctx: CommandContext): Unwrapped {
  const word = rest[0]!;
  if (!word.exact) return { end: rest };
  const name = path.basename(word.text);
  if (name === 'env') {
    const next = unwrapEnv(rest.slice(1), ctx);
    return next === undefined ? { end: undefined } : { next };
  }
  if (name === 'busybox') return rest[1]?.text.startsWith('-') ? { end: undefined } : { next: rest.slice(1) };
  if (name === 'xargs') {
    xargsEffects(rest.slice(1), ctx);
    return { end: undefined };
  }
  if (name === 'flock' && rest.some((w) => w.text === '-c' || w.text === '--command')) {
    const at = rest.findIndex((w) => w.text === '-c' || w.text === '--command');
    shellString(rest[at + 1], ctx, 'flock -c');
    return { end: undefined };
  }
  if (name === 'watch') {
    const command = afterOptions(rest.slice(1), WRAPPERS.watch!.valued);
    if (command.every((w) => w.exact)) ctx.shell(command.map((w) => w.text).join(' '), false);
    else
      new Uses(ctx).unresolved(
        command.map((w) => w.text).join(' '),
        'watch of a command the guard cannot read',
      );
    return { end: undefined };
  }
  const wrapper = WRAPPERS[name];
  if (wrapper) return unwrapWrapper(name, wrapper, rest.slice(1), ctx);
  const runner = RUNNERS[name];
  if (runner) return unwrapRunner(name, runner, rest, ctx);
  return { end: rest };
}

/** `xargs CMD …`: CMD's own effects; a writer fed by xargs writes targets the guard cannot see. */
function xargsEffects(args: ShellWord[], ctx: CommandContext): void {
  const command = afterOptions(args, XARGS_VALUED);
  if (command.length === 0) return; // xargs alone runs echo
  commandEffects(command, ctx);
  const inner = unwrap(command, ctx);
  const innerName = inner?.[0] && path.basename(inner[0].text);
  // Its arguments come from stdin: a writer fed by xargs writes targets the guard cannot see.
  if (innerName && !READS.has(innerName))
    new Uses(ctx).unresolved(`${innerName} …`, `xargs ${innerName} with arguments from stdin`);
}

/** A wrapper of the WRAPPERS table (timeout, nice, sudo …): its options skipped, -D/-o applied. */
function unwrapWrapper(name: string, shape: WrapperShape, args: ShellWord[], ctx: CommandContext): Unwrapped {
  if (shape.noCommand && args.some((w) => shape.noCommand!.includes(w.text))) return { end: undefined };
  if (name === 'sudo' || name === 'runuser') chdirOption(args, ['-D', '--chdir'], ctx);
  if (name === 'time' || name === 'strace' || name === 'ltrace')
    new Uses(ctx).all(optionValues(args, ['-o', '--output']), 'write', `${name} -o`);
  return { next: afterOptions(args, shape.valued).slice(shape.leading ?? 0) };
}

/** A package runner (npx, pnpm exec, uv run …): the package's bin it runs, or the runner itself. */
function unwrapRunner(
  name: string,
  shape: { valued: string[]; sub?: string[] },
  rest: ShellWord[],
  ctx: CommandContext,
): Unwrapped {
  let args = rest.slice(1);
  if (name === 'npx' && args.some((w) => w.text === '-c' || w.text === '--call')) {
    shellString(args[args.findIndex((w) => w.text === '-c' || w.text === '--call') + 1], ctx, 'npx -c');
    return { end: undefined };
  }
  if (name === 'pnpm' || name === 'poetry' || name === 'uv')
    chdirOption(args, ['-C', '--dir', '--directory', '--project'], ctx);
  if (shape.sub) {
    const options = afterOptions(args, shape.valued);
    const sub = options[0]?.text;
    if (name === 'yarn' && sub !== undefined && !shape.sub.includes(sub) && !YARN_OWN.has(sub)) {
      args = options; // `yarn prettier --write …` runs the package's bin
    } else if (sub !== undefined && shape.sub.includes(sub)) args = options.slice(1);
    else return { end: rest }; // npm install, uv pip …: the runner itself
  }
  const command = afterOptions(args, shape.valued);
  if (command.length === 0) return { end: undefined };
  return { next: [{ ...command[0]!, text: packageBin(command[0]!.text) }, ...command.slice(1)] };
}

const YARN_OWN = new Set([
  'install',
  'add',
  'remove',
  'upgrade',
  'init',
  'test',
  'build',
  'why',
  'info',
  'list',
  'cache',
  'config',
  'workspace',
  'workspaces',
  'link',
  'unlink',
  'pack',
  'publish',
  'version',
]);

/** `prettier@3.1.0` → prettier, `@biomejs/biome` → biome. */
function packageBin(spec: string): string {
  const withoutVersion = spec.replace(/(.)@[^/]*$/, '$1');
  return withoutVersion.startsWith('@') ? (withoutVersion.split('/')[1] ?? withoutVersion) : withoutVersion;
}

function unwrapEnv(args: ShellWord[], ctx: CommandContext): ShellWord[] | undefined {
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (t === '--') {
      i++;
      break;
    }
    if (t === '-C' || t === '--chdir') {
      setDirs(ctx.state, args[i + 1]);
      i++;
    } else if (t.startsWith('--chdir=')) setDirs(ctx.state, { ...w, text: t.slice(8) });
    else if (t === '-u' || t === '--unset') i++;
    else if (t === '-S' || t === '--split-string' || t.startsWith('--split-string=')) {
      const script = t.startsWith('--split-string=') ? { ...w, text: t.slice(15) } : args[i + 1];
      const restWords = args.slice(t.startsWith('--split-string=') ? i + 1 : i + 2);
      if (script && script.exact && restWords.every((r) => r.exact))
        ctx.shell([script.text, ...restWords.map((r) => r.text)].join(' '), false);
      else new Uses(ctx).unresolved(script?.text ?? '', 'env -S with a string the guard cannot read');
      return undefined;
    } else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
      const eq = t.indexOf('=');
      ctx.state.vars.set(t.slice(0, eq), w.exact ? t.slice(eq + 1) : undefined);
    } else if (!t.startsWith('-')) break;
  }
  const rest = args.slice(i);
  return rest.length === 0 ? undefined : rest;
}

function chdirOption(args: ShellWord[], names: string[], ctx: CommandContext): void {
  const values = optionValues(args, names);
  if (values.length > 0) setDirs(ctx.state, values[values.length - 1]);
}

/** The words after a wrapper's own options (values of `valued` options skipped; `--` ends them). */
function afterOptions(args: ShellWord[], valued: string[]): ShellWord[] {
  let i = 0;
  while (i < args.length) {
    const t = args[i]!.text;
    if (t === '--') return args.slice(i + 1);
    if (!t.startsWith('-') || t === '-') break;
    if (valued.includes(t)) i += 2;
    else i += 1;
  }
  return args.slice(i);
}

// ————— commands that need more than a list —————

const HANDLERS: Record<string, Handler> = {
  ...APPLY_PATCH_HANDLERS,
  cd: (args, _use, ctx) => {
    const target = operands(args)[0];
    setDirs(ctx.shellState, target ?? homeWord(ctx), target?.text === '-');
    ctx.state.dirs = ctx.shellState.dirs;
  },
  pushd: (args, _use, ctx) => {
    const target = operands(args)[0];
    ctx.shellState.stack.push(ctx.shellState.dirs);
    setDirs(ctx.shellState, target, target === undefined || /^[+-]\d/.test(target.text));
    ctx.state.dirs = ctx.shellState.dirs;
  },
  popd: (_args, _use, ctx) => {
    ctx.shellState.dirs = ctx.shellState.stack.length > 0 ? ctx.shellState.stack.pop() : undefined;
    ctx.state.dirs = ctx.shellState.dirs;
  },
  eval: (args, use, ctx) => {
    if (args.every((w) => w.exact)) ctx.shell(args.map((w) => w.text).join(' '), true);
    else use.unresolved(args.map((w) => w.text).join(' '), 'eval of text the guard cannot read');
  },
  source: sourceFile,
  '.': sourceFile,
  sed: (args, use) => {
    if (args.some((w) => isInPlace(w.text))) use.all(operands(args), 'write', 'sed -i');
  },
  perl: (args, use) => {
    if (args.some((w) => isInPlace(w.text))) use.all(operands(args), 'write', 'perl -i');
    const code = inlineCode(args, ['-e', '-E']);
    if (code !== undefined) use.inline(code, 'perl -e');
  },
  awk: awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  sort: (args, use) => use.all(optionValues(args, ['-o', '--output']), 'write', 'sort -o'),
  uniq: (args, use) => use.all(operands(args).slice(1, 2), 'write', 'uniq OUTPUT'),
  dd: (args, use) =>
    use.all(
      args.filter((w) => w.text.startsWith('of=')).map((w) => ({ ...w, text: w.text.slice(3) })),
      'write',
      'dd of=',
    ),
  tar: tar,
  bsdtar: tar,
  unzip: (args, use) => {
    if (args.some((w) => /^-[a-zA-Z]*[lptvZ]/.test(w.text))) return;
    const into = optionValues(args, ['-d']);
    use.all(into.length > 0 ? into : [literal('.')], 'write', 'unzip');
  },
  '7z': (args, use) => {
    if (args[0]?.text === 'x' || args[0]?.text === 'e') {
      const out = args.filter((w) => w.text.startsWith('-o')).map((w) => ({ ...w, text: w.text.slice(2) }));
      use.all(out.length > 0 ? out : [literal('.')], 'write', '7z x');
    }
  },
  curl: (args, use) => {
    use.all(
      optionValues(args, ['-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar']),
      'write',
      'curl -o',
    );
    if (
      args.some(
        (w) =>
          w.text === '-O' ||
          w.text === '--remote-name' ||
          w.text === '--remote-name-all' ||
          /^-[a-zA-Z]*O$/.test(w.text),
      )
    )
      remoteNames(args, optionValues(args, ['--output-dir'])[0], use, 'curl -O');
  },
  wget: (args, use) => {
    const out = optionValues(args, ['-O', '--output-document']);
    use.all(optionValues(args, ['-o', '--output-file', '-a', '--append-output']), 'write', 'wget -o');
    if (out.length > 0)
      use.all(
        out.filter((w) => w.text !== '-'),
        'write',
        'wget -O',
      );
    else remoteNames(args, optionValues(args, ['-P', '--directory-prefix'])[0], use, 'wget');
  },
  find: find,
  git: git,
  patch: (args, use, ctx) => {
    const named = optionValues(args, ['-i', '--input']);
    const file = named[0] ?? ctx.stdinFile;
    const text = file ? readText(file, ctx) : ctx.stdin;
    const targets = operands(
      args.filter(
        (_, i) =>
          !['-i', '--input', '-p', '-d', '--directory', '-o', '--output'].includes(args[i - 1]?.text ?? ''),
      ),
    );
    use.all([...targets, ...optionValues(args, ['-o', '--output'])], 'write', 'patch');
    if (text === undefined && targets.length === 0)
      use.unresolved(file?.text ?? 'stdin', 'patch with a patch the guard cannot read');
    else for (const t of diffTargets(text ?? '')) use.path(literal(t), 'write', 'patch');
  },
  prettier: formatter((a) => has(a, '--write', '-w'), 'prettier --write'),
  eslint: formatter((a) => has(a, '--fix'), 'eslint --fix'),
  biome: formatter(
    (a) => has(a, '--write', '--apply', '--apply-unsafe', '--fix', '--unsafe'),
    'biome --write',
  ),
  black: formatter((a) => !has(a, '--check', '--diff'), 'black'),
  isort: formatter((a) => !has(a, '--check', '--check-only', '-c', '--diff'), 'isort'),
  ruff: formatter(
    (a) => (a[0]?.text === 'format' ? !has(a, '--check', '--diff') : has(a, '--fix', '--unsafe-fixes')),
    'ruff --fix / ruff format',
  ),
  autopep8: formatter((a) => has(a, '-i', '--in-place'), 'autopep8 -i'),
  yapf: formatter((a) => has(a, '-i', '--in-place'), 'yapf -i'),
  autoflake: formatter((a) => has(a, '-i', '--in-place'), 'autoflake -i'),
  gofmt: formatter((a) => has(a, '-w'), 'gofmt -w'),
  goimports: formatter((a) => has(a, '-w'), 'goimports -w'),
  shfmt: formatter((a) => has(a, '-w', '--write'), 'shfmt -w'),
  'clang-format': formatter((a) => has(a, '-i'), 'clang-format -i'),
  rustfmt: formatter((a) => !has(a, '--check'), 'rustfmt'),
  standard: formatter((a) => has(a, '--fix'), 'standard --fix'),
  xo: formatter((a) => has(a, '--fix'), 'xo --fix'),
  stylelint: formatter((a) => has(a, '--fix'), 'stylelint --fix'),
  dprint: formatter((a) => a[0]?.text === 'fmt', 'dprint fmt'),
  go: (args, use) => {
    if (args[0]?.text === 'fmt' || (args[0]?.text === 'mod' && args[1]?.text === 'tidy'))
      use.all(args.length > 1 ? operands(args.slice(1)) : [literal('.')], 'write', `go ${args[0]!.text}`);
    else if (args[0]?.text !== 'test' && args[0]?.text !== 'vet') use.all(args, 'other', 'go');
  },
  cargo: (args, use) => {
    if (args[0]?.text === 'fmt' && !has(args, '--check')) use.path(literal('.'), 'write', 'cargo fmt');
    else if (args[0]?.text !== 'test') use.all(args, 'other', 'cargo');
  },
  deno: (args, use, ctx) => {
    const sub = args[0]?.text;
    if (sub === 'fmt' && !has(args, '--check'))
      use.all(args.length > 1 ? operands(args.slice(1)) : [literal('.')], 'write', 'deno fmt');
    else if (sub === 'lint' && has(args, '--fix'))
      use.all(operands(args.slice(1)), 'write', 'deno lint --fix');
    else if (sub === 'test') return;
    else if (sub === 'eval')
      use.inline(
        args
          .slice(1)
          .map((w) => w.text)
          .join(' '),
        'deno eval',
      );
    else interpreter('deno')(sub === 'run' ? args.slice(1) : args, use, ctx);
  },
};

function formatter(writes: (args: ShellWord[]) => boolean, how: string): Handler {
  return (args, use) => {
    const ops = operands(args).filter((w) => !['format', 'check', 'lint', 'fmt', 'ci'].includes(w.text));
    if (writes(args)) use.all(ops.length > 0 ? ops : [literal('.')], 'write', how);
  };
}

function awk(args: ShellWord[], use: Uses): void {
  const inPlace = args.some(
    (w, i) => (w.text === '-i' && args[i + 1]?.text === 'inplace') || w.text === '-iinplace',
  );
  const hasProgramFile = args.some((w) => w.text === '-f' || w.text.startsWith('--file'));
  const ops = operands(args.filter((_, i) => !['-i', '-v', '-F', '-f'].includes(args[i - 1]?.text ?? '')));
  const program = hasProgramFile ? undefined : ops[0];
  const files = hasProgramFile ? ops : ops.slice(1);
  if (program) use.inline(program.text, 'awk program');
  if (inPlace) use.all(files, 'write', 'awk -i inplace');
}

function tar(args: ShellWord[], use: Uses): void {
  const first = args[0]?.text ?? '';
  const modes =
    args
      .filter((w) => w.text.startsWith('-') && !w.text.startsWith('--'))
      .map((w) => w.text)
      .join('') + (first.startsWith('-') ? '' : first);
  const long = new Set(args.map((w) => w.text));
  const archive = optionValues(args, ['-f', '--file']).concat(
    // bundled -xzf FILE / xzf FILE: the word after the bundle
    /f/.test(first.replace(/^-/, '')) && !first.startsWith('--') && args[1] ? [args[1]] : [],
  );
  if (/x/.test(modes) || long.has('--extract') || long.has('--get')) {
    const into = optionValues(args, ['-C', '--directory']);
    use.all(into.length > 0 ? into : [literal('.')], 'write', 'tar -x');
  } else if (/[cru]/.test(modes) || long.has('--create') || long.has('--append') || long.has('--update'))
    use.all(archive, 'write', 'tar -c (the archive)');
}

function find(args: ShellWord[], use: Uses, ctx: CommandContext): void {
  const firstExpr = args.findIndex((w) => /^[-(!]/.test(w.text));
  const roots = (firstExpr < 0 ? args : args.slice(0, firstExpr)).filter((w) => !w.text.startsWith('-'));
  const starts = roots.length > 0 ? roots : [literal('.')];
  if (has(args, '-delete')) use.all(starts, 'write', 'find -delete');
  use.all(optionValues(args, ['-fprint', '-fprint0', '-fprintf', '-fls']), 'write', 'find -fprint');
  for (let i = 0; i < args.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[i]!.text)) continue;
    const end = args.findIndex((w, j) => j > i && (w.text === ';' || w.text === '+'));
    const command = args.slice(i + 1, end < 0 ? undefined : end);
    // `{}` stands for what find found under its starting points.
    for (const start of starts)
      commandEffects(
        command.map((w) => (w.text === '{}' ? start : w)),
        ctx,
      );
    i = end < 0 ? args.length : end;
  }
}

function git(args: ShellWord[], use: Uses, ctx: CommandContext): void {
  let i = 0;
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === '-C') {
      setDirs(ctx.state, args[i + 1]);
      i++;
    } else if (t === '-c' || t === '--git-dir' || t === '--work-tree' || t === '--namespace') i++;
    else if (!t.startsWith('-')) break;
  }
  const sub = args[i]?.text;
  const rest = args.slice(i + 1);
  if (sub === undefined || GIT_READS.has(sub)) return;
  const how = `git ${sub}`;
  if (sub === 'apply' || sub === 'am') {
    const files = operands(rest);
    const texts =
      files.length > 0
        ? files.map((f) => readText(f, ctx))
        : [ctx.stdinFile ? readText(ctx.stdinFile, ctx) : ctx.stdin];
    if (texts.some((t) => t === undefined))
      use.unresolved(
        files.map((f) => f.text).join(' ') || 'stdin',
        `${how} of a patch the guard cannot read`,
      );
    for (const t of texts) for (const target of diffTargets(t ?? '')) use.path(literal(target), 'write', how);
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
}

function sourceFile(args: ShellWord[], use: Uses, ctx: CommandContext): void {
  const file = args[0];
  const text = file ? readText(file, ctx) : undefined;
  if (text !== undefined) ctx.shell(text, true);
  else if (file) use.unresolved(file.text, unreadableScript('source'));
}

/**
 * Why a shell or an interpreter is refused its input: the guard cannot read it (decoded, downloaded, piped from
 * another program, or a file made by the same command), so it cannot say what it writes. Said with the readable way.
 */
function unreadableScript(how: string): string {
  return (
    `${how} running commands the guard cannot read (piped in, decoded, or a file this command makes); ` +
    'write the commands out in the command itself'
  );
}

/** python -c, node -e, heredocs fed to an interpreter: code; a script file runs (reading it); -m pytest reads. */
function interpreter(name: string): Handler {
  const codeFlags =
    name.startsWith('node') || name === 'bun' || name === 'deno' || name === 'tsx' || name === 'ts-node'
      ? ['-e', '--eval', '-p', '--print']
      : name === 'ruby' || name === 'perl'
        ? ['-e', '-E']
        : name === 'php'
          ? ['-r']
          : ['-c'];
  return (args, use, ctx) => {
    if (name === 'perl' && args.some((w) => isInPlace(w.text))) use.all(operands(args), 'write', 'perl -i');
    if (name === 'ruby' && args.some((w) => isInPlace(w.text))) use.all(operands(args), 'write', 'ruby -i');
    const code = inlineCode(args, codeFlags);
    if (code !== undefined) {
      use.inline(code, `${name} ${codeFlags[0]}`);
      return;
    }
    if (args.some((w) => w.text === '--test')) return;
    const module = optionValues(args, ['-m'])[0];
    if (module) {
      if (!['pytest', 'unittest', 'doctest'].includes(module.text))
        use.all(args, 'other', `${name} -m ${module.text}`);
      return;
    }
    const script = args.find((w) => !w.text.startsWith('-'));
    if (script === undefined || script.text === '-') {
      if (ctx.stdin !== undefined) use.inline(ctx.stdin, `${name} reading code on stdin`);
      else if (ctx.stdinFile) {
        const text = readText(ctx.stdinFile, ctx);
        if (text !== undefined) use.inline(text, `${name} < file`);
        else use.unresolved(ctx.stdinFile.text, unreadableScript(`${name} < file`));
      } else if (args.length === 0 || script?.text === '-')
        // Code from a pipe the guard cannot read (`curl … | python3`, `… | base64 -d | node`).
        use.unresolved('stdin', unreadableScript(name));
      return;
    }
    // Running a script reads it; what it then does is beyond the guard (the sandbox's hashing still sees it).
    use.all(args.slice(args.indexOf(script) + 1), 'other', name);
  };
}

function shell(args: ShellWord[], use: Uses, ctx: CommandContext, name: string): void {
  const at = args.findIndex((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.text));
  if (at >= 0) {
    shellString(args[at + 1], ctx, `${name} -c`);
    return;
  }
  const script = args.find((w) => !w.text.startsWith('-'));
  if (script === undefined) {
    if (ctx.stdin !== undefined) ctx.shell(ctx.stdin, false);
    else if (ctx.stdinFile) {
      const text = readText(ctx.stdinFile, ctx);
      if (text !== undefined) ctx.shell(text, false);
      else use.unresolved(ctx.stdinFile.text, unreadableScript(`${name} < file`));
    } else if (!args.some((w) => /^--?(version|help)$/.test(w.text)))
      // Commands from a pipe the guard cannot read (`… | base64 -d | sh`, `curl … | bash`).
      use.unresolved('stdin', unreadableScript(name));
    return;
  }
  const text = readText(script, ctx);
  if (text !== undefined) ctx.shell(text, false);
  else use.unresolved(script.text, unreadableScript(name));
  use.all(args.slice(args.indexOf(script) + 1), 'other', name);
}

function shellString(word: ShellWord | undefined, ctx: CommandContext, how: string): void {
  if (word === undefined) return;
  if (word.exact) ctx.shell(word.text, false);
  else new Uses(ctx).unresolved(word.text, `${how} with a script the guard cannot read`);
}

// ————— small helpers —————

/** Words that are not options (after `--`, every word). */
function operands(args: ShellWord[]): ShellWord[] {
  const dashes = args.findIndex((w) => w.text === '--');
  const before = dashes >= 0 ? args.slice(0, dashes) : args;
  const after = dashes >= 0 ? args.slice(dashes + 1) : [];
  return [...before.filter((w) => !w.text.startsWith('-') || w.text === '-'), ...after];
}

/** Values of options given as `-o V`, `--out V`, `--out=V` or `-oV` (one-letter options). */
function optionValues(args: ShellWord[], names: string[]): ShellWord[] {
  const out: ShellWord[] = [];
  args.forEach((w, i) => {
    for (const n of names) {
      if (w.text === n && args[i + 1] !== undefined) out.push(args[i + 1]!);
      else if (n.startsWith('--') && w.text.startsWith(`${n}=`))
        out.push({ ...w, text: w.text.slice(n.length + 1) });
      else if (/^-[a-zA-Z]$/.test(n) && w.text.startsWith(n) && w.text.length > 2 && !w.text.startsWith('--'))
        out.push({ ...w, text: w.text.slice(2) });
    }
  });
  return out;
}

function inlineCode(args: ShellWord[], flags: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (flags.includes(t)) return args[i + 1]?.text ?? '';
    // Bundled one-letter flags: perl -pe CODE, python -Sc CODE.
    if (/^-[a-zA-Z]+$/.test(t) && flags.some((f) => f.length === 2 && t.endsWith(f[1]!)))
      return args[i + 1]?.text ?? '';
  }
  return undefined;
}

function has(args: ShellWord[], ...names: string[]): boolean {
  return args.some(
    (w) => names.includes(w.text) || names.some((n) => n.startsWith('--') && w.text.startsWith(`${n}=`)),
  );
}

function isInPlace(arg: string): boolean {
  return arg === '--in-place' || arg.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(arg);
}

function literal(text: string): ShellWord {
  return { text, exact: true, glob: false };
}

function homeWord(ctx: CommandContext): ShellWord {
  const home = ctx.state.vars.get('HOME');
  return home === undefined ? { text: '~', exact: false, glob: false } : literal(home);
}

/** Moves a state to `target` (relative to every directory it may be in); unknown when it cannot be read. */
function setDirs(
  state: { dirs: string[] | undefined },
  target: ShellWord | undefined,
  unknown = false,
): void {
  if (unknown || target === undefined || !target.exact || target.glob) {
    state.dirs = undefined;
    return;
  }
  state.dirs = path.isAbsolute(target.text)
    ? [path.resolve(target.text)]
    : state.dirs?.map((d) => path.resolve(d, target.text));
}

/** curl -O / wget: the file is named after the URL's last segment, in the output folder. */
function remoteNames(args: ShellWord[], dir: ShellWord | undefined, use: Uses, how: string): void {
  for (const w of args) {
    if (!/^[a-z]+:\/\//i.test(w.text)) continue;
    if (!w.exact) {
      use.unresolved(w.text, `${how} names the file after a URL the guard cannot read`);
      continue;
    }
    const name = decodeURIComponent(new URL(w.text).pathname.split('/').pop() || 'index.html');
    use.path(literal(dir ? path.join(dir.text, name) : name), 'write', how);
  }
}

/** The text of a small file named by a word, when it exists (patches, sourced scripts). */
function readText(word: ShellWord, ctx: CommandContext): string | undefined {
  if (!word.exact) return undefined;
  const dirs = path.isAbsolute(word.text) ? ['/'] : ctx.state.dirs;
  if (dirs?.length !== 1) return undefined;
  const file = path.resolve(dirs[0]!, word.text);
  try {
    if (!existsSync(file) || statSync(file).size > 4_000_000) return undefined;
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Files a unified/git diff or an apply_patch envelope touches (both with and without the a/ b/ prefix). */
export function diffTargets(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/^(?:\+\+\+|---) (?:"?)([^\t\n"]+)/gm)) {
    const p = m[1]!.trim();
    if (p === '/dev/null') continue;
    out.add(p);
    out.add(p.replace(/^[ab]\//, ''));
  }
  for (const m of text.matchAll(/^diff --git a\/(\S+) b\/(\S+)$/gm)) {
    out.add(m[1]!);
    out.add(m[2]!);
  }
  for (const m of text.matchAll(/^rename (?:from|to) (.+)$/gm)) out.add(m[1]!.trim());
  return [...out];
}
