// Handing the sandbox's uid what it may write, when Weave runs as root: the run's checkout and its scratch folders
// must belong to that uid, or the unprivileged code under test could not write its own outputs. A spec run is
// started many times on one checkout, and walking every file to chown it on each start cost about 15 ms per 1,000
// entries — a full spec run's sandbox overhead again on a mid-sized repository, paid before every spec. So each
// checkout's grant is remembered per folder: a new file, folder or link appears in a folder only through an entry
// change, which moves that folder's mtime; a rewrite in place keeps the owner. A later grant therefore re-reads only
// the folders whose mtime (or inode) moved since, and lstats the rest. A folder changed less than a second before it
// was read is read again next time, as a filesystem with coarse timestamps could hide a second change in the same tick.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { runsAsRoot, SANDBOX_GID, SANDBOX_UID } from './sandboxUser';

/** A folder as the last grant left it: which folder it was, its mtime then, and its subfolders. */
interface GrantedFolder {
  ino: bigint;
  mtimeNs: bigint;
  subfolders: string[];
}

/** Checkouts whose grants are remembered at once; an agent or eval works on one or a few at a time. */
const REMEMBERED_CHECKOUTS = 8;
const RECENT_NS = 1_000_000_000n;
/** Per checkout (and set of skipped paths): each folder granted. */
const grants = new Map<string, Map<string, GrantedFolder>>();

/**
 * Gives the sandbox's uid the folders it may write, when running as root: `checkout` and `dirs` recursively.
 * Paths in `skip` (dependency mount points, the checkout's .git) keep their owner: they are read-only inside. The
 * checkout's top folder keeps root as its owner — git refuses a work tree owned by another uid, and Weave's own git
 * calls on the checkout must keep working — and is opened to every uid (0777) instead. `dirs` are a run's own fresh
 * folders and are walked whole.
 */
export async function grantWrites(
  checkout: string,
  dirs: readonly string[],
  skip: ReadonlySet<string>,
): Promise<void> {
  if (!runsAsRoot()) return;
  const top = path.resolve(checkout);
  await fs.chmod(top, 0o777).catch(() => undefined);
  await grantChildren(top, skip, rememberedFor(top, skip));
  for (const dir of dirs) {
    const folder = path.resolve(dir);
    if (skip.has(folder)) continue;
    await fs.lchown(folder, SANDBOX_UID, SANDBOX_GID).catch(() => undefined);
    await grantChildren(folder, skip, new Map());
  }
}

function rememberedFor(top: string, skip: ReadonlySet<string>): Map<string, GrantedFolder> {
  const key = `${top}\0${[...skip].sort().join('\0')}`;
  const known = grants.get(key) ?? new Map<string, GrantedFolder>();
  grants.delete(key); // re-inserted last: the Map's order is the order of use
  grants.set(key, known);
  for (const oldest of grants.keys()) {
    if (grants.size <= REMEMBERED_CHECKOUTS) break;
    grants.delete(oldest);
  }
  return known;
}

/** chown the entries of `dir` (not `dir` itself) and below, re-reading only folders that changed since. */
async function grantChildren(
  dir: string,
  skip: ReadonlySet<string>,
  known: Map<string, GrantedFolder>,
): Promise<void> {
  let stat;
  try {
    stat = await fs.lstat(dir, { bigint: true });
  } catch {
    known.delete(dir);
    return;
  }
  const before = known.get(dir);
  if (before && before.ino === stat.ino && before.mtimeNs === stat.mtimeNs) {
    await Promise.all(before.subfolders.map((sub) => grantChildren(sub, skip, known)));
    return;
  }
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    known.delete(dir);
    return;
  }
  const subfolders: string[] = [];
  await Promise.all(
    entries.map(async (entry) => {
      const child = path.join(dir, entry.name);
      if (skip.has(child)) return;
      await fs.lchown(child, SANDBOX_UID, SANDBOX_GID).catch(() => undefined);
      if (entry.isDirectory()) {
        subfolders.push(child);
        await grantChildren(child, skip, known);
      }
    }),
  );
  const settled = BigInt(Date.now()) * 1_000_000n - stat.mtimeNs > RECENT_NS;
  if (settled) known.set(dir, { ino: stat.ino, mtimeNs: stat.mtimeNs, subfolders });
  else known.delete(dir);
}
