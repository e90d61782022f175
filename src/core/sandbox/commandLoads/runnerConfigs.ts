// The files a runner's own configuration names, which the runner loads before any test: pytest's `addopts`
// plugins (`-p NAME`), mocha's `.mocharc.*` / package.json `mocha` (`require`, `file`, `spec`), jest's
// `setupFiles*`/`globalSetup`/`globalTeardown`/`testEnvironment`, vitest's `setupFiles`/`globalSetup`. The config
// files themselves are protected by name (diffPolicy/infrastructurePaths.ts); this adds what they point at.
// JSON and INI/TOML are parsed; JavaScript configs are code, so only their string literals under those keys are
// read, and a key whose value is not a literal list is reported as unread.
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parseToml } from '../../toml';
import { readIniSections } from '../diffPolicy/iniSections';
import { DEPENDENCY_DIRS } from '../dependencyDirs';
import { isFile, listFolder, readText, type LoadCollector } from './loadedSet';

/** `-p NAME` plugins and `-c FILE` configs in pytest's words (command line or addopts). */
export function pytestArguments(
  collector: LoadCollector,
  words: readonly string[],
  cwd: string,
  roots: readonly string[],
): void {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const plugin =
      word === '-p' ? words[++i] : word.startsWith('-p') && word.length > 2 ? word.slice(2) : undefined;
    if (plugin !== undefined && !plugin.startsWith('no:'))
      pythonModule(collector, plugin, [cwd, ...roots], '-p');
    const config =
      word === '-c' || word === '--config-file'
        ? words[++i]
        : word.startsWith('--config-file=')
          ? word.slice('--config-file='.length)
          : undefined;
    if (config !== undefined) collector.add(path.resolve(cwd, config), "pytest's configuration file (-c)");
  }
}

/** The `addopts` of the configuration pytest would pick from `cwd` upwards, read for plugins. */
export function pytestConfigPlugins(collector: LoadCollector, cwd: string, roots: readonly string[]): void {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const found = addoptsIn(dir);
    if (found !== undefined) {
      collector.add(found.file, "pytest's configuration file");
      pytestArguments(collector, found.addopts.split(/\s+/).filter(Boolean), dir, [dir, ...roots]);
      return;
    }
    if (collector.relative(dir) === undefined) return;
  }
}

