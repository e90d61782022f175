// Which files a spec's command loads by reference, family by family: the Makefile and its target's recipe
// (`make T`), package.json's `scripts.S` with its pre/post scripts and what they run (`npm run S`, `npm test`,
// `pnpm S`, `yarn S`), a script run by an interpreter or by path (`sh F`, `bash F`, `node F`, `python F`, `./F`,
// read on when it is shell), preloads (`--require`, `-r`, `--import`, `--loader`, NODE_OPTIONS), pytest plugins
// (`-p`, addopts, PYTEST_ADDOPTS, PYTEST_PLUGINS), the runners' configuration files and what they name, and the
// start-up modules of PYTHONPATH roots. A command it does not know, or a word it cannot read where a file could
// be named, is reported (deny by default), never taken as loading nothing.
import path from 'node:path';
import type { Parser } from 'web-tree-sitter';
import { LoadCollector, isFile, readText } from './loadedSet';
import { readMakefile, recipesFor } from './makefile';
import {
  jestConfig,
  mochaConfig,
  nodeEntry,
  pytestArguments,
  pytestConfigPlugins,
  pythonModule,
  resolveNodeFile,
  vitestConfig,
} from './runnerConfigs';
import { readSimpleCommands, type SimpleCommand } from './simpleCommands';

const MAX_DEPTH = 8;

