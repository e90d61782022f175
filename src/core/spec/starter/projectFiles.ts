// What `weave init` reads of a project: text of a few files, and the test files in the tree (walked without
// descending into dependencies, virtual environments, build output or hidden folders).
import { promises as fs } from 'node:fs';
import path from 'node:path';

const SKIPPED_FOLDERS = new Set([
  'node_modules',
  'venv',
  'env',
  'site-packages',
  'build',
  'dist',
  'out',
  'target',
  'coverage',
  '__pycache__',
]);
/** Enough for a starter; a tree with more test files than this gets the first ones, in path order. */
const MAX_TEST_FILES = 200;
const MAX_WALKED_ENTRIES = 20_000;

export async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

export async function exists(file: string): Promise<boolean> {
  return (await fs.stat(file).catch(() => undefined)) !== undefined;
}

/** Workspace-relative paths (forward slashes, sorted) of the files `isTestFile` accepts. */
export async function findTestFiles(
  workspaceDir: string,
  isTestFile: (relativePath: string) => boolean,
): Promise<string[]> {
  const found: string[] = [];
  let walked = 0;
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.readdir(path.join(workspaceDir, rel), { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (found.length >= MAX_TEST_FILES || ++walked > MAX_WALKED_ENTRIES) return;
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) await walk(child);
      } else if (entry.isFile() && isTestFile(child)) {
        found.push(child);
      }
    }
  };
  await walk('');
  return found.sort();
}
