// Content identity shared with git: the blob id `git hash-object` gives, so that coverage recorded on a file can
// be compared with the file at the base of a change (`git ls-tree REF`) without reading that content.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { git } from '../git/git';

export function blobHash(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

/** Blob id of a workspace file on disk, or undefined when it cannot be read. */
export async function fileBlobHash(workspaceDir: string, rel: string): Promise<string | undefined> {
  try {
    return blobHash(await fs.readFile(path.join(workspaceDir, rel)));
  } catch {
    return undefined;
  }
}

/** Workspace-relative path → blob id of every file in REF's tree under the workspace folder. */
export async function blobHashesAt(workspaceDir: string, ref: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  // In a subfolder of the repository, ls-tree lists that folder with paths relative to it.
  const listing = await git(['ls-tree', '-r', '-z', '--full-name', ref, '--', '.'], workspaceDir);
  const prefix = (await git(['rev-parse', '--show-prefix'], workspaceDir)).trim();
  for (const entry of listing.split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (!m) continue;
    const full = m[2]!;
    out.set(full.startsWith(prefix) ? full.slice(prefix.length) : full, m[1]!);
  }
  return out;
}
