// The files that are test infrastructure in some keys only: package.json (`scripts.test`, `jest`, `mocha`…),
// pyproject.toml (`[tool.pytest.ini_options]`, a pytest11 entry point), setup.cfg (`[tool:pytest]`), tox.ini
// (`[pytest]`, `[testenv]`) and setup.py (entry points are code there). Both states are parsed with the parser
// the tools themselves follow (JSON, TOML, configparser's INI), flattened to leaf keys, and each key that differs
// is classed: a key a runner or installer acts on is test infrastructure, a dependency list is a dependency, any
// other key (`main`, `exports`, `[project] version`) is source.
import path from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parseToml } from '../../toml';
import { readIniSections } from './iniSections';

export type KeyClass = 'test-infrastructure' | 'dependency' | 'source';

export interface KeyChange {
  /** How a user would name it: `scripts.test`, `[tool.pytest.ini_options] addopts`, `[tool:pytest] addopts`. */
  key: string;
  kind: KeyClass;
  /** Why a test-infrastructure key is one. */
  why?: string;
}

type ManifestKind = 'package.json' | 'pyproject.toml' | 'setup.cfg' | 'tox.ini' | 'setup.py';
const MANIFESTS = new Set<string>(['package.json', 'pyproject.toml', 'setup.cfg', 'tox.ini', 'setup.py']);

/** Whether the file is classified key by key (so the policy needs its content before and after). */
export function isKeyedManifest(rel: string): boolean {
  return MANIFESTS.has(path.posix.basename(rel));
}

/** A manifest whose content cannot be read, so its test keys cannot be told apart from the rest. */
export class UnreadableManifest {
  constructor(readonly message: string) {}
}

/**
 * The keys that differ between the two states (undefined: the file is absent), each classed. `loadedKeys` are
 * keys a spec's command runs whatever their name (`scripts.check` for `npm run check`), with why.
 */
export function manifestKeyChanges(
  rel: string,
  before: string | undefined,
  after: string | undefined,
  loadedKeys?: ReadonlyMap<string, string>,
): KeyChange[] | UnreadableManifest {
  const kind = path.posix.basename(rel) as ManifestKind;
  if (kind === 'setup.py') return setupPyChanges(before, after);
  let leavesBefore: Map<string, string>;
  let leavesAfter: Map<string, string>;
  try {
    leavesBefore = before === undefined ? new Map() : leavesOf(kind, before);
    leavesAfter = after === undefined ? new Map() : leavesOf(kind, after);
  } catch (error) {
    return new UnreadableManifest(`${rel} does not parse (${(error as Error).message})`);
  }
  const changes: KeyChange[] = [];
  for (const key of new Set([...leavesBefore.keys(), ...leavesAfter.keys()])) {
    if (leavesBefore.get(key) === leavesAfter.get(key)) continue;
    const parts = JSON.parse(key) as string[];
    const label = keyLabel(kind, parts);
    const loaded = loadedKey(loadedKeys, label);
    changes.push({ key: label, ...(loaded !== undefined ? infra(loaded) : classOf(kind, parts)) });
  }
  return changes;
}

/** Leaf key path (JSON-encoded, so dots inside names stay unambiguous) → the value, canonically encoded. */
function leavesOf(kind: Exclude<ManifestKind, 'setup.py'>, text: string): Map<string, string> {
  const leaves = new Map<string, string>();
  if (kind === 'setup.cfg' || kind === 'tox.ini') {
    for (const [section, entries] of readIniSections(text))
      for (const [key, value] of entries) leaves.set(JSON.stringify([section, key]), value);
    return leaves;
  }
  const document = kind === 'package.json' ? parseStrictJson(text) : parseToml(text);
  flatten(document, [], leaves);
  return leaves;
}

function parseStrictJson(text: string): unknown {
  const errors: ParseError[] = [];
  // npm reads package.json with JSON.parse: comments or trailing commas break npm, so they are errors here too.
  const value: unknown = parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (first) throw new Error(`${printParseErrorCode(first.error)} at offset ${first.offset}`);
  return value;
}

function flatten(value: unknown, at: string[], leaves: Map<string, string>): void {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [key, child] of Object.entries(value)) flatten(child, [...at, key], leaves);
    return;
  }
  leaves.set(JSON.stringify(at), canonical(value));
}

