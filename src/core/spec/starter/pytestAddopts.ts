// pytest prepends the `addopts` of its configuration file to every run, so an option there that belongs to a
// plugin the project's Python cannot import (`--cov` without pytest-cov, `-n` without xdist) makes every run
// fail with a usage error (exit 4) before a test runs. The starter `weave init` writes must pass as written, so
// it overrides addopts (`-o addopts=…`) with just those options dropped, and its comment says which and why.
// This module reads addopts the way pytest does (its config file precedence; the value split with Python's
// shlex rules) and rewrites it.
import { readIniSections } from '../../sandbox/diffPolicy/iniSections';
import { parseToml } from '../../toml';

/** The configuration files of a workspace folder that pytest reads, by name; undefined when absent. */
export interface PytestConfigFiles {
  'pytest.ini'?: string | undefined;
  '.pytest.ini'?: string | undefined;
  'pyproject.toml'?: string | undefined;
  'tox.ini'?: string | undefined;
  'setup.cfg'?: string | undefined;
}

export interface Addopts {
  /** The file pytest takes its configuration from. */
  file: keyof PytestConfigFiles;
  args: string[];
}

/**
 * The addopts pytest uses: from the first of pytest.ini, .pytest.ini (both chosen even without the option),
 * pyproject.toml with [tool.pytest.ini_options] or [tool.pytest], tox.ini with [pytest], setup.cfg with
 * [tool:pytest]. Undefined when the chosen file has no addopts or cannot be read as its format.
 */
export function readAddopts(files: PytestConfigFiles): Addopts | undefined {
  const fromIni = (file: keyof PytestConfigFiles, section: string, text: string) => {
    let value: string | undefined;
    try {
      value = readIniSections(text).get(section)?.get('addopts');
    } catch {
      return undefined;
    }
    return value === undefined ? undefined : { file, args: shlexSplit(value) };
  };
  for (const file of ['pytest.ini', '.pytest.ini'] as const) {
    const text = files[file];
    if (text !== undefined) return fromIni(file, 'pytest', text);
  }
  const pyproject = files['pyproject.toml'];
  if (pyproject !== undefined) {
    let tool: Record<string, unknown> | undefined;
    try {
      tool = (parseToml(pyproject) as { tool?: { pytest?: Record<string, unknown> } }).tool?.pytest;
    } catch {
      tool = undefined;
    }
    const options = (tool?.ini_options as Record<string, unknown> | undefined) ?? tool;
    if (options !== undefined) {
      const value = options.addopts;
      if (typeof value === 'string') return { file: 'pyproject.toml', args: shlexSplit(value) };
      if (Array.isArray(value)) return { file: 'pyproject.toml', args: value.map(String) };
      return undefined;
    }
  }
  const tox = files['tox.ini'];
  if (tox !== undefined && /^\[pytest\]/m.test(tox)) return fromIni('tox.ini', 'pytest', tox);
  const setupCfg = files['setup.cfg'];
  if (setupCfg !== undefined && /^\[tool:pytest\]/m.test(setupCfg))
    return fromIni('setup.cfg', 'tool:pytest', setupCfg);
  return undefined;
}

/** How an option takes its value: none, always (`--x v` or `--x=v`), or when the next word is not an option. */
type ValueKind = 'none' | 'required' | 'optional';

interface PluginOption {
  /** The Python module that must import for the option to exist. */
  module: string;
  /** The distribution to install, for the comment. */
  distribution: string;
  value: ValueKind;
}

const plugins = {
  cov: { module: 'pytest_cov', distribution: 'pytest-cov' },
  xdist: { module: 'xdist', distribution: 'pytest-xdist' },
  timeout: { module: 'pytest_timeout', distribution: 'pytest-timeout' },
  benchmark: { module: 'pytest_benchmark', distribution: 'pytest-benchmark' },
  rerun: { module: 'pytest_rerunfailures', distribution: 'pytest-rerunfailures' },
  html: { module: 'pytest_html', distribution: 'pytest-html' },
  asyncio: { module: 'pytest_asyncio', distribution: 'pytest-asyncio' },
  randomly: { module: 'pytest_randomly', distribution: 'pytest-randomly' },
  django: { module: 'pytest_django', distribution: 'pytest-django' },
} as const;

