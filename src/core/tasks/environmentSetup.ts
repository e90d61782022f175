// Environment set-up commands recorded in the task (SWE-bench keeps these in per-repository install specs;
// a Weave task carries its own), chosen from what the workspace root holds:
// - JavaScript: the lockfile picks the package manager and a reproducible install (npm ci, pnpm / yarn with a
//   frozen lockfile); a package.json with dependencies but no lockfile — the usual shape of a library — gets
//   `npm install`, the only install there is without one. Every install runs with --ignore-scripts unless the
//   user allows install scripts: a dependency's install script is arbitrary code that often downloads (a
//   browser, a native binary), which a test seldom needs and which costs minutes or fails offline.
// - Python: requirements.txt; otherwise a project installs itself with its dependencies (`pip install -e .`,
//   with the `test`/`tests` extra when pyproject declares one) — a setup.py project always, a pyproject.toml one
//   when it declares dependencies (one without, testing through pytest's `pythonpath`, needs no install, and an
//   install would fetch a build backend it does not otherwise need). tox.ini's `deps` and `extras` are installed
//   only for the tox environments a spec's command runs (`tox -e py311`, or the envlist for a bare `tox`): a
//   project's [testenv] usually lists coverage, lint and docs tools no spec uses, and one of them that cannot be
//   had (an offline index, a private package) must not fail a set-up that does not need it.
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
export const MAKE_VENV =
  `python3 -m venv --system-site-packages --without-pip ${SETUP_VENV} && ` +
  `{ ${VENV_PYTHON} -m pip --version >/dev/null 2>&1 || ${VENV_PYTHON} -m ensurepip --default-pip; }`;
export const PIP = `${VENV_PYTHON} -m pip install`;

/**
 * Whether these set-up commands make the set-up's virtual environment: a fact of the task, fixed at export. Only
 * then do the verifiers put SETUP_VENV on the spec runs' PATH, and only the copy the set-up made (a `.weave-venv`
 * a patch brings along is the patch's code, never the task's interpreter).
 */
export function makesSetupVenv(commands: readonly string[]): boolean {
  return commands.some((command) => command.includes(`-m venv`) && command.includes(SETUP_VENV));
}

export interface SetupChoices {
  /** The spec commands the set-up serves: only the tox environments they run get their deps installed. */
  specCommands: readonly string[];
  /** Run dependencies' install scripts (npm's preinstall/install/postinstall); off by default. */
  allowInstallScripts: boolean;
}

/** The flag each JavaScript package manager takes to skip dependencies' install scripts. */
export const IGNORE_SCRIPTS = '--ignore-scripts';

export async function environmentSetupCommands(treeDir: string, choices: SetupChoices): Promise<string[]> {
  const commands: string[] = [];
  const has = (file: string): Promise<boolean> => isFile(path.join(treeDir, file));
  const scripts = choices.allowInstallScripts ? '' : ` ${IGNORE_SCRIPTS}`;
  const lockfile = await firstAsync(JAVASCRIPT_LOCKFILES, ([file]) => has(file));
  const pkg = await readPackageJson(treeDir);
  const install = lockfile?.[1] ?? (hasNpmDependencies(pkg) ? 'npm install --no-audit --no-fund' : undefined);
  if (install !== undefined) {
    commands.push(`${install}${scripts}`);
    // The project's own install-time scripts (a build in `prepare`) are the project's, not a dependency's: they
    // still run, by name, after an install that skipped scripts.
    const manager = install.split(' ')[0] as string;
    if (scripts !== '') commands.push(...ownLifecycleScripts(pkg).map((name) => `${manager} run ${name}`));
  }

  const python: string[] = [];
  if (await has('requirements.txt')) python.push(`${PIP} -r requirements.txt`);
  else if (await has('setup.py')) python.push(`${PIP} -e .`);
  else {
    const target = await pyprojectInstallTarget(treeDir);
    if (target !== undefined) python.push(`${PIP} -e ${target}`);
  }
  const tox = await toxRequirements(treeDir, choices.specCommands);
  if (tox.extras.length > 0) python.push(`${PIP} -e ${quoteArg(`.[${tox.extras.join(',')}]`)}`);
  if (tox.deps.length > 0) python.push(`${PIP} ${tox.deps.map(quoteArg).join(' ')}`);
  if (python.length > 0) commands.push(MAKE_VENV, ...python);

  if (await has('go.sum')) commands.push('go mod download');
  if (await has('Cargo.lock')) commands.push('cargo fetch --locked');
  return commands;
}

/**
 * The packages package-lock.json marks `hasInstallScript` (lockfile v2 and v3), by path name (`node_modules/a`
 * → `a`); undefined without a lockfile that says.
 */
