// File tools: commands that only read their paths, commands whose every operand (or last operand) is a file they
// change, and the ones that need more than a list (sed -i, awk -i inplace, sort -o, uniq OUTPUT, dd of=, find
// -delete/-exec).
import path from 'node:path';
import { noteLink, noteMove } from '../shellFiles';
import type { ShellWord } from '../shellTypes';
import { has, isInPlace, literal, operands, optionValues, type Handler, type Uses } from './shared';

/** Commands that only read the paths they are given (or print, list, test, compare them). */
export const READS = new Set(
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
export const WRITES_ALL = new Set(
  (
    'rm rmdir unlink shred truncate touch chmod chown chgrp chattr setfacl sponge tee ex vi vim nvim view nano ' +
    'emacs ed pico micro joe mg kak hx gzip gunzip bzip2 bunzip2 xz unxz lzma zstd unzstd lz4 compress ' +
    'uncompress dos2unix unix2dos mv mkfifo mknod split csplit'
  ).split(/\s+/),
);
/** Commands whose last operand (or -t DIR) is the target, the others read. */
export const WRITES_LAST = new Set(['cp', 'install', 'ln', 'rsync', 'scp', 'link']);

export function writesAll(name: string, args: ShellWord[], use: Uses): void {
  use.all(operands(args), 'write', name);
  if (name === 'mv') followLinks(args, use, 'move');
}

export function writesLast(name: string, args: ShellWord[], use: Uses): void {
  const targets = optionValues(args, ['-t', '--target-directory']);
  use.all(targets.length > 0 ? targets : operands(args).slice(-1), 'write', name);
  const shortFlags = args
    .filter((w) => /^-[^-]/.test(w.text))
    .map((w) => w.text.slice(1))
    .join('');
  if (name === 'ln' || name === 'link') {
    const symbolic = /s/.test(shortFlags) || has(args, '--symbolic');
    const relative = /r/.test(shortFlags) || has(args, '--relative');
    followLinks(args, use, symbolic && !relative ? 'symlink' : 'link');
  } else if (name === 'cp') {
    if (/[sl]/.test(shortFlags) || has(args, '--symbolic-link', '--link')) followLinks(args, use, 'link');
    // A copied folder keeps the links inside it (cp -r/-a do not follow them).
    else if (/[rRa]/.test(shortFlags) || has(args, '--recursive', '--archive'))
      followLinks(args, use, 'move');
  }
}

/**
 * Links a command makes (`ln -s test t`, `cp -s`, a hard link) or carries to a new name (`mv d e`, `cp -r d e`
 * with links inside), recorded so a later write through the new name counts for what it stands for. The
 * destination may be a folder the sources go into, or the new name itself: both are recorded.
 */
function followLinks(args: ShellWord[], use: Uses, kind: 'symlink' | 'link' | 'move'): void {
  const valued = ['-t', '--target-directory', '-S', '--suffix'];
  const ops = operands(args.filter((_, i) => !valued.includes(args[i - 1]?.text ?? '')));
  const into = optionValues(args, ['-t', '--target-directory'])[0];
  const sources = into ? ops : ops.length > 1 ? ops.slice(0, -1) : ops;
  const destination = into ?? (ops.length > 1 ? ops[ops.length - 1] : literal('.'));
  if (!destination) return;
  const { files, dirs } = use.ctx.state;
  for (const source of sources) {
    if (!source.exact) continue;
    const named = [{ ...destination, text: path.join(destination.text, path.basename(source.text)) }];
    if (!into && ops.length === 2) named.push(destination);
    for (const link of named)
      if (kind === 'move') noteMove(files, dirs, source, link);
      else noteLink(files, dirs, source, link, kind === 'symlink');
  }
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

function find(args: ShellWord[], use: Uses): void {
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
    for (const start of starts) use.run(command.map((w) => (w.text === '{}' ? start : w)));
    i = end < 0 ? args.length : end;
  }
}

export const FILE_TOOLS: Record<string, Handler> = {
  sed: (args, use) => {
    if (args.some((w) => isInPlace(w.text))) use.all(operands(args), 'write', 'sed -i');
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
  find: find,
};
