// The one spelling of a workspace-relative path ('./src\\a.js' → 'src/a.js'), shared by git's change lists,
// anchors and blame: a base helper so the low layers (git) and the high ones compare paths alike.
import path from 'node:path';

/** './src\\a.js' → 'src/a.js'; '.' and '' → ''. */
export function normalizeWorkspacePath(p: string): string {
  const slashed = p.trim().replace(/\\/g, '/');
  if (slashed === '' || slashed === '.' || slashed === './') return '';
  return path.posix.normalize(slashed).replace(/^\.\//, '').replace(/\/$/, '');
}