function addoptsIn(dir: string): { file: string; addopts: string } | undefined {
  for (const name of ['pytest.toml', '.pytest.toml', 'pytest.ini', '.pytest.ini']) {
    const file = path.join(dir, name);
    const text = readText(file);
    if (text === undefined) continue;
    if (name.endsWith('.toml')) return { file, addopts: tomlAddopts(text, ['pytest']) };
    return { file, addopts: readIni(text).get('pytest')?.get('addopts') ?? '' };
  }
  const pyproject = readText(path.join(dir, 'pyproject.toml'));
  if (pyproject !== undefined && /\[tool\.pytest/.test(pyproject))
    return {
      file: path.join(dir, 'pyproject.toml'),
      addopts: tomlAddopts(pyproject, ['tool', 'pytest', 'ini_options']),
    };
  for (const [name, section] of [
    ['tox.ini', 'pytest'],
    ['setup.cfg', 'tool:pytest'],
  ] as const) {
    const text = readText(path.join(dir, name));
    const sections = text === undefined ? undefined : readIni(text);
    if (sections?.has(section))
      return { file: path.join(dir, name), addopts: sections.get(section)?.get('addopts') ?? '' };
  }
  return undefined;
}

function tomlAddopts(text: string, at: readonly string[]): string {
  try {
    let node: unknown = parseToml(text);
    for (const key of at) node = (node as Record<string, unknown> | undefined)?.[key];
    const addopts = (node as Record<string, unknown> | undefined)?.addopts;
    return Array.isArray(addopts)
      ? addopts.map(String).join(' ')
      : typeof addopts === 'string'
        ? addopts
        : '';
  } catch {
    return '';
  }
}

function readIni(text: string): ReturnType<typeof readIniSections> {
  try {
    return readIniSections(text);
  } catch {
    return new Map();
  }
}

/** A Python module by dotted name, looked up in the folders Python would search: its file is loaded. */
export function pythonModule(
  collector: LoadCollector,
  name: string,
  roots: readonly string[],
  how: string,
): void {
  const rel = name.split('.').join('/');
  for (const root of roots) {
    for (const candidate of [`${rel}.py`, `${rel}/__init__.py`]) {
      const file = path.join(root, candidate);
      if (isFile(file)) {
        collector.add(file, `pytest loads the plugin module ${name} (${how})`);
        return;
      }
    }
  }
  // Not in the workspace: an installed plugin (site-packages is read-only inside the sandbox).
}

const MOCHARC = [
  '.mocharc.cjs',
  '.mocharc.js',
  '.mocharc.yaml',
  '.mocharc.yml',
  '.mocharc.jsonc',
  '.mocharc.json',
];

/** mocha's configuration from `cwd` (or `--config`), and the files its `require`, `file` and `spec` name. */
export function mochaConfig(collector: LoadCollector, cwd: string, explicit: string | undefined): void {
  const file =
    explicit !== undefined ? path.resolve(cwd, explicit) : MOCHARC.map((n) => path.join(cwd, n)).find(isFile);
  let config: Record<string, unknown> | undefined;
  if (file !== undefined) {
    collector.add(file, "mocha's configuration file");
    config = readConfig(collector, file, ['require', 'file', 'spec']);
  } else {
    config = packageJsonKey(cwd, 'mocha');
  }
  if (config === undefined) return;
  for (const key of ['require', 'file', 'spec'] as const)
    for (const entry of listOf(config[key])) nodeEntry(collector, cwd, entry, `mocha's ${key} names it`);
}

/** jest's configuration (`--config`, jest.config.*, package.json `jest`) and the setup files it names. */
export function jestConfig(collector: LoadCollector, cwd: string, explicit: string | undefined): void {
  const keys = ['setupFiles', 'setupFilesAfterEnv', 'globalSetup', 'globalTeardown', 'testEnvironment'];
  const names = ['js', 'ts', 'mjs', 'cjs', 'json'].map((e) => `jest.config.${e}`);
  const file =
    explicit !== undefined ? path.resolve(cwd, explicit) : names.map((n) => path.join(cwd, n)).find(isFile);
  const config = file !== undefined ? readConfig(collector, file, keys) : packageJsonKey(cwd, 'jest');
  if (config === undefined) return;
  const rootDir = typeof config.rootDir === 'string' ? path.resolve(cwd, config.rootDir) : cwd;
  for (const key of keys)
    for (const entry of listOf(config[key]))
      nodeEntry(collector, rootDir, entry.replace('<rootDir>', rootDir), `jest's ${key} names it`);
}

/** vitest's (or vite's) configuration file and the setup files it names. */
export function vitestConfig(collector: LoadCollector, cwd: string, explicit: string | undefined): void {
  const keys = ['setupFiles', 'globalSetup'];
  const names = ['vitest', 'vite'].flatMap((b) =>
    ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].map((e) => `${b}.config.${e}`),
  );
  const file =
    explicit !== undefined ? path.resolve(cwd, explicit) : names.map((n) => path.join(cwd, n)).find(isFile);
  if (file === undefined) return;
  const config = readConfig(collector, file, keys);
  for (const key of keys)
    for (const entry of listOf(config?.[key])) nodeEntry(collector, cwd, entry, `vitest's ${key} names it`);
}

