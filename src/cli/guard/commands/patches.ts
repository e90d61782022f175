// Patches: `patch` and `git apply`/`git am` write the files their patch names (read from the patch file or the
// heredoc fed to them), and the file list of a unified/git diff, shared with Codex's apply_patch envelope
// (hookEvents.ts).
import type { CommandContext, ShellWord } from '../shellTypes';
import { literal, operands, optionValues, readText, type Handler, type Uses } from './shared';

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

/** `git apply` / `git am` (rest: the words after the subcommand): every file the patches name. */
export function gitApply(rest: ShellWord[], use: Uses, ctx: CommandContext, how: string): void {
  const files = operands(rest);
  const texts =
    files.length > 0
      ? files.map((f) => readText(f, ctx))
      : [ctx.stdinFile ? readText(ctx.stdinFile, ctx) : ctx.stdin];
  if (texts.some((t) => t === undefined))
    use.unresolved(files.map((f) => f.text).join(' ') || 'stdin', `${how} of a patch the guard cannot read`);
  for (const t of texts) for (const target of diffTargets(t ?? '')) use.path(literal(target), 'write', how);
}

export const PATCHES: Record<string, Handler> = {
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
};
