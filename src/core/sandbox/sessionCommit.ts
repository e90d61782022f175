// A commit's tree read the way the session backstop reads the work tree (sessionRecord.ts's readProtected): a
// workspace-relative path's bytes, a link as `symlink:TARGET`, a link on the way as `symlink:parent P -> TARGET`,
// undefined when absent. The git pre-push hook compares the commits being pushed with the session's record
// through it, so a tampered test committed with `--no-verify` is still refused at the push.
import { git, gitBuffer, splitNul } from '../git/git';
import { SYMLINK_PREFIX } from './sessionRecord';

interface TreeEntry {
  mode: string;
  object: string;
}

const LINK_MODE = '120000';

export async function commitFileReader(
  workspaceDir: string,
  commit: string,
): Promise<(rel: string) => Promise<Buffer | undefined>> {
  // The workspace may be a folder inside the repository: tree paths are the repository's.
  const prefix = (await git(['rev-parse', '--show-prefix'], workspaceDir)).trim();
  const entries = new Map<string, TreeEntry>();
  for (const line of splitNul(await git(['ls-tree', '-r', '-z', '--full-tree', commit], workspaceDir))) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode, , object] = line.slice(0, tab).split(' ');
    if (mode !== undefined && object !== undefined) entries.set(line.slice(tab + 1), { mode, object });
  }
  const blob = (object: string): Promise<Buffer> => gitBuffer(['cat-file', 'blob', object], workspaceDir);
  return async (rel) => {
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = entries.get(prefix + parts.slice(0, i).join('/'));
      if (parent === undefined) continue;
      if (parent.mode !== LINK_MODE) return undefined; // a file where a folder should be
      const target = (await blob(parent.object)).toString();
      return Buffer.from(`${SYMLINK_PREFIX}parent ${parts.slice(0, i).join('/')} -> ${target}`);
    }
    const entry = entries.get(prefix + rel);
    if (entry === undefined || entry.mode === '160000') return undefined; // absent, or a submodule
    const content = await blob(entry.object);
    return entry.mode === LINK_MODE ? Buffer.from(`${SYMLINK_PREFIX}${content.toString()}`) : content;
  };
}
