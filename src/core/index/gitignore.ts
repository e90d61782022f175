// A small .gitignore matcher for workspaces outside git (inside git, git itself decides: workspaceFiles.ts).
// Supports comments, `!` negation, trailing `/` (folders only), anchoring (a leading or inner `/`), `*`, `?`,
// `[...]` and `**`. The last matching rule wins, across the .gitignore files from the root down. As in git,
// nothing inside an ignored folder can be re-included (the walk never enters it).
import fs from 'node:fs';

interface Rule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

export class GitignoreRules {
  constructor(private readonly rules: readonly Rule[] = []) {}

  /** These rules plus the ones in `gitignoreFile` (if it exists), whose folder is `baseRel` ('' = root). */
  withFile(gitignoreFile: string, baseRel: string): GitignoreRules {
    let text: string;
    try {
      text = fs.readFileSync(gitignoreFile, 'utf8');
    } catch {
      return this;
    }
    const added = text
      .split(/\r?\n/)
      .map((line) => parseRule(line, baseRel))
      .filter((r): r is Rule => r !== undefined);
    return added.length === 0 ? this : new GitignoreRules([...this.rules, ...added]);
  }

  ignores(relPath: string, isDir: boolean): boolean {
    let ignored = false;
    for (const rule of this.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(relPath)) ignored = !rule.negate;
    }
    return ignored;
  }
}

function parseRule(line: string, baseRel: string): Rule | undefined {
  let pattern = line.replace(/(?<!\\)\s+$/, '');
  if (pattern === '' || pattern.startsWith('#')) return undefined;
  const negate = pattern.startsWith('!');
  if (negate) pattern = pattern.slice(1);
  if (pattern.startsWith('\\')) pattern = pattern.slice(1);
  const dirOnly = pattern.endsWith('/');
  if (dirOnly) pattern = pattern.slice(0, -1);
  const anchored = pattern.includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  if (pattern === '') return undefined;
  const prefix = baseRel === '' ? '' : `${escapeRegex(baseRel)}/`;
  const body = globToRegex(pattern);
  const regex = new RegExp(anchored ? `^${prefix}${body}$` : `^${prefix}(?:.*/)?${body}$`);
  return { regex, negate, dirOnly };
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
        if (atStart && atEnd) {
          // `**/` = any number of folders (including none); a trailing `/**` = everything inside.
          if (i + 2 === glob.length) out += '.*';
          else {
            out += '(?:.*/)?';
            i++; // skip the slash too
          }
          i++;
          continue;
        }
      }
      out += '[^/]*';
    } else if (ch === '?') out += '[^/]';
    else if (ch === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close === -1) out += '\\[';
      else {
        out += `[${glob
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (ch === '\\' && i + 1 < glob.length) {
      out += escapeRegex(glob[i + 1]!);
      i++;
    } else out += escapeRegex(ch);
  }
  return out;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
