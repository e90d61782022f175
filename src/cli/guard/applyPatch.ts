// Codex's `apply_patch` in every form it reaches the guard: the apply_patch tool (the envelope in
// `tool_input.command`), `apply_patch <<'EOF' … EOF` inside a shell command (Codex runs it itself; its hook says
// `tool_name: "Bash"`), `… | apply_patch` and `apply_patch "PATCH"` (Codex puts an `apply_patch` program on the
// shell's PATH), and a tool input whose `command` is an argument array (["apply_patch", "*** Begin Patch…"]).
// The envelope (codex-rs apply-patch's grammar): `*** Begin Patch`, then per file `*** Add File: P`,
// `*** Delete File: P` or `*** Update File: P` (optionally followed by `*** Move to: Q`), then `*** End Patch`.
// Codex trims each line before matching these markers, so they are matched here with the same tolerance. Every path
// a patch names is a path it writes; a patch the guard cannot read (piped from another program, a substitution)
// is a write to targets it cannot see.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { CommandContext, ShellWord } from './shellTypes';

export type PatchOperation = 'add' | 'update' | 'delete' | 'move';

export interface PatchTarget {
  path: string;
  op: PatchOperation;
}

const MARKER = /^\s*\*\*\* (Add File|Update File|Delete File|Move to):\s*(.*?)\s*$/;
const OPERATIONS: Record<string, PatchOperation> = {
  'Add File': 'add',
  'Update File': 'update',
  'Delete File': 'delete',
  'Move to': 'move',
};

/** Every path an apply_patch envelope adds, updates, deletes or moves a file to, in order. */
export function patchEnvelopeTargets(patch: string): PatchTarget[] {
  const targets: PatchTarget[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const m = MARKER.exec(line);
    if (m && m[2] !== '') targets.push({ path: m[2]!, op: OPERATIONS[m[1]!]! });
  }
  return targets;
}

/** The program names Codex gives its patch tool on the shell's PATH. */
export const APPLY_PATCH_PROGRAMS = ['apply_patch', 'applypatch'] as const;

/**
 * An argument array as one shell command line (each word single-quoted), so the shell reader reads it the way the
 * agent's tool runs it: `["bash", "-lc", "apply_patch <<'EOF' …"]`, `["sed", "-i", …]`, `["apply_patch", P]`.
 */
export function argvAsShell(argv: readonly string[]): string {
  return argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
}

/**
 * `apply_patch` as a command in a shell line: the patch is its first argument, else its stdin (a heredoc or
 * herestring, text echoed into it, a file redirected into it). Each target is reported as a write; a patch the
 * guard cannot read is an unresolved write, so the guard denies it and says how to do it readably.
 */
export function applyPatchCommand(args: ShellWord[], _use: unknown, ctx: CommandContext): void {
  const how = 'apply_patch';
  const given = args.find((w) => w.text !== '--');
  let patch: string | undefined;
  let source: string;
  if (given !== undefined) {
    source = given.text;
    patch = given.exact ? given.text : undefined;
  } else if (ctx.stdin !== undefined) {
    source = 'stdin';
    patch = decodeEchoed(ctx.stdin);
  } else if (ctx.stdinFile !== undefined) {
    source = ctx.stdinFile.text;
    patch = readSmallFile(ctx.stdinFile, ctx.state.dirs);
  } else source = 'stdin';
  const targets = patch === undefined ? [] : patchEnvelopeTargets(patch);
  if (targets.length === 0) {
    ctx.emit({
      kind: 'unresolved',
      text: source.length > 80 ? `${source.slice(0, 77)}...` : source,
      how:
        `${how} with a patch the guard cannot read (piped from another program, made by the command, or not an ` +
        "envelope); use Codex's apply_patch tool or write the patch in a heredoc (apply_patch <<'EOF' … EOF)",
    });
    return;
  }
  for (const t of targets)
    ctx.emit({
      kind: 'path',
      word: { text: t.path, exact: true, glob: false },
      dirs: ctx.state.dirs,
      access: 'write',
      how: `${how} (${t.op === 'move' ? 'Move to' : `${t.op[0]!.toUpperCase()}${t.op.slice(1)} File`})`,
    });
}

/** The handlers the shell command table adds for apply_patch (commands/dispatch.ts's HANDLERS). */
export const APPLY_PATCH_HANDLERS = Object.fromEntries(
  APPLY_PATCH_PROGRAMS.map((name) => [name, applyPatchCommand]),
) as Record<(typeof APPLY_PATCH_PROGRAMS)[number], typeof applyPatchCommand>;

/**
 * What a pipeline's producer wrote, as the reader hands it over: `echo`/`printf` arguments as written (quotes
 * and all). Outer quotes are dropped and `\n` escapes become lines when there is no real line break, so a patch
 * printed by `printf '*** Begin Patch\n…'` is read as printf would print it.
 */
function decodeEchoed(text: string): string {
  let out = text.trim();
  const quoted = /^(?:%s\s+|-e\s+|-n\s+)*(['"])([\s\S]*)\1$/.exec(out);
  if (quoted) out = quoted[2]!;
  if (!out.includes('\n') && out.includes('\\n')) out = out.replace(/\\n/g, '\n');
  return out;
}

function readSmallFile(word: ShellWord, dirs: readonly string[] | undefined): string | undefined {
  if (!word.exact) return undefined;
  const bases = path.isAbsolute(word.text) ? ['/'] : dirs;
  if (bases?.length !== 1) return undefined;
  const file = path.resolve(bases[0]!, word.text);
  try {
    if (!existsSync(file) || statSync(file).size > 4_000_000) return undefined;
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
