// What one command does to the file system before its later parts run, as far as they change what a later path
// means: links it makes (`ln -s test t && cat > t/x.test.js` writes test/x.test.js; `cp -s`, hard links, a folder
// holding a link renamed with `mv`) and files it writes (a script, a Makefile or a sourced file made here and then
// run was not on disk when the guard read the command, so what it runs cannot be read).
import path from 'node:path';
import type { ShellFiles, ShellWord } from './shellTypes';

const MAX_HOPS = 8;

export function emptyFiles(): ShellFiles {
  return { links: new Map(), written: new Set() };
}

/** The absolute paths a word names from each directory (none when a directory is unknown and it is relative). */
export function absolutePaths(word: ShellWord, dirs: readonly string[] | undefined): string[] {
  if (!word.exact) return [];
  if (path.isAbsolute(word.text)) return [path.resolve(word.text)];
  return (dirs ?? []).map((d) => path.resolve(d, word.text));
}

/** What an absolute path stands for through the links made so far (not the path itself); links of links too. */
export function throughLinks(files: ShellFiles, absolute: string): string[] {
  const out: string[] = [];
  let current = absolute;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    let next: string | undefined;
    for (const [link, target] of files.links)
      if (current === link || current.startsWith(`${link}/`)) {
        next = target + current.slice(link.length);
        break;
      }
    if (next === undefined || next === current || out.includes(next)) break;
    out.push(next);
    current = next;
  }
  return out;
}

/** Records `link` (as the command names it) standing for `target`; a relative symlink target is read from the
 * link's folder, a hard link's or `cp -s`'s from the working directory. */
export function noteLink(
  files: ShellFiles,
  dirs: readonly string[] | undefined,
  target: ShellWord,
  link: ShellWord,
  symbolic: boolean,
): void {
  for (const linkPath of absolutePaths(link, dirs)) {
    const base = symbolic ? path.dirname(linkPath) : undefined;
    const targetPaths = base
      ? absolutePaths(target, [base])
      : absolutePaths(target, dirs?.length === 1 ? dirs : undefined);
    for (const t of targetPaths) files.links.set(linkPath, t);
  }
}

/** `mv FROM TO`: what FROM stood for (or held links to), TO now does. */
export function noteMove(
  files: ShellFiles,
  dirs: readonly string[] | undefined,
  from: ShellWord,
  to: ShellWord,
): void {
  const froms = absolutePaths(from, dirs);
  const tos = absolutePaths(to, dirs);
  for (const f of froms)
    for (const [link, target] of [...files.links])
      if (link === f || link.startsWith(`${f}/`))
        for (const t of tos) files.links.set(t + link.slice(f.length), target);
}

export function noteWritten(files: ShellFiles, word: ShellWord, dirs: readonly string[] | undefined): void {
  for (const p of absolutePaths(word, dirs)) files.written.add(p);
}

/** Whether a file this command runs or reads as code was written earlier in it. */
export function writtenHere(
  files: ShellFiles,
  word: ShellWord,
  dirs: readonly string[] | undefined,
): boolean {
  return absolutePaths(word, dirs).some((p) => files.written.has(p));
}