export async function installScriptPackages(treeDir: string): Promise<string[] | undefined> {
  let packages: unknown;
  try {
    packages = (
      JSON.parse(await fs.readFile(path.join(treeDir, 'package-lock.json'), 'utf8')) as {
        packages?: unknown;
      }
    ).packages;
  } catch {
    return undefined;
  }
  if (packages === null || typeof packages !== 'object') return undefined;
  return Object.entries(packages as Record<string, { hasInstallScript?: unknown }>)
    .filter(([key, entry]) => key !== '' && entry?.hasInstallScript === true)
    .map(([key]) => key.replace(/^(?:.*\/)?node_modules\//, ''))
    .sort();
}

async function readPackageJson(treeDir: string): Promise<Record<string, unknown> | undefined> {
  try {
    const pkg: unknown = JSON.parse(await fs.readFile(path.join(treeDir, 'package.json'), 'utf8'));
    return pkg !== null && typeof pkg === 'object' ? (pkg as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // no package.json, or one npm could not read either
  }
}

function hasNpmDependencies(pkg: Record<string, unknown> | undefined): boolean {
  return ['dependencies', 'devDependencies', 'optionalDependencies'].some((field) => {
    const deps = pkg?.[field];
    return deps !== null && typeof deps === 'object' && Object.keys(deps).length > 0;
  });
}

/** The root package's own install lifecycle scripts, in the order npm runs them. */
function ownLifecycleScripts(pkg: Record<string, unknown> | undefined): string[] {
  const scripts = pkg?.scripts;
  if (scripts === null || typeof scripts !== 'object') return [];
  return ['preinstall', 'install', 'postinstall', 'prepare'].filter(
    (name) => typeof (scripts as Record<string, unknown>)[name] === 'string',
  );
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

/** tox.ini's sections: name → key → value (continuation lines joined with newlines). */
function iniSections(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  let key: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      current = new Map();
      sections.set(header[1]?.trim() ?? '', current);
      key = undefined;
      continue;
    }
    if (current === undefined || raw.trim() === '' || /^\s*[#;]/.test(raw)) continue;
    const entry = /^(\w[\w-]*)\s*=\s*(.*)$/.exec(raw);
    if (entry?.[1] !== undefined) {
      key = entry[1];
      current.set(key, (entry[2] ?? '').trim());
    } else if (key !== undefined && /^\s+\S/.test(raw)) {
      current.set(key, `${current.get(key) ?? ''}\n${raw.trim()}`);
    }
  }
  return sections;
}

/**
 * The tox environments the spec commands run: `-e A,B` / `--env A` / `-eA`, or tox.ini's envlist for a bare `tox`
 * (`tox run`, `tox r`); none when no spec command calls tox.
 */
export function toxEnvironmentsOfCommands(commands: readonly string[], envlist: readonly string[]): string[] {
  const used = new Set<string>();
  for (const command of commands) {
    for (const call of command.split(/&&|\|\||[;|\n]/)) {
      const words = call.trim().split(/\s+/);
      const at = words.findIndex((w) => /(^|\/)tox$/.test(w));
      if (at < 0) continue;
      const named = words
        .slice(at + 1)
        .flatMap((w, i, rest) =>
          w === '-e' || w === '--env'
            ? [rest[i + 1] ?? '']
            : w.startsWith('-e') && w.length > 2
              ? [w.slice(2)]
              : [],
        )
        .flatMap((list) => list.split(','))
        .filter((name) => name !== '');
      for (const name of named.length > 0 ? named : envlist) used.add(name);
    }
  }
  return [...used];
}

/**
 * What the tox environments the specs run need installed: their `deps` (one requirement per line, `-r file` kept,
 * `{…}` substitutions dropped) and `extras` (unless skip_install); an environment without its own key inherits [testenv]'s.
 */
async function toxRequirements(
  treeDir: string,
  specCommands: readonly string[],
): Promise<{ deps: string[]; extras: string[] }> {
  let text: string;
  try {
    text = await fs.readFile(path.join(treeDir, 'tox.ini'), 'utf8');
  } catch {
    return { deps: [], extras: [] };
  }
  const sections = iniSections(text);
  const lines = (value: string | undefined): string[] =>
    (value ?? '')
      .split(/[\n]/)
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
  const envlist = lines(sections.get('tox')?.get('envlist')?.replace(/,/g, '\n'));
  const used = toxEnvironmentsOfCommands(specCommands, envlist);
  const depLines = new Set<string>();
  const extras = new Set<string>();
  for (const name of used) {
    const own = sections.get(`testenv:${name}`);
    const value = (key: string): string | undefined => own?.get(key) ?? sections.get('testenv')?.get(key);
    for (const dep of lines(value('deps'))) if (!dep.includes('{')) depLines.add(dep);
    // skip_install: tox does not install the project there, so neither do its extras.
    if (value('skip_install')?.toLowerCase() === 'true') continue;
    for (const extra of lines(value('extras')?.replace(/,/g, '\n'))) extras.add(extra);
  }
  const deps = [...depLines].flatMap((d) => (d.startsWith('-r') ? ['-r', d.replace(/^-r\s*/, '')] : [d]));
  return { deps, extras: [...extras] };
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