function canonical(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function keyLabel(kind: ManifestKind, parts: string[]): string {
  if (kind === 'package.json') return parts.join('.');
  if (parts.length === 1) return parts[0]!;
  return `[${parts.slice(0, -1).join('.')}] ${parts.at(-1)!}`;
}

/** Why a leaf key is one a spec's command runs: the key itself or one inside it (`scripts.check`). */
function loadedKey(loadedKeys: ReadonlyMap<string, string> | undefined, label: string): string | undefined {
  if (loadedKeys === undefined) return undefined;
  for (const [key, why] of loadedKeys) if (label === key || label.startsWith(`${key}.`)) return why;
  return undefined;
}

type Classed = Pick<KeyChange, 'kind' | 'why'>;
const SOURCE: Classed = { kind: 'source' };
const DEPENDENCY: Classed = { kind: 'dependency' };
const infra = (why: string): Classed => ({ kind: 'test-infrastructure', why });

function classOf(kind: Exclude<ManifestKind, 'setup.py'>, parts: string[]): Classed {
  switch (kind) {
    case 'package.json':
      return packageJsonKey(parts);
    case 'pyproject.toml':
      return pyprojectKey(parts);
    case 'setup.cfg':
      return setupCfgKey(parts[0]!, parts[1]!);
    case 'tox.ini':
      return toxIniKey(parts[0]!);
  }
}

const NPM_DEPENDENCY_KEYS = new Set([
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'optionalDependencies',
]);
// Configuration blocks the runners (and the transformers they load tests through) read from package.json.
const NPM_RUNNER_KEYS = new Set(['jest', 'mocha', 'vitest', 'ava', 'c8', 'nyc', 'babel', 'tap']);

function packageJsonKey([top, second]: string[]): Classed {
  if (top === 'scripts' && second !== undefined) {
    if (/^(pre|post)?test/.test(second)) return infra(`npm test runs scripts.${second}`);
    if (/^(preinstall|install|postinstall|prepare)$/.test(second))
      return infra(`npm runs scripts.${second} when the environment is set up`);
    return SOURCE;
  }
  if (top !== undefined && NPM_RUNNER_KEYS.has(top))
    return infra(`${top} reads its configuration from package.json`);
  if (top !== undefined && NPM_DEPENDENCY_KEYS.has(top)) return DEPENDENCY;
  return SOURCE;
}

function pyprojectKey(parts: string[]): Classed {
  const [top, second, third] = parts;
  if (top === 'tool' && second !== undefined && second.startsWith('pytest'))
    return infra('pytest reads its configuration from here');
  if (top === 'tool' && second === 'tox') return infra("tox's configuration");
  if (top === 'project' && second === 'entry-points' && third === 'pytest11')
    return infra('a pytest11 entry point is a plugin pytest loads by itself');
  if (top === 'tool' && second === 'poetry' && third === 'plugins' && parts[3] === 'pytest11')
    return infra('a pytest11 entry point is a plugin pytest loads by itself');
  if (top === 'project' && (second === 'dependencies' || second === 'optional-dependencies'))
    return DEPENDENCY;
  if (top === 'build-system' && second === 'requires') return DEPENDENCY;
  if (top === 'dependency-groups') return DEPENDENCY;
  if (top === 'tool' && second === 'poetry') {
    if (third === 'dependencies' || third === 'dev-dependencies') return DEPENDENCY;
    if (third === 'group' && parts[5] === 'dependencies') return DEPENDENCY;
  }
  return SOURCE;
}

function setupCfgKey(section: string, key: string): Classed {
  if (section === 'tool:pytest') return infra('pytest reads [tool:pytest] from setup.cfg');
  if (section === 'options.entry_points' && key === 'pytest11')
    return infra('a pytest11 entry point is a plugin pytest loads by itself');
  if (section === 'options' && /^(install_requires|setup_requires|tests_require)$/.test(key))
    return DEPENDENCY;
  if (section === 'options.extras_require') return DEPENDENCY;
  return SOURCE;
}

function toxIniKey(section: string): Classed {
  if (section === 'pytest') return infra('pytest reads [pytest] from tox.ini');
  if (section === 'tox' || section.startsWith('tox:') || /^testenv(:|$)/.test(section))
    return infra("tox's configuration: how the tests are run");
  return SOURCE;
}

/** setup.py is code, so its keys cannot be read without running it: only its pytest11 entry points are named. */
function setupPyChanges(before: string | undefined, after: string | undefined): KeyChange[] {
  if (before === after) return [];
  const mentions = (text: string | undefined): boolean => text !== undefined && text.includes('pytest11');
  if (mentions(before) || mentions(after))
    return [
      {
        key: 'entry_points pytest11',
        ...infra('a pytest11 entry point is a plugin pytest loads by itself'),
      },
    ];
  return [{ key: '(code)', ...SOURCE }];
}
