// Who the code in the sandbox is. Weave often runs as root (CI, containers), and a sandbox that keeps root keeps
// its capabilities: mount, umount, remount a read-only bind read-write, nsenter. bubblewrap's own answer, a user
// namespace with `--uid 1000`, drops the capabilities but maps that uid to root outside, so root-owned files stay
// readable by owner permission (/etc/shadow was, measured) and RLIMIT_NPROC is not enforced. So:
//  - as root: bubblewrap sets the sandbox up with root's rights (it must read the binds' sources), then the
//    command runs through `setpriv` as the unprivileged uid/gid 65534 (nobody) with every capability, the
//    bounding set and the inheritable set cleared and no_new_privs; the folders it may write are handed to that uid
//    (its checkout and scratch folders only — never a file of the user's);
//  - as any other user: bubblewrap's unprivileged mode in a user namespace of its own (`--unshare-user`), which
//    already holds no capability over anything outside, and may not create further user namespaces.
import { promises as fs } from 'node:fs';
import path from 'node:path';

export const SANDBOX_UID = 65534;
export const SANDBOX_GID = 65534;

export function runsAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** bwrap arguments for the namespace part of the identity (before the command). */
export function identityArguments(asRoot: boolean): string[] {
  return asRoot ? [] : ['--unshare-user', '--disable-userns'];
}

/** The program and arguments that drop to the sandbox's uid before the command after them (root only). */
export function dropPrivilegeArguments(asRoot: boolean): string[] {
  if (!asRoot) return [];
  return [
    '/usr/bin/setpriv',
    `--reuid=${SANDBOX_UID}`,
    `--regid=${SANDBOX_GID}`,
    '--clear-groups',
    '--inh-caps=-all',
    '--bounding-set=-all',
    '--no-new-privs',
    '--',
  ];
}

/**
 * Gives the sandbox's uid the folders it may write, when running as root: `checkout` and `dirs` recursively.
 * Paths in `skip` (dependency mount points, the checkout's .git) keep their owner: they are read-only inside. The
 * checkout's top folder keeps root as its owner — git refuses a work tree owned by another uid, and Weave's own git
 * calls on the checkout must keep working — and is opened to every uid (0777) instead.
 */
export async function grantWrites(
  checkout: string,
  dirs: readonly string[],
  skip: ReadonlySet<string>,
): Promise<void> {
  if (!runsAsRoot()) return;
  const top = path.resolve(checkout);
  await fs.chmod(top, 0o777).catch(() => undefined);
  await chownChildren(top, skip);
  for (const dir of dirs) await chownTree(path.resolve(dir), skip);
}

async function chownTree(dir: string, skip: ReadonlySet<string>): Promise<void> {
  if (skip.has(dir)) return;
  await fs.lchown(dir, SANDBOX_UID, SANDBOX_GID).catch(() => undefined);
  await chownChildren(dir, skip);
}

async function chownChildren(dir: string, skip: ReadonlySet<string>): Promise<void> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  await Promise.all(
    entries.map(async (entry) => {
      const child = path.join(dir, entry.name);
      if (entry.isDirectory()) await chownTree(child, skip);
      else if (!skip.has(child)) await fs.lchown(child, SANDBOX_UID, SANDBOX_GID).catch(() => undefined);
    }),
  );
}
