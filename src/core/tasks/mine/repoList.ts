// The repository list `weave mine --repos FILE` reads: one repository a line, `SOURCE [A..B] [SUBFOLDER]`, `#`
// comments and blank lines ignored. SOURCE is a git URL or a local path (relative to the list's folder). Every
// problem is located (file:line) and reported before anything is cloned.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { InputError } from '../../errors';

export class MineInputError extends InputError {}

export interface RepositoryEntry {
  /** The line as written (minus comments), which names the repository in every output: its key's source. */
  line: string;
  /** Where it was read, for messages: FILE:LINE. */
  at: string;
  /** A git URL, or an absolute local path. */
  source: string;
  /** A revision range (`A..B`); default: the history of HEAD. */
  range: string | undefined;
  /** The project's folder inside the repository ('' for its root). */
  subdir: string;
  /** A stable folder name: the repository's name and 8 hex digits of its line. */
  key: string;
}

const RANGE = /^[^\s.][^\s]*\.\.[^\s]+$/;

export async function readRepositoryList(file: string): Promise<RepositoryEntry[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new MineInputError(
      `--repos ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
  return parseRepositoryList(text, file);
}

export function parseRepositoryList(text: string, file: string): RepositoryEntry[] {
  const entries: RepositoryEntry[] = [];
  const seen = new Map<string, string>();
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    const at = `${file}:${index + 1}`;
    const [source, ...rest] = line.split(/\s+/) as [string, ...string[]];
    let range: string | undefined;
    let subdir = '';
    for (const word of rest) {
      if (RANGE.test(word) && range === undefined) range = word;
      else if (subdir === '' && !word.includes('..')) subdir = word.replace(/^\.\/|\/+$/g, '');
      else throw new MineInputError(`${at}: '${word}' is neither a revision range (A..B) nor a subfolder`);
    }
    if (path.isAbsolute(subdir) || subdir.split('/').includes('..'))
      throw new MineInputError(
        `${at}: the subfolder '${subdir}' must be a relative path inside the repository`,
      );
    const previous = seen.get(line);
    if (previous !== undefined) throw new MineInputError(`${at}: the same repository line as ${previous}`);
    seen.set(line, at);
    entries.push({
      line,
      at,
      source: resolveSource(source, path.dirname(path.resolve(file))),
      range,
      subdir: subdir === '.' ? '' : subdir,
      key: repositoryKey(source, line, subdir),
    });
  }
  if (entries.length === 0) throw new MineInputError(`--repos ${file} lists no repository`);
  return entries;
}

/** URLs (scheme://, user@host:path) stay as written; anything else is a path relative to the list's folder. */
function resolveSource(source: string, listDir: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[^@/\s]+@[^:/\s]+:/.test(source)) return source;
  return path.resolve(listDir, source);
}

function repositoryKey(source: string, line: string, subdir: string): string {
  const repoName =
    source
      .replace(/\.git$/, '')
      .split(/[/:]/)
      .filter((p) => p !== '')
      .at(-1) ?? 'repo';
  const base = subdir === '' ? repoName : `${repoName}-${subdir}`;
  const name =
    base
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 40) || 'repo';
  return `${name}-${createHash('sha256').update(line).digest('hex').slice(0, 8)}`;
}
