// Runs one simple command's words through the guard's command table (src/cli/guard/commands) in process and
// returns what it reported, one line an effect: `write test/a.js (sed -i)`, `other x (python3)`, `unresolved
// stdin`, `inline CODE`, `shell SOURCE` (shell code it hands back to the reader), `dirs /w/test` (where this
// command runs, when it changed). Words are exact unless given as objects.
import { commandEffects } from '../../../src/cli/guard/commands/dispatch';
import { emptyFiles } from '../../../src/cli/guard/shellFiles';
import type { CommandContext, ShellFiles, ShellState, ShellWord } from '../../../src/cli/guard/shellTypes';

export const CWD = '/w';

export interface EffectsOptions {
  stdin?: string;
  stdinFile?: string;
  vars?: Record<string, string>;
  /** Links and files earlier parts of the command made. */
  files?: ShellFiles;
}

export function effectsOf(argv: Array<string | ShellWord>, options: EffectsOptions = {}): string[] {
  const out: string[] = [];
  const files = options.files ?? emptyFiles();
  const vars = new Map<string, string | undefined>(Object.entries(options.vars ?? {}));
  const state: ShellState = { dirs: [CWD], stack: [], vars, arrays: new Map(), files };
  const shellState: ShellState = { dirs: [CWD], stack: [], vars, arrays: state.arrays, files };
  const ctx: CommandContext = {
    state,
    shellState,
    stdin: options.stdin,
    stdinFile: options.stdinFile === undefined ? undefined : word(options.stdinFile),
    emit: (e) => {
      if (e.kind === 'path')
        out.push(
          `${e.access} ${e.word.text}${e.dirs?.[0] === CWD ? '' : ` in ${String(e.dirs)}`} (${e.how})`,
        );
      else if (e.kind === 'unresolved') out.push(`unresolved ${e.text}`);
      else out.push(`inline ${e.code}`);
    },
    shell: (source) => out.push(`shell ${source}`),
  };
  commandEffects(
    argv.map((w) => (typeof w === 'string' ? word(w) : w)),
    ctx,
  );
  if (shellState.dirs?.[0] !== CWD) out.push(`cwd ${String(shellState.dirs)}`);
  return out;
}

export function word(text: string): ShellWord {
  return { text, exact: true, glob: false };
}

/** A word the reader could not expand (a substitution, an unknown variable). */
export function opaque(text: string): ShellWord {
  return { text, exact: false, glob: false };
}

/** Only the kinds and targets, without the how: `write test/a.js`. */
export function targets(lines: string[]): string[] {
  return lines.map((l) => l.replace(/ \(.*\)$/, ''));
}
