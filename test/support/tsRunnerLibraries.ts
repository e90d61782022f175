// The vitest 4 URL library's shape (vitest4Library.ts) under two more TypeScript runners, for issue #40's
// "coverage that maps every time": 8 specs over several test files (some specs run a folder of two), src/*.ts
// modules re-exported by src/index.ts, a class with a constructor and a getter.
//   jest     jest 30 with a TypeScript transform that returns CommonJS and an inline source map, as ts-jest,
//            @swc/jest and babel-jest do (here esbuild, the project's own devDependency: ts-jest, @swc/jest and
//            @babel/preset-typescript are not installed); `--maxWorkers=2`, so a spec over two files runs in
//            jest's worker pool (jest-worker's child processes)
//   node     `node --test` on .ts files through Node's own type stripping (tsx and ts-node are not installed):
//            erasable syntax only, imports name their .ts files
// Both link the project's node_modules; jest's cache goes to the workspace's git-ignored .jest-cache.
// `sourceMaps: false` (jest) makes the transform emit none, for the reason a file then stays whole.
//
// `slowToEnd` (jest) preloads, through the specs' NODE_OPTIONS, a file that keeps every jest worker busy for 2 s
// in its first 'exit' listener: what a loaded machine does to every worker. jest asks a worker to end over IPC, waits 500 ms, then SIGTERMs it and
// SIGKILLs it 500 ms later, so a coverage hook that writes only at exit loses that worker's coverage.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths';
import { urlLibraryModules as modules } from './urlLibrarySources';

export type TsRunner = 'jest' | 'node';

export interface TsRunnerSpec {
  id: string;
  /** Test files (a spec over two runs them in one command). */
  files: string[];
}

export const TS_RUNNER_SPECS: TsRunnerSpec[] = [
  { id: 'percent', files: ['test/percent.test.ts'] },
  { id: 'ipv4', files: ['test/ipv4.test.ts'] },
  { id: 'host-port', files: ['test/host/split.test.ts', 'test/host/normalize.test.ts'] },
  { id: 'dot-segments', files: ['test/path.test.ts'] },
  { id: 'query', files: ['test/query/parse.test.ts', 'test/query/stringify.test.ts'] },
  { id: 'parse', files: ['test/parse/url.test.ts', 'test/parse/relative.test.ts'] },
  { id: 'errors', files: ['test/errors.test.ts'] },
  { id: 'origin', files: ['test/origin.test.ts'] },
];

/** What each spec's tests must be seen running, in the original TypeScript. */
export const TS_RUNNER_EXPECTED: Record<string, string[]> = {
  percent: ['src/percent.ts#percentDecode', 'src/percent.ts#percentEncode'],
  ipv4: ['src/host.ts#isIPv4'],
  'host-port': ['src/host.ts#normalizeHost', 'src/host.ts#splitHostPort'],
  'dot-segments': ['src/path.ts#joinPath', 'src/path.ts#normalizePath'],
  query: ['src/percent.ts#percentDecode', 'src/query.ts#parseQuery', 'src/query.ts#stringifyQuery'],
  parse: [
    'src/host.ts#splitHostPort',
    'src/path.ts#joinPath',
    'src/query.ts#parseQuery',
    'src/url.ts#parseUrl',
  ],
  errors: ['src/url.ts#UrlError.constructor'],
  origin: ['src/url.ts#Url.constructor', 'src/url.ts#Url.origin'],
};

