// Formatters and fixers (prettier --write, eslint --fix, black, ruff, gofmt -w, cargo fmt, deno fmt …): writers
// of their operands, or of the current folder when they name none; their check modes only read.
import type { ShellWord } from '../shellTypes';
import { interpreter } from './interpreters';
import { has, literal, operands, type Handler } from './shared';

function formatter(writes: (args: ShellWord[]) => boolean, how: string): Handler {
  return (args, use) => {
    const ops = operands(args).filter((w) => !['format', 'check', 'lint', 'fmt', 'ci'].includes(w.text));
    if (writes(args)) use.all(ops.length > 0 ? ops : [literal('.')], 'write', how);
  };
}

export const FORMATTERS: Record<string, Handler> = {
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