const option = (plugin: keyof typeof plugins, value: ValueKind): PluginOption => ({
  ...plugins[plugin],
  value,
});

/** Long options of common plugins (their argparse definitions), by name. */
const longOptions: Record<string, PluginOption> = {
  '--cov': option('cov', 'optional'),
  '--cov-report': option('cov', 'required'),
  '--cov-config': option('cov', 'required'),
  '--cov-fail-under': option('cov', 'required'),
  '--cov-context': option('cov', 'required'),
  '--cov-precision': option('cov', 'required'),
  '--cov-branch': option('cov', 'none'),
  '--cov-append': option('cov', 'none'),
  '--cov-reset': option('cov', 'none'),
  '--no-cov': option('cov', 'none'),
  '--no-cov-on-fail': option('cov', 'none'),
  '--numprocesses': option('xdist', 'required'),
  '--maxprocesses': option('xdist', 'required'),
  '--max-worker-restart': option('xdist', 'required'),
  '--dist': option('xdist', 'required'),
  '--tx': option('xdist', 'required'),
  '--rsyncdir': option('xdist', 'required'),
  '--rsyncignore': option('xdist', 'required'),
  '--looponfail': option('xdist', 'none'),
  '--timeout': option('timeout', 'required'),
  '--timeout-method': option('timeout', 'required'),
  '--timeout_method': option('timeout', 'required'),
  '--session-timeout': option('timeout', 'required'),
  '--reruns': option('rerun', 'required'),
  '--reruns-delay': option('rerun', 'required'),
  '--only-rerun': option('rerun', 'required'),
  '--rerun-except': option('rerun', 'required'),
  '--html': option('html', 'required'),
  '--css': option('html', 'required'),
  '--self-contained-html': option('html', 'none'),
  '--asyncio-mode': option('asyncio', 'required'),
  '--randomly-seed': option('randomly', 'required'),
  '--randomly-dont-reset-seed': option('randomly', 'none'),
  '--randomly-dont-reorganize': option('randomly', 'none'),
  '--ds': option('django', 'required'),
  '--dc': option('django', 'required'),
  '--reuse-db': option('django', 'none'),
  '--create-db': option('django', 'none'),
  '--nomigrations': option('django', 'none'),
  '--migrations': option('django', 'none'),
};

/** pytest-benchmark's options that take a value; its other --benchmark-* options are flags. */
const benchmarkWithValue = new Set(
  [
    'min-time',
    'max-time',
    'min-rounds',
    'timer',
    'calibration-precision',
    'warmup-iterations',
    'sort',
    'group-by',
    'columns',
    'name',
    'save',
    'json',
    'storage',
    'netrc',
    'compare-fail',
    'cprofile',
    'cprofile-loops',
    'cprofile-top',
    'cprofile-dump',
    'time-unit',
  ].map((o) => `--benchmark-${o}`),
);
const benchmarkOptionalValue = new Set([
  '--benchmark-warmup',
  '--benchmark-compare',
  '--benchmark-histogram',
]);

function longOption(name: string): PluginOption | undefined {
  const known = longOptions[name];
  if (known) return known;
  if (!name.startsWith('--benchmark-')) return undefined;
  const value: ValueKind = benchmarkWithValue.has(name)
    ? 'required'
    : benchmarkOptionalValue.has(name)
      ? 'optional'
      : 'none';
  return option('benchmark', value);
}

/** An option (with its value) that names a plugin, found in addopts. */
export interface PluginUse {
  /** The words as they stand in addopts, e.g. ['--cov', 'pkg'] or ['-n4']. */
  words: string[];
  module: string;
  distribution: string;
}

