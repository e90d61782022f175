// A copy of the built Weave outside every temporary folder. `weave guard --install` refuses to write hooks that
// name a Weave living in one (an npx cache, /tmp: it can vanish under the hooks), and a checkout of this
// repository may itself be in /tmp (a CI clone can be), so tests of the absolute-path install run the CLI from
// here. The copy is dist/ (without source maps) beside a link to the repository's grammars/, which the CLI finds
// by walking up from dist/.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './paths';

export interface WeaveCopy {
  /** The copy's dist/ folder (cli.js, guard.js …). */
  dist: string;
  dispose(): Promise<void>;
}

export async function weaveOutsideTemp(): Promise<WeaveCopy> {
  const parent = path.join(os.homedir(), '.cache', 'weave', 'test-installs');
  await fs.mkdir(parent, { recursive: true });
  const root = await fs.mkdtemp(path.join(parent, 'weave-'));
  const dist = path.join(root, 'dist');
  await fs.cp(path.join(REPO_ROOT, 'dist'), dist, { recursive: true, filter: (f) => !f.endsWith('.map') });
  await fs.symlink(path.join(REPO_ROOT, 'grammars'), path.join(root, 'grammars'));
  return { dist, dispose: () => fs.rm(root, { recursive: true, force: true }) };
}
