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
