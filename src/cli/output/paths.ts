// How the CLI shows a file path: the one rule for tables, problems and summaries, and the one for CI reports.
import path from 'node:path';

/** Relative to the current directory when inside it: short, and clickable in terminals. */
export function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** GitHub resolves annotation paths against the checkout (GITHUB_WORKSPACE), else the current directory. */
export function annotationPath(file: string): string {
  const base = process.env.GITHUB_WORKSPACE ?? process.cwd();
  const relative = path.relative(base, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}
