// What a task records about the project at its base: its version (SWE-bench's `version` field) and the runtime
// the Harbor environment's base image provides. Read from the files projects really keep them in.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseToml } from '../toml';

export interface Runtime {
  kind: 'node' | 'python' | 'other';
  /** The Docker base image, e.g. node:22-bookworm, python:3.12-slim. */
  image: string;
  /** Where the choice came from, for the Dockerfile's comment. */
  source: string;
}

const DEFAULT_NODE_MAJOR = 22;
const DEFAULT_PYTHON = '3.12';
// Both images ship python3 (test.sh scores with it) and sh; the Node one is Debian's full image, which has git.
const nodeImage = (major: number): string => `node:${major}-bookworm`;
const pythonImage = (version: string): string => `python:${version}-slim`;

/** package.json `version`, pyproject's [project] / [tool.poetry] version, or a `__version__ = "…"` literal. */
export async function projectVersion(treeDir: string): Promise<string> {
  const pkg = await readJson(path.join(treeDir, 'package.json'));
  if (typeof pkg?.version === 'string') return pkg.version;
  const pyproject = await readToml(path.join(treeDir, 'pyproject.toml'));
  const declared =
    tableAt(pyproject, 'project')?.version ?? tableAt(tableAt(pyproject, 'tool'), 'poetry')?.version;
  if (typeof declared === 'string') return declared;
  for (const file of await versionModules(treeDir)) {
    const text = await fs.readFile(path.join(treeDir, file), 'utf8').catch(() => '');
    const literal = /^__version__\s*(?::\s*str\s*)?=\s*['"]([^'"]+)['"]/m.exec(text)?.[1];
    if (literal !== undefined) return literal;
  }
  return '0.0.0';
}

/** The base image for the project's runtime: engines.node / .nvmrc / .node-version, or requires-python. */
export async function detectRuntime(treeDir: string): Promise<Runtime> {
  const pkg = await readJson(path.join(treeDir, 'package.json'));
  for (const file of ['.nvmrc', '.node-version']) {
    const text = (await fs.readFile(path.join(treeDir, file), 'utf8').catch(() => '')).trim();
    const major = /^v?(\d+)/.exec(text)?.[1];
    if (major !== undefined) return { kind: 'node', image: nodeImage(Number(major)), source: file };
  }
  if (pkg !== undefined) {
    const engines = pkg.engines as Record<string, unknown> | undefined;
    const range = typeof engines?.node === 'string' ? engines.node : undefined;
    const major = range === undefined ? undefined : lowestMajor(range);
    return major === undefined
      ? { kind: 'node', image: nodeImage(DEFAULT_NODE_MAJOR), source: 'package.json (no engines.node)' }
      : {
          kind: 'node',
          image: nodeImage(Math.max(major, 18)),
          source: `package.json engines.node "${range}"`,
        };
  }
  const pyproject = await readToml(path.join(treeDir, 'pyproject.toml'));
  const requires = tableAt(pyproject, 'project')?.['requires-python'];
  if (typeof requires === 'string') {
    const minor = /(?:>=|~=|==|\^)\s*3\.(\d+)/.exec(requires)?.[1];
    const version = minor === undefined ? DEFAULT_PYTHON : `3.${Math.max(Number(minor), 9)}`;
    return {
      kind: 'python',
      image: pythonImage(version),
      source: `pyproject.toml requires-python "${requires}"`,
    };
  }
  for (const file of [
    'pyproject.toml',
    'setup.py',
    'setup.cfg',
    'requirements.txt',
    'tox.ini',
    'pytest.ini',
  ]) {
    if (await exists(path.join(treeDir, file)))
      return { kind: 'python', image: pythonImage(DEFAULT_PYTHON), source: file };
  }
  if ((await fs.readdir(treeDir).catch(() => [] as string[])).some((f) => f.endsWith('.py')))
    return { kind: 'python', image: pythonImage(DEFAULT_PYTHON), source: '*.py files' };
  return {
    kind: 'other',
    image: 'python:3.12-slim',
    source: 'no runtime detected (python3 is needed by test.sh)',
  };
}

/** ">=22", "^20.10", "18.x || >=20", "v22" → the lowest major the range admits. */
function lowestMajor(range: string): number | undefined {
  const majors = [...range.matchAll(/(?:^|[\s|^~>=v])(\d+)(?:\.|x|\s|$)/g)].map((m) => Number(m[1]));
  return majors.length === 0 ? undefined : Math.min(...majors);
}

async function versionModules(treeDir: string): Promise<string[]> {
  const out: string[] = [];
  for (const base of ['.', 'src']) {
    const entries = await fs.readdir(path.join(treeDir, base), { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'tests')
        out.push(
          path.posix.join(base, entry.name, '__init__.py'),
          path.posix.join(base, entry.name, '_version.py'),
        );
      else if (entry.isFile() && entry.name.endsWith('.py') && !entry.name.startsWith('test'))
        out.push(path.posix.join(base, entry.name));
    }
  }
  return out;
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function readToml(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    return parseToml(await fs.readFile(file, 'utf8'));
  } catch {
    return undefined; // absent or not valid TOML: no facts from it
  }
}

function tableAt(
  value: Record<string, unknown> | undefined,
  key: string,
): Record<string, unknown> | undefined {
  const table = value?.[key];
  return table !== null && typeof table === 'object' && !Array.isArray(table)
    ? (table as Record<string, unknown>)
    : undefined;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
