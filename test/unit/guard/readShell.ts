// Reads a whole shell command with the guard's reader (tree-sitter-bash, in process) and returns its effects one a
// line, as effects.ts does for one simple command: `write /w/t/a.test.js (…)` — paths are made absolute from the
// directories the reader says the command runs in, so a test states where a write lands.
import path from 'node:path';
import { bashParse } from '../../../src/cli/guard/bashSyntax';
import { readShell } from '../../../src/cli/guard/shellReader';

export async function readOf(source: string, cwd = '/w'): Promise<string[]> {
  const effects = readShell(await bashParse(), source, cwd);
  return effects.map((e) => {
    if (e.kind === 'unresolved') return `unresolved ${e.text}`;
    if (e.kind === 'inline') return `inline ${e.code}`;
    const where =
      e.dirs === undefined ? [`?/${e.word.text}`] : e.dirs.map((d) => path.resolve(d, e.word.text));
    return `${e.access} ${where.join(' | ')}`;
  });
}

/** Only the writes and the unresolved (what the verdict may refuse), without reads. */
export async function writesOf(source: string, cwd = '/w'): Promise<string[]> {
  return (await readOf(source, cwd)).filter((l) => !l.startsWith('read '));
}