/** Test bodies by file: [imports from src (module → names), body]. */
const TESTS: Record<string, [Record<string, string[]>, string, string]> = {
  'test/percent.test.ts': [
    { percent: ['percentDecode', 'percentEncode'] },
    'percent-encoding round-trips',
    `equal(percentEncode('a b/ü'), 'a%20b%2F%C3%BC');
  equal(percentDecode('a+b%2Fc'), 'a b/c');`,
  ],
  'test/ipv4.test.ts': [
    { index: ['isIPv4'] },
    'IPv4 addresses',
    `equal(isIPv4('10.0.0.255'), true);
  equal(isIPv4('10.0.0.256'), false);
  equal(isIPv4('10.0.1'), false);`,
  ],
  'test/host/split.test.ts': [
    { host: ['splitHostPort'] },
    'host and port',
    `same(splitHostPort('Example.COM.:8080'), { host: 'example.com', port: 8080 });
  same(splitHostPort('a.b'), { host: 'a.b', port: null });`,
  ],
  'test/host/normalize.test.ts': [
    { host: ['normalizeHost'] },
    'host names are lower case without the trailing dot',
    `equal(normalizeHost('A.Example.'), 'a.example');`,
  ],
  'test/path.test.ts': [
    { path: ['joinPath', 'normalizePath'] },
    'dot segments',
    `equal(normalizePath('/a/./b/../c/'), '/a/c/');
  equal(joinPath('/a/b/c', '../d'), '/a/d');
  equal(joinPath('/a/b', '/x/./y'), '/x/y');`,
  ],
  'test/query/parse.test.ts': [
    { query: ['parseQuery'] },
    'parses a query',
    `same(parseQuery('?a=1&b=x+y&c'), [['a', '1'], ['b', 'x y'], ['c', '']]);
  same(parseQuery(''), []);`,
  ],
  'test/query/stringify.test.ts': [
    { query: ['stringifyQuery'] },
    'writes a query',
    `equal(stringifyQuery([['a', '1'], ['b c', 'd&e']]), '?a=1&b%20c=d%26e');
  equal(stringifyQuery([]), '');`,
  ],
  'test/parse/url.test.ts': [
    { index: ['parseUrl'] },
    'parses a URL',
    `const url = parseUrl('HTTP://Example.com:81/a/../b?x=1');
  same([url.protocol, url.host, url.port, url.pathname, url.query], ['http:', 'example.com', 81, '/b', [['x', '1']]]);`,
  ],
  'test/parse/relative.test.ts': [
    { path: ['joinPath'] },
    'resolves a relative reference',
    `equal(joinPath('/docs/a/b.html', '../c.html'), '/docs/c.html');`,
  ],
  'test/errors.test.ts': [
    { url: ['UrlError'] },
    'errors name the input',
    `const error = new UrlError('nope', 'no scheme and authority');
  equal(error.message, 'Invalid URL "nope": no scheme and authority');
  equal(error.input, 'nope');`,
  ],
  'test/origin.test.ts': [
    { url: ['Url'] },
    'origin leaves out the default port',
    `equal(new Url('https:', 'a.example', 443, '/', []).origin, 'https://a.example');
  equal(new Url('http:', 'a.example', 8080, '/', []).origin, 'http://a.example:8080');`,
  ],
};

function testFile(runner: TsRunner, file: string): string {
  const [imports, title, body] = TESTS[file]!;
  const up = '../'.repeat(file.split('/').length - 1);
  const ext = runner === 'node' ? '.ts' : '';
  const head =
    runner === 'jest'
      ? `import { expect, test } from '@jest/globals';\n`
      : `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n`;
  const asserts =
    runner === 'jest'
      ? `const equal = (a: unknown, b: unknown): void => expect(a).toBe(b);\nconst same = (a: unknown, b: unknown): void => expect(a).toEqual(b);\n`
      : `const equal = (a: unknown, b: unknown): void => assert.equal(a, b);\nconst same = (a: unknown, b: unknown): void => assert.deepEqual(a, b);\n`;
  const from = Object.entries(imports)
    .map(([m, names]) => `import { ${names.join(', ')} } from '${up}src/${m}${ext}';\n`)
    .join('');
  return `${head}${from}\n${asserts}\ntest('${title}', () => {\n  ${body}\n});\n`;
}

/** The source files mutants go into (the bench). */
export const TS_RUNNER_SOURCES = [
  'src/percent.ts',
  'src/host.ts',
  'src/path.ts',
  'src/query.ts',
  'src/url.ts',
];

