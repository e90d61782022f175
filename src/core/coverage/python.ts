// Reads what the Python hook (pythonTracer.ts) wrote: per file, the code objects that ran, as
// [co_qualname, co_firstlineno]. Files outside the workspace are already left out by the hook.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { workspaceRelative } from './v8';

export type PythonCode = [qualname: string, firstLine: number];

export async function readPythonCoverage(
  dir: string,
  workspaceDir: string,
): Promise<Map<string, PythonCode[]>> {
  const out = new Map<string, PythonCode[]>();
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  for (const name of names) {
    let files: Record<string, unknown>;
    try {
      const parsed = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as { files?: unknown };
      if (typeof parsed.files !== 'object' || parsed.files === null) continue;
      files = parsed.files as Record<string, unknown>;
    } catch {
      continue;
    }
    for (const [file, codes] of Object.entries(files)) {
      const rel = workspaceRelative(file, workspaceDir);
      if (rel === undefined || !Array.isArray(codes) || rel.split('/').includes('site-packages')) continue;
      const list = out.get(rel) ?? [];
      for (const c of codes) {
        if (Array.isArray(c) && typeof c[0] === 'string' && typeof c[1] === 'number') list.push([c[0], c[1]]);
      }
      out.set(rel, list);
    }
  }
  return out;
}

/** `Cache.<locals>.helper.<listcomp>` → `Cache.helper`: the named definitions tree-sitter knows. */
export function definitionName(qualname: string): string {
  return qualname
    .split('.')
    .filter((part) => part !== '<locals>')
    .filter((part, i, all) => !(part.startsWith('<') && i === all.length - 1 && all.length > 1))
    .join('.');
}