/**
 * Splits addopts into the plugin options (each with the words of its value) and the rest, in order. `-p name`
 * loads the module `name` (kept when it is `no:…`, which disables a plugin); short `-n` is xdist's.
 */
export function pluginOptions(args: readonly string[]): Array<PluginUse | string> {
  const out: Array<PluginUse | string> = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const next = args[i + 1];
    const takeNext = (kind: ValueKind) =>
      next !== undefined && (kind === 'required' || (kind === 'optional' && !next.startsWith('-')));
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const found = longOption(eq === -1 ? word : word.slice(0, eq));
      if (!found) {
        out.push(word);
        continue;
      }
      const words = eq === -1 && takeNext(found.value) ? [word, args[++i]!] : [word];
      out.push({ words, module: found.module, distribution: found.distribution });
    } else if (word === '-n' || (word.startsWith('-n') && !word.startsWith('--'))) {
      const words = word === '-n' && next !== undefined ? [word, args[++i]!] : [word];
      out.push({ words, ...plugins.xdist });
    } else if (word === '-p' || word.startsWith('-p')) {
      const attached = word.slice(2).replace(/^=/, '');
      const name = attached !== '' ? attached : next;
      if (name === undefined || name.startsWith('no:')) {
        out.push(word);
        if (attached === '' && name !== undefined) out.push(args[++i]!);
        continue;
      }
      const words = attached !== '' ? [word] : [word, args[++i]!];
      out.push({ words, module: name, distribution: name });
    } else {
      out.push(word);
    }
  }
  return out;
}

/** What the starter does about addopts: the override to add to the pytest command, and the comment. */
export interface AddoptsRewrite {
  /** Shell words to add after `-m pytest`: `-o 'addopts=…'`. */
  override: string;
  /** One line for the starter's comment. */
  note: string;
}

/**
 * The override dropping every plugin option whose module `importable` says cannot be imported, or undefined
 * when every plugin addopts names is there (or addopts names none).
 */
export async function rewriteAddopts(
  addopts: Addopts,
  importable: (module: string) => Promise<boolean>,
  python: string,
): Promise<AddoptsRewrite | undefined> {
  const parts = pluginOptions(addopts.args);
  const verdicts = new Map<string, boolean>();
  for (const part of parts) {
    if (typeof part !== 'string' && !verdicts.has(part.module))
      verdicts.set(part.module, await importable(part.module));
  }
  const dropped = parts.filter(
    (p): p is PluginUse => typeof p !== 'string' && verdicts.get(p.module) === false,
  );
  if (dropped.length === 0) return undefined;
  const kept = parts.flatMap((p) => (typeof p === 'string' ? [p] : dropped.includes(p) ? [] : p.words));
  const missing = [...new Set(dropped.map((d) => d.distribution))];
  const words = dropped.map((d) => d.words.join(' ')).join(' ');
  return {
    override: `-o ${shellQuote(`addopts=${kept.map(pythonShlexQuote).join(' ')}`)}`,
    note:
      `addopts in ${addopts.file} names ${missing.join(', ')}, which ${python} cannot import: the command ` +
      `overrides addopts without ${words}. Install ${missing.join(', ')} and drop the -o addopts=… to use them.`,
  };
}

/** Python's shlex.split (POSIX mode, no comments): what pytest applies to an ini addopts value. */
export function shlexSplit(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) throw new Error(`addopts: no closing quotation in ${text}`);
      word += text.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      inWord = true;
      for (i++; ; i++) {
        if (i >= text.length) throw new Error(`addopts: no closing quotation in ${text}`);
        const d = text[i]!;
        if (d === '"') break;
        if (d === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i];
        else word += d;
      }
    } else if (c === '\\') {
      if (i + 1 < text.length && text[i + 1] !== '\n') word += text[++i];
      else i++;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** Python's shlex.quote: a word shlexSplit gives back unchanged. */
export function pythonShlexQuote(word: string): string {
  if (word !== '' && /^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'"'"'`)}'`;
}

/** One word for the POSIX shell that runs the spec's command. */
function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
