// What a patch may never carry into the user's workspace, whatever the review says: changes under `.weave/`
// (the spec file, runs, caches: Weave's own state, which an agent's patch has no business writing) and symbolic
// links that point outside the workspace (`cfg.js -> /etc/passwd`: harmless in the checkout, a read or write of
// another file once applied), and files whose content runs outside every sandbox (agent hooks, git hooks, editor
// tasks: outsideSandbox.ts). Read from the patch text itself — git's extended headers say which entries are links
// (mode 120000) and a link's blob is its target — so the check holds for any patch, however it was made.
import path from 'node:path';
import { runsOutsideSandbox } from './outsideSandbox';

export interface PatchHazard {
  path: string;
  why: string;
}

const LINK_MODE = '120000';

/** Every entry of a `git diff` patch that must not be applied, with why. */
export function patchHazards(patch: string): PatchHazard[] {
  const hazards: PatchHazard[] = [];
  for (const entry of patchEntries(patch)) {
    for (const p of [entry.from, entry.to]) {
      if (p !== undefined && isWeaveState(p)) {
        hazards.push({ path: p, why: "changes Weave's own state under .weave/" });
        break;
      }
    }
    for (const p of new Set([entry.from, entry.to])) {
      const why = p === undefined ? undefined : runsOutsideSandbox(p, entry.lines);
      if (p !== undefined && why !== undefined) hazards.push({ path: p, why: `${why}: never applied` });
    }
    if (entry.to !== undefined && entry.linkTarget !== undefined) {
      const target = entry.linkTarget;
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(entry.to), target));
      if (path.posix.isAbsolute(target) || resolved === '..' || resolved.startsWith('../')) {
        hazards.push({ path: entry.to, why: `is a symbolic link to ${target}, outside the workspace` });
      }
    }
  }
  return hazards;
}

interface PatchEntry {
  from?: string;
  to?: string;
  /** The new content of an entry whose new mode is a symbolic link: its target. */
  linkTarget?: string;
  /** The hunks' added and context lines (what settings a change sets or sits beside). */
  lines: string[];
}

function patchEntries(patch: string): PatchEntry[] {
  const entries: PatchEntry[] = [];
  let current: (PatchEntry & { isLink: boolean; inHunk: boolean }) | undefined;
  const lines = patch.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const header = /^diff --git (?:"?a\/(.+?)"?) (?:"?b\/(.+?)"?)$/.exec(line);
    if (header) {
      current = {
        from: unquote(header[1] as string),
        to: unquote(header[2] as string),
        isLink: false,
        inHunk: false,
        lines: [],
      };
      entries.push(current);
      continue;
    }
    if (!current) continue;
    if (line.startsWith('@@')) current.inHunk = true;
    else if (current.inHunk && (line.startsWith('+') || line.startsWith(' ')))
      current.lines.push(line.slice(1));
    if (line.startsWith('new file mode ') || line.startsWith('new mode ')) {
      current.isLink = line.endsWith(LINK_MODE);
    } else if (line === '+++ /dev/null') {
      delete current.to;
    } else if (current.isLink && line.startsWith('+') && !line.startsWith('+++')) {
      current.linkTarget = line.slice(1);
    }
  }
  return entries;
}

function isWeaveState(p: string): boolean {
  const normal = path.posix.normalize(p);
  return normal === '.weave' || normal.startsWith('.weave/');
}

/** git quotes paths with unusual bytes in C style ("a/\303\251.js"); only the escapes matter here. */
function unquote(p: string): string {
  return p.replace(/\\(["\\])/g, '$1');
}
