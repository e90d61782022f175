// A TypeScript URL library tested with vitest 4, shaped like the real one whose coverage mapped for only 2–5 of
// its 8 specs in a full check (issue #40): src/*.ts modules re-exported by src/index.ts, a class with a
// constructor and a getter, several test files (one spec runs a folder of two), half the specs in vitest's
// `forks` pool and half in `threads`. vitest is the project's own devDependency (node_modules is linked, nothing
// downloads); its cache goes to the workspace's git-ignored .vite-cache, not into the linked node_modules.
//
// `slowToEnd` adds a setup file that keeps a fork busy for 2 s when it gets SIGTERM, before anything else
// handles it: what a loaded machine does to every worker. vitest SIGKILLs a fork 500 ms after SIGTERM, so a
// coverage hook that writes only at SIGTERM loses that fork's coverage or its source maps.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths';
import { urlLibraryModules } from './urlLibrarySources';

const MODULES: Record<string, string> = urlLibraryModules('');

interface Vitest4Spec {
  id: string;
  /** A test file, or a folder of them. */
  target: string;
  pool: 'forks' | 'threads';
}

export const VITEST4_SPECS: Vitest4Spec[] = [
  { id: 'percent', target: 'test/percent.test.ts', pool: 'forks' },
  { id: 'ipv4', target: 'test/ipv4.test.ts', pool: 'threads' },
  { id: 'host-port', target: 'test/hostPort.test.ts', pool: 'forks' },
  { id: 'dot-segments', target: 'test/path.test.ts', pool: 'threads' },
  { id: 'query', target: 'test/query', pool: 'forks' },
  { id: 'parse', target: 'test/parse.test.ts', pool: 'threads' },
  { id: 'errors', target: 'test/errors.test.ts', pool: 'forks' },
  { id: 'origin', target: 'test/origin.test.ts', pool: 'threads' },
];

const TESTS: Record<string, string> = {
  'test/percent.test.ts': `import { expect, test } from 'vitest';
import { percentDecode, percentEncode } from '../src/percent';

test('percent-encoding round-trips', () => {
  expect(percentEncode('a b/ü')).toBe('a%20b%2F%C3%BC');
  expect(percentDecode('a+b%2Fc')).toBe('a b/c');
});
`,
  'test/ipv4.test.ts': `import { expect, test } from 'vitest';
import { isIPv4 } from '../src/index';

test('IPv4 addresses', () => {
  expect(isIPv4('10.0.0.255')).toBe(true);
  expect(isIPv4('10.0.0.256')).toBe(false);
  expect(isIPv4('10.0.1')).toBe(false);
});
`,
  'test/hostPort.test.ts': `import { expect, test } from 'vitest';
import { splitHostPort } from '../src/host';

test('host and port', () => {
  expect(splitHostPort('Example.COM.:8080')).toEqual({ host: 'example.com', port: 8080 });
  expect(splitHostPort('a.b')).toEqual({ host: 'a.b', port: null });
});
`,
  'test/path.test.ts': `import { expect, test } from 'vitest';
import { joinPath, normalizePath } from '../src/path';

test('dot segments', () => {
  expect(normalizePath('/a/./b/../c/')).toBe('/a/c/');
  expect(joinPath('/a/b/c', '../d')).toBe('/a/d');
  expect(joinPath('/a/b', '/x/./y')).toBe('/x/y');
});
`,
  'test/query/parse.test.ts': `import { expect, test } from 'vitest';
import { parseQuery } from '../../src/query';

test('parses a query', () => {
  expect(parseQuery('?a=1&b=x+y&c')).toEqual([['a', '1'], ['b', 'x y'], ['c', '']]);
  expect(parseQuery('')).toEqual([]);
});
`,
  'test/query/stringify.test.ts': `import { expect, test } from 'vitest';
import { stringifyQuery } from '../../src/query';

test('writes a query', () => {
  expect(stringifyQuery([['a', '1'], ['b c', 'd&e']])).toBe('?a=1&b%20c=d%26e');
  expect(stringifyQuery([])).toBe('');
});
`,
  'test/parse.test.ts': `import { expect, test } from 'vitest';
import { parseUrl } from '../src/index';

test('parses a URL', () => {
  const url = parseUrl('HTTP://Example.com:81/a/../b?x=1');
  expect([url.protocol, url.host, url.port, url.pathname, url.query]).toEqual([
    'http:', 'example.com', 81, '/b', [['x', '1']],
  ]);
});
`,
  'test/errors.test.ts': `import { expect, test } from 'vitest';
import { UrlError } from '../src/url';

test('errors name the input', () => {
  const error = new UrlError('nope', 'no scheme and authority');
  expect(error.message).toBe('Invalid URL "nope": no scheme and authority');
  expect(error.input).toBe('nope');
});
`,
  'test/origin.test.ts': `import { expect, test } from 'vitest';
import { Url } from '../src/url';

test('origin leaves out the default port', () => {
  expect(new Url('https:', 'a.example', 443, '/', []).origin).toBe('https://a.example');
  expect(new Url('http:', 'a.example', 8080, '/', []).origin).toBe('http://a.example:8080');
});
`,
};

/** The source files mutants go into (the bench). */
export const VITEST4_SOURCES = Object.keys(MODULES).filter((f) => f !== 'src/index.ts');

/** The workspace's files, node_modules aside. */
export function vitest4LibraryFiles(options: { slowToEnd?: boolean } = {}): Record<string, string> {
  const setup = options.slowToEnd ? ", setupFiles: ['test/setup/slowToEnd.ts']" : '';
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(
      {
        name: 'urlkit',
        version: '1.0.0',
        private: true,
        type: 'module',
        scripts: { test: 'vitest run' },
        devDependencies: { vitest: '4.1.12' },
      },
      null,
      2,
    )}\n`,
    '.gitignore': 'node_modules\n.vite-cache/\n',
    'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, module: 'esnext', target: 'es2022', moduleResolution: 'bundler', noEmit: true }, include: ['src', 'test'] }, null, 2)}\n`,
    'vitest.config.ts': `import { defineConfig } from 'vitest/config';

export default defineConfig({
  cacheDir: '.vite-cache',
  test: { include: ['test/**/*.test.ts']${setup} },
});
`,
    ...MODULES,
    ...TESTS,
  };
  if (options.slowToEnd)
    files['test/setup/slowToEnd.ts'] =
      `// A worker that is slow to end, as every worker is on a loaded machine: busy for 2 s on SIGTERM.
process.prependListener('SIGTERM', () => {
  const until = Date.now() + 2000;
  while (Date.now() < until);
});
`;
  const specs = VITEST4_SPECS.map((s) => ({
    id: s.id,
    title: s.id,
    kind: 'functional',
    statement: `urlkit's ${s.id} behaviour, as its tests pin it.`,
    test: {
      command: `npx vitest run ${s.target} --pool=${s.pool}`,
      files: Object.keys(TESTS).filter((f) => f === s.target || f.startsWith(`${s.target}/`)),
    },
  }));
  files['.weave/specs.json'] = `${JSON.stringify(
    { version: 1, goal: 'urlkit: URL parsing whose tests pin it.', defaults: { timeoutSeconds: 300 }, specs },
    null,
    2,
  )}\n`;
  return files;
}

/** Writes the library into `dir` and links the project's node_modules (vitest 4) into it. */
export function writeVitest4Library(dir: string, options: { slowToEnd?: boolean } = {}): void {
  for (const [rel, text] of Object.entries(vitest4LibraryFiles(options))) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
}