export interface TsRunnerOptions {
  slowToEnd?: boolean;
  /** jest's transform emits no source map (as a transformer configured without them): default true. */
  sourceMaps?: boolean;
}

export function tsRunnerLibraryFiles(
  runner: TsRunner,
  options: TsRunnerOptions = {},
): Record<string, string> {
  const files: Record<string, string> = { ...modules(runner === 'node' ? '.ts' : '') };
  for (const file of Object.keys(TESTS)) files[file] = testFile(runner, file);
  const compilerOptions =
    runner === 'node'
      ? {
          strict: true,
          module: 'nodenext',
          target: 'es2022',
          allowImportingTsExtensions: true,
          erasableSyntaxOnly: true,
          noEmit: true,
          types: ['node'],
        }
      : {
          strict: true,
          module: 'commonjs',
          target: 'es2022',
          moduleResolution: 'node10',
          noEmit: true,
          types: [] as string[],
        };
  files['tsconfig.json'] = `${JSON.stringify({ compilerOptions, include: ['src', 'test'] }, null, 2)}\n`;
  let command: (spec: TsRunnerSpec) => string;
  if (runner === 'jest') {
    files['package.json'] = `${JSON.stringify(
      {
        name: 'urlkit',
        version: '1.0.0',
        private: true,
        scripts: { test: 'jest' },
        devDependencies: { jest: '30.5.2', esbuild: '0.28.2' },
      },
      null,
      2,
    )}\n`;
    files['.gitignore'] = 'node_modules\n.jest-cache/\n';
    files['jest.config.cjs'] = `module.exports = {
  testEnvironment: 'node',
  cacheDirectory: '<rootDir>/.jest-cache',
  transform: { '\\\\.ts$': '<rootDir>/jest.transform.cjs' },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // Big suites set it against leaking workers; it also keeps jest from running a spec's files in band.
  workerIdleMemoryLimit: '512MB',
};
`;
    files['jest.transform.cjs'] =
      `// TypeScript to CommonJS with an inline source map, as ts-jest, @swc/jest and babel-jest return it.
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code } = transformSync(source, {
      loader: 'ts',
      format: 'cjs',
      target: 'node20',
      sourcemap: ${options.sourceMaps === false ? 'false' : "'inline'"},
      sourcefile: filename,
    });
    return { code };
  },
};
`;
    if (options.slowToEnd)
      files['test/setup/slowToEnd.cjs'] =
        `// A jest worker that is slow to end, as every worker is on a loaded machine: busy for 2 s as it exits.
if (/jest-worker/.test(process.argv[1] || '')) {
  process.prependListener('exit', () => {
    const until = Date.now() + 2000;
    while (Date.now() < until);
  });
}
`;
    command = (spec) => `npx jest --maxWorkers=2 ${spec.files.join(' ')}`;
  } else {
    files['package.json'] = `${JSON.stringify(
      { name: 'urlkit', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --test' } },
      null,
      2,
    )}\n`;
    files['.gitignore'] = 'node_modules\n';
    command = (spec) => `node --test ${spec.files.join(' ')}`;
  }
  const specs = TS_RUNNER_SPECS.map((s) => ({
    id: s.id,
    title: s.id,
    kind: 'functional',
    statement: `urlkit's ${s.id} behaviour, as its tests pin it.`,
    test: {
      command: command(s),
      files: s.files,
      ...(runner === 'jest' && options.slowToEnd
        ? { env: { NODE_OPTIONS: '--require ./test/setup/slowToEnd.cjs' } }
        : {}),
    },
  }));
  files['.weave/specs.json'] = `${JSON.stringify(
    { version: 1, goal: 'urlkit: URL parsing whose tests pin it.', defaults: { timeoutSeconds: 300 }, specs },
    null,
    2,
  )}\n`;
  return files;
}

/** Writes the library for `runner` into `dir` and links the project's node_modules into it. */
export function writeTsRunnerLibrary(dir: string, runner: TsRunner, options: TsRunnerOptions = {}): void {
  for (const [rel, text] of Object.entries(tsRunnerLibraryFiles(runner, options))) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
}