/** A module a Node runner loads by name: a path is a file of the workspace; a package lives in node_modules. */
export function nodeEntry(collector: LoadCollector, base: string, entry: string, why: string): void {
  if (/[*?[{]/.test(entry)) {
    for (const match of globFiles(base, entry)) collector.add(match, why);
    return;
  }
  const isPath = entry.startsWith('.') || entry.startsWith('/') || isFile(path.resolve(base, entry));
  if (!isPath) return;
  collector.add(resolveNodeFile(path.resolve(base, entry)), why);
}

/** Node's file resolution for a path: as is, with an extension, or a folder's index. */
export function resolveNodeFile(abs: string): string {
  const extensions = ['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts', '.json', '.jsx', '.tsx'];
  if (isFile(abs)) return abs;
  for (const ext of extensions) if (isFile(abs + ext)) return abs + ext;
  for (const ext of extensions)
    if (isFile(path.join(abs, `index${ext}`))) return path.join(abs, `index${ext}`);
  return abs;
}

function globFiles(base: string, pattern: string): string[] {
  const absolute = path.resolve(base, pattern);
  const parts = absolute.split(path.sep);
  const fixed =
    parts
      .slice(
        0,
        parts.findIndex((p) => /[*?[{]/.test(p)),
      )
      .join(path.sep) || path.sep;
  const found: string[] = [];
  // A bounded walk that never enters dependencies or repositories (a spec glob may start at the root).
  let budget = 20_000;
  const walk = (dir: string): void => {
    const entries = listFolder(dir);
    if (entries === undefined) return;
    for (const entry of entries) {
      if (--budget < 0) return;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git' && !DEPENDENCY_DIRS.includes(entry.name)) walk(full);
      } else if (entry.isFile() && path.matchesGlob(full, absolute)) found.push(full);
    }
  };
  walk(fixed);
  return found;
}

function listOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value))
    return value.flatMap((v) => (typeof v === 'string' ? [v] : Array.isArray(v) ? listOf(v) : []));
  return [];
}

function packageJsonKey(cwd: string, key: string): Record<string, unknown> | undefined {
  const text = readText(path.join(cwd, 'package.json'));
  if (text === undefined) return undefined;
  const value = (parseJsonc(text) as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/**
 * A runner configuration file as an object: JSON(C) parsed, YAML's top-level keys and lists read line by line,
 * JavaScript/TypeScript read for literal strings under `keys` (a key present with another value is reported).
 */
function readConfig(
  collector: LoadCollector,
  file: string,
  keys: readonly string[],
): Record<string, unknown> | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  if (/\.jsonc?$|rc$/.test(file)) return parseJsonc(text) as Record<string, unknown>;
  if (/\.ya?ml$/.test(file)) return readYamlTopLevel(text);
  const config: Record<string, unknown> = {};
  for (const key of keys) {
    const at = new RegExp(`\\b${key}\\s*:\\s*`).exec(text);
    if (!at) continue;
    const rest = text.slice(at.index + at[0].length);
    const literal = /^(\[[^\]]*\]|'[^']*'|"[^"]*"|`[^`$]*`)/.exec(rest)?.[1];
    if (literal === undefined) {
      collector.cannotRead(
        `${collector.relative(file) ?? file}: ${key} is not a literal, so what it loads is not read`,
      );
      continue;
    }
    config[key] = [...literal.matchAll(/'([^']*)'|"([^"]*)"|`([^`]*)`/g)].map(
      (m) => m[1] ?? m[2] ?? m[3] ?? '',
    );
  }
  return config;
}

/** Top-level `key: value` and `key:` followed by `- item` lines: what .mocharc.yml files hold. */
function readYamlTopLevel(text: string): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  let list: string[] | undefined;
  const unquote = (s: string): string => s.trim().replace(/^(['"])(.*)\1$/, '$2');
  for (const line of text.split(/\r?\n/)) {
    const item = /^\s+-\s+(.+?)\s*(#.*)?$/.exec(line);
    if (item && list) {
      list.push(unquote(item[1]!));
      continue;
    }
    const entry = /^([A-Za-z][\w-]*)\s*:\s*(.*?)\s*(#.*)?$/.exec(line);
    if (!entry) continue;
    const value = entry[2]!;
    if (value === '') {
      list = [];
      config[entry[1]!] = list;
    } else {
      list = undefined;
      config[entry[1]!] = value.startsWith('[')
        ? value.slice(1, -1).split(',').map(unquote).filter(Boolean)
        : unquote(value);
    }
  }
  return config;
}
