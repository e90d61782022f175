// Environment set-up commands recorded in the task (SWE-bench keeps these in per-repository install specs;
// a Weave task carries its own), chosen from what the workspace root holds:
// - JavaScript: the lockfile picks the package manager and a reproducible install (npm ci, pnpm / yarn with a
//   frozen lockfile); a package.json with dependencies but no lockfile — the usual shape of a library — gets
//   `npm install`, the only install there is without one.
// - Python: requirements.txt; otherwise a project installs itself with its dependencies (`pip install -e .`,
//   with the `test`/`tests` extra when pyproject declares one) — a setup.py project always, a pyproject.toml one
//   when it declares dependencies (one without, testing through pytest's `pythonpath`, needs no install, and an
//   install would fetch a build backend it does not otherwise need); tox.ini's `deps` of [testenv] are installed
//   too, since that is where many projects keep their test requirements.
//   Python packages go into a virtual environment in the work tree (SETUP_VENV), never `--user` or the system's
//   site-packages (read-only in the sandbox, PEP 668 on Debian): made with --system-site-packages, so what the
//   system already has (Debian's pytest, python3-… packages) stays visible and satisfies requirements offline.
//   The spec runs put it first on PATH when it exists (specRunsScript.ts).
// - Go and Rust: download the locked modules / crates.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseToml } from '../toml';

const JAVASCRIPT_LOCKFILES: Array<[file: string, command: string]> = [
  ['package-lock.json', 'npm ci'],
  ['npm-shrinkwrap.json', 'npm ci'],
  ['pnpm-lock.yaml', 'pnpm install --frozen-lockfile'],
  ['yarn.lock', 'yarn install --frozen-lockfile'],
];
/** The set-up's virtual environment, relative to the work tree (a dot folder: test collectors skip it). */
export const SETUP_VENV = '.weave-venv';
// --without-pip: the interpreter's own pip (visible through --system-site-packages) installs into the venv, and
// seeding a pip copy costs most of the venv's creation (50 s against 2 s here, on a loaded machine); ensurepip
// only where the interpreter has no pip.
const VENV_PYTHON = `${SETUP_VENV}/bin/python`;
const MAKE_VENV =
  `python3 -m venv --system-site-packages --without-pip ${SETUP_VENV} && ` +
  `{ ${VENV_PYTHON} -m pip --version >/dev/null 2>&1 || ${VENV_PYTHON} -m ensurepip --default-pip; }`;
const PIP = `${VENV_PYTHON} -m pip install`;

export async function environmentSetupCommands(treeDir: string): Promise<string[]> {
  const commands: string[] = [];
  const has = (file: string): Promise<boolean> => isFile(path.join(treeDir, file));
  const lockfile = await firstAsync(JAVASCRIPT_LOCKFILES, ([file]) => has(file));
  if (lockfile) commands.push(lockfile[1]);
  else if (await hasNpmDependencies(treeDir)) commands.push('npm install --no-audit --no-fund');

  const python: string[] = [];
  if (await has('requirements.txt')) python.push(`${PIP} -r requirements.txt`);
  else if (await has('setup.py')) python.push(`${PIP} -e .`);
  else {
    const target = await pyprojectInstallTarget(treeDir);
    if (target !== undefined) python.push(`${PIP} -e ${target}`);
  }
  const toxDeps = await toxTestDeps(treeDir);
  if (toxDeps.length > 0) python.push(`${PIP} ${toxDeps.map(quoteArg).join(' ')}`);
  if (python.length > 0) commands.push(MAKE_VENV, ...python);

  if (await has('go.sum')) commands.push('go mod download');
  if (await has('Cargo.lock')) commands.push('cargo fetch --locked');
  return commands;
}

async function hasNpmDependencies(treeDir: string): Promise<boolean> {
  try {
    const pkg = JSON.parse(await fs.readFile(path.join(treeDir, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some((field) => {
      const deps = pkg[field];
      return deps !== null && typeof deps === 'object' && Object.keys(deps).length > 0;
    });
  } catch {
    return false; // no package.json, or one npm could not read either
  }
}

/** `.` or `'.[test]'` when pyproject.toml declares dependencies (or a test extra); undefined when it needs none. */
async function pyprojectInstallTarget(treeDir: string): Promise<string | undefined> {
  let project: Record<string, unknown> | undefined;
  try {
    const value = parseToml(await fs.readFile(path.join(treeDir, 'pyproject.toml'), 'utf8')).project;
    project = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // no pyproject.toml, or one pip could not read either
  }
  const extras = project?.['optional-dependencies'];
  const testExtra = ['test', 'tests', 'testing'].find(
    (name) => extras !== null && typeof extras === 'object' && name in extras,
  );
  if (testExtra !== undefined) return `'.[${testExtra}]'`;
  const deps = project?.dependencies;
  return Array.isArray(deps) && deps.length > 0 ? '.' : undefined;
}

/** The `deps =` lines of tox.ini's [testenv] (one requirement per line, `-r file` kept, `{…}` substitutions dropped). */
async function toxTestDeps(treeDir: string): Promise<string[]> {
  let text: string;
  try {
    text = await fs.readFile(path.join(treeDir, 'tox.ini'), 'utf8');
  } catch {
    return [];
  }
  const deps: string[] = [];
  let section = '';
  let inDeps = false;
  for (const raw of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      section = header[1]?.trim() ?? '';
      inDeps = false;
      continue;
    }
    if (section !== 'testenv') continue;
    const key = /^(\w[\w-]*)\s*=\s*(.*)$/.exec(raw);
    if (key) {
      inDeps = key[1] === 'deps';
      if (inDeps && key[2]?.trim()) deps.push(key[2].trim());
      continue;
    }
    if (inDeps && /^\s+\S/.test(raw)) deps.push(raw.trim());
    else if (raw.trim() !== '' && !raw.trim().startsWith('#')) inDeps = false;
  }
  return deps
    .flatMap((d) => (d.startsWith('-r') ? d.replace(/^-r\s*/, '-r ').split(' ') : [d]))
    .filter((d) => d !== '' && !d.startsWith('#') && !d.includes('{'));
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

async function firstAsync<T>(items: T[], test: (item: T) => Promise<boolean>): Promise<T | undefined> {
  for (const item of items) if (await test(item)) return item;
  return undefined;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}