/** Commands that load nothing of the checkout by reference beyond the files their own tests import. */
const LOADS_NOTHING = new Set([
  ':',
  '[',
  'true',
  'false',
  'test',
  'echo',
  'printf',
  'exit',
  'set',
  'export',
  'unset',
  'cd',
  'pushd',
  'popd',
  'cat',
  'grep',
  'diff',
  'cmp',
  'ls',
  'mkdir',
  'rm',
  'cp',
  'mv',
  'touch',
  'sleep',
  'wc',
  'head',
  'tail',
  'sort',
  'tee',
  'go',
  'cargo',
  'rustc',
  'git',
]);
/** Prefixes that run the rest of their words as the command. */
const WRAPPERS = new Set(['exec', 'time', 'nice', 'nohup', 'command', 'builtin']);
/** Environment managers whose `run` runs the rest of the words as the command (`uv run pytest`). */
const RUNNERS_RUN = new Set(['uv', 'poetry', 'pipenv', 'hatch', 'pdm']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh']);
const PYTHON = /^python(\d+(\.\d+)?)?$/;
/** node options that take the next word as their value. */
const NODE_VALUE_OPTIONS = new Set([
  '--input-type',
  '-C',
  '--conditions',
  '--test-reporter',
  '--test-reporter-destination',
  '--test-name-pattern',
  '--test-skip-pattern',
  '--test-concurrency',
  '--test-timeout',
  '--title',
  '--redirect-warnings',
  '--watch-path',
  '--inspect-port',
  '--stack-trace-limit',
]);
const NODE_PRELOADS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']);

export class CommandReader {
  constructor(
    private readonly bash: Parser,
    private readonly collector: LoadCollector,
  ) {}

  /** Reads one shell source (a spec command, a script, a recipe line) as run from `cwd` with `env`. */
  shell(source: string, cwd: string, env: ReadonlyMap<string, string | undefined>, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.collector.cannotRead(`commands nested deeper than ${MAX_DEPTH} levels are not read`);
      return;
    }
    const read = readSimpleCommands(this.bash, source, cwd, env);
    for (const problem of read.unreadable) this.collector.cannotRead(problem);
    for (const command of read.commands) this.command(command, depth);
  }

  private command(command: SimpleCommand, depth: number): void {
    const { cwd, env } = command;
    let words = command.words;
    for (;;) {
      const first = words[0]?.exact ? words[0].text : undefined;
      if (first !== undefined && WRAPPERS.has(first)) words = words.slice(1);
      else if (first === 'timeout') {
        // timeout [options] DURATION COMMAND…
        let i = 1;
        while (words[i]?.text.startsWith('-'))
          i += words[i]!.text === '-s' || words[i]!.text === '-k' ? 2 : 1;
        words = words.slice(i + 1);
      } else if (first !== undefined && RUNNERS_RUN.has(first) && words[1]?.text === 'run')
        words = words.slice(2);
      else break;
    }
    if (words[0]?.exact && words[0].text === 'env') {
      words = words.slice(1);
      const own = new Map(env);
      while (words[0]?.exact && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0].text)) {
        const [name, ...value] = words[0].text.split('=');
        own.set(name!, value.join('='));
        words = words.slice(1);
      }
      return this.command({ words, env: own, cwd }, depth);
    }
    const name = words[0];
    if (!name) return;
    if (cwd === undefined) {
      this.collector.cannotRead(`${name.text} runs after a cd the reader cannot follow`);
      return;
    }
    if (!name.exact) {
      this.collector.cannotRead(`a command named by an expansion (${name.text}) is not read`);
      return;
    }
    this.pythonPathRoots(env, cwd);
    this.nodeOptions(env, cwd);
    const args = words.slice(1);
    const text = args.map((w) => w.text);
    const base = path.basename(name.text);
    const next = depth + 1;
    // A program of the checkout run by path is loaded whatever its name; one outside (`/usr/bin/python3`) is known
    // by its name.
    const byPath = name.text.includes('/') ? path.resolve(cwd, name.text) : undefined;
    if (byPath !== undefined && this.collector.relative(byPath) !== undefined)
      return this.script(byPath, [], cwd, env, depth + 1);
    if (LOADS_NOTHING.has(base)) return;
    for (const word of args)
      if (!word.exact)
        this.collector.cannotRead(`${base}: the word ${word.text} cannot be read before it runs`);
    if (base === 'make' || base === 'gmake') return this.make(text, cwd, env, next);
    if (base === 'npm' || base === 'pnpm' || base === 'yarn')
      return this.packageScript(base, text, cwd, env, next);
    if (base === 'npx')
      return this.command({ words: args.filter((w) => !w.text.startsWith('-')), env, cwd }, next);
    if (SHELLS.has(base) || base === 'source' || base === '.') return this.shellScript(text, cwd, env, next);
    if (base === 'node' || base === 'nodejs') return this.node(text, cwd, env, next);
    if (PYTHON.test(base)) return this.python(text, cwd, env, next);
    if (base === 'pytest' || base === 'py.test') return this.pytest(text, cwd, env);
    if (base === 'mocha' || base === '_mocha') return this.mocha(text, cwd);
    if (base === 'jest') return jestConfig(this.collector, cwd, optionValue(text, ['--config', '-c']));
    if (base === 'vitest') return vitestConfig(this.collector, cwd, optionValue(text, ['--config', '-c']));
    this.collector.cannotRead(`${base} is a command the reader does not know: what it loads is not followed`);
  }

  /** A file run by path or by an interpreter: loaded; shell scripts are read on. */
  private script(
    file: string,
    args: readonly string[],
    cwd: string,
    env: ReadonlyMap<string, string | undefined>,
    depth: number,
  ): void {
    if (!this.collector.add(file, 'the spec command runs it')) return;
    const text = readText(file);
    if (text === undefined) return;
    const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text)?.slice(1) ?? [];
    const interpreter = path.basename(
      shebang[0] === '/usr/bin/env' ? (shebang[1] ?? '') : (shebang[0] ?? ''),
    );
    if (SHELLS.has(interpreter) || (shebang.length === 0 && /\.(sh|bash)$/.test(file)))
      this.shell(text, cwd, env, depth);
    else if (interpreter === 'make') this.make(['-f', file, ...args], cwd, env, depth);
  }

  private shellScript(
    args: readonly string[],
    cwd: string,
    env: ReadonlyMap<string, string | undefined>,
    depth: number,
  ): void {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '-c') {
        const code = args[i + 1];
        if (code !== undefined) this.shell(code, cwd, env, depth);
        return;
      }
      if (arg === '-o' || arg === '+o') i++;
      else if (!arg.startsWith('-') && !arg.startsWith('+'))
        return this.script(path.resolve(cwd, arg), args.slice(i + 1), cwd, env, depth);
    }
  }

  private make(
    args: readonly string[],
    cwd: string,
    env: ReadonlyMap<string, string | undefined>,
    depth: number,
  ): void {
    let dir = cwd;
    let file: string | undefined;
    const targets: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '-C' || arg === '--directory') dir = path.resolve(dir, args[++i] ?? '.');
      else if (arg.startsWith('-C') && arg.length > 2) dir = path.resolve(dir, arg.slice(2));
      else if (arg === '-f' || arg === '--file' || arg === '--makefile') file = args[++i];
      else if (arg.startsWith('-')) continue;
      else if (!arg.includes('=')) targets.push(arg);
    }
    const makefile = readMakefile(this.collector, dir, file);
    if (makefile === undefined) return;
    for (const { line } of recipesFor(makefile, targets)) this.shell(line, dir, env, depth);
  }

  private packageScript(
    manager: string,
    args: readonly string[],
    cwd: string,
    env: ReadonlyMap<string, string | undefined>,
    depth: number,
  ): void {
    const words = args.filter((a) => !a.startsWith('-'));
    const [verb, second] = words;
    if (verb === 'exec' || verb === 'x' || verb === 'dlx') {
      const rest = args.slice(args.indexOf(verb) + 1).filter((a) => !a.startsWith('-'));
      if (rest.length > 0)
        this.command({ words: rest.map((text) => ({ text, exact: true })), env, cwd }, depth);
      return;
    }
    if (verb === 'install' || verb === 'ci' || verb === 'i' || verb === 'add') return;
    const script =
      verb === undefined
        ? undefined
        : ['test', 't', 'tst'].includes(verb)
          ? 'test'
          : verb === 'start'
            ? 'start'
            : ['run', 'run-script', 'rum', 'urn'].includes(verb)
              ? second
              : manager !== 'npm'
                ? verb
                : undefined;
    if (script === undefined) {
      this.collector.cannotRead(`${manager} ${args.join(' ')}: which script runs cannot be read`);
      return;
    }
    const manifest = nearestPackageJson(cwd, this.collector);
    if (manifest === undefined) {
      this.collector.cannotRead(`${manager} ${script} finds no package.json`);
      return;
    }
    const scripts = scriptsOf(manifest);
    for (const name of [`pre${script}`, script, `post${script}`]) {
      const body = scripts?.[name];
      this.collector.addKey(manifest, `scripts.${name}`, `${manager} ${script} runs it`);
      if (typeof body === 'string') this.shell(body, path.dirname(manifest), env, depth);
    }
  }

  private node(
    args: readonly string[],
    cwd: string,
    env: ReadonlyMap<string, string | undefined>,
    depth: number,
  ): void {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      const [option, inline] = arg.startsWith('--') ? (arg.split(/=(.*)/s, 2) as [string, string?]) : [arg];
      if (NODE_PRELOADS.has(option)) {
        const value = inline ?? args[++i];
        if (value !== undefined) nodeEntry(this.collector, cwd, value, `node ${option} preloads it`);
      } else if (option === '--env-file' || option === '--env-file-if-exists') {
        const value = inline ?? args[++i];
        if (value !== undefined) this.collector.add(path.resolve(cwd, value), `node ${option} reads it`);
      } else if (['-e', '--eval', '-p', '--print'].includes(option)) {
        this.collector.cannotRead('node runs inline code (-e/-p): the files it loads are not read');
        return;
      } else if (option === '--test') {
        return; // the rest are test files, which the runner finds; their imports are the helpers' part
      } else if (NODE_VALUE_OPTIONS.has(option) && inline === undefined) {
        i++;
      } else if (!arg.startsWith('-')) {
        return this.script(resolveNodeFile(path.resolve(cwd, arg)), args.slice(i + 1), cwd, env, depth);
      }
    }
  }

  private python(
    args: readonly string[],
    cwd: string,
    env: ReadonlyMap<string, string | undefined>,
    depth: number,
  ): void {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '-m') {
        const module = args[i + 1];
        const rest = args.slice(i + 2);
        if (module === 'pytest' || module === 'py.test') return this.pytest(rest, cwd, env);
        if (module === 'unittest' || module === undefined) return;
        pythonModule(this.collector, module, [cwd, ...this.pythonRoots(env, cwd)], 'python -m');
        return;
      }
      if (arg === '-c') {
        this.collector.cannotRead('python runs inline code (-c): the modules it imports are not read');
        return;
      }
      if (arg === '-W' || arg === '-X' || arg === '--check-hash-based-pycs') i++;
      else if (!arg.startsWith('-'))
        return this.script(path.resolve(cwd, arg), args.slice(i + 1), cwd, env, depth);
    }
  }

  private pytest(args: readonly string[], cwd: string, env: ReadonlyMap<string, string | undefined>): void {
    const roots = [cwd, this.collector.workspaceDir, ...this.pythonRoots(env, cwd)];
    pytestArguments(this.collector, args, cwd, roots);
    const fromEnv = env.get('PYTEST_ADDOPTS');
    if (fromEnv) pytestArguments(this.collector, fromEnv.split(/\s+/), cwd, roots);
    for (const plugin of (env.get('PYTEST_PLUGINS') ?? '').split(',').filter(Boolean))
      pythonModule(this.collector, plugin.trim(), roots, 'PYTEST_PLUGINS');
    if (!args.includes('-c') && !args.some((a) => a.startsWith('--config-file')))
      pytestConfigPlugins(this.collector, cwd, roots);
  }

  private mocha(args: readonly string[], cwd: string): void {
    mochaConfig(this.collector, cwd, optionValue(args, ['--config']));
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '-r' || arg === '--require' || arg === '--file')
        nodeEntry(this.collector, cwd, args[++i] ?? '', `mocha ${arg} loads it`);
    }
  }

  /** Folders of PYTHONPATH (relative ones from `cwd`). */
  private pythonRoots(env: ReadonlyMap<string, string | undefined>, cwd: string): string[] {
    const value = env.get('PYTHONPATH');
    if (value === undefined) return [];
    return value
      .split(':')
      .filter(Boolean)
      .map((p) => path.resolve(cwd, p));
  }

  /** Python imports sitecustomize and usercustomize from every sys.path folder at start-up. */
  private pythonPathRoots(env: ReadonlyMap<string, string | undefined>, cwd: string): void {
    if (env.has('PYTHONPATH') && env.get('PYTHONPATH') === undefined)
      this.collector.cannotRead('PYTHONPATH is set to a value the reader cannot know');
    for (const root of this.pythonRoots(env, cwd))
      for (const name of ['sitecustomize', 'usercustomize'])
        for (const file of [`${name}.py`, `${name}/__init__.py`])
          this.collector.add(path.join(root, file), `Python imports ${name} from PYTHONPATH at start-up`);
  }

  private nodeOptions(env: ReadonlyMap<string, string | undefined>, cwd: string): void {
    if (env.has('NODE_OPTIONS') && env.get('NODE_OPTIONS') === undefined)
      this.collector.cannotRead('NODE_OPTIONS is set to a value the reader cannot know');
    const words = (env.get('NODE_OPTIONS') ?? '').split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i++) {
      const [option, inline] = words[i]!.split(/=(.*)/s, 2) as [string, string?];
      if (!NODE_PRELOADS.has(option)) continue;
      const value = inline ?? words[++i];
      if (value !== undefined) nodeEntry(this.collector, cwd, value, `NODE_OPTIONS ${option} preloads it`);
    }
  }
}

function optionValue(args: readonly string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (names.includes(arg)) return args[i + 1];
    for (const name of names) if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
  }
  return undefined;
}

function nearestPackageJson(cwd: string, collector: LoadCollector): string | undefined {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (isFile(file)) return file;
    if (collector.relative(dir) === undefined || path.dirname(dir) === dir) return undefined;
  }
}

function scriptsOf(manifest: string): Record<string, unknown> | undefined {
  try {
    const scripts = (JSON.parse(readText(manifest) ?? '{}') as { scripts?: unknown }).scripts;
    return typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
