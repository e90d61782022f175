// Two TypeScript libraries built like the real ones whose coverage used to stay per file (issue #26), for the
// selection bench and the source-map e2e test:
//   vitest   one src/index.ts with many functions, a vitest test file per function (vite transforms the
//            source in memory: coverage maps back through its inline source maps)
//   tsc      lib/*.ts compiled by `tsc -p tsconfig.test.json` in `pretest` to a git-ignored build/ with
//            source maps; the tests (node:test) require build/index.js
// Dependencies come from the real npm registry, installed as users install them (`npm install` with pinned
// versions); the installed node_modules is cached under ~/.cache/weave/transpiled-libraries/ by the hash of
// package.json and copied into each workspace, so a run only downloads once per machine.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type TranspiledKind = 'vitest' | 'tsc';

// Exact versions: the same install every run (as test/support/registryRepos.ts pins them).
const VITEST = '3.2.4';
const TYPESCRIPT = '5.6.3';

/** One library function: its TypeScript source and a test body that pins what it returns. */
interface LibraryFunction {
  name: string;
  module: 'math' | 'text' | 'list';
  source: string;
  /** Assertions as `[call, expected JSON]`. */
  checks: Array<[string, string]>;
}

const FUNCTIONS: LibraryFunction[] = [
  {
    name: 'clamp',
    module: 'math',
    source: [
      'export function clamp(value: number, low: number, high: number): number {',
      '  if (value < low) return low;',
      '  if (value > high) return high;',
      '  return value;',
      '}',
    ].join('\n'),
    checks: [
      ['clamp(12, 0, 10)', '10'],
      ['clamp(-3, 0, 10)', '0'],
      ['clamp(0, 0, 10)', '0'],
      ['clamp(10, 0, 10)', '10'],
      ['clamp(4, 0, 10)', '4'],
    ],
  },
  {
    name: 'scale',
    module: 'math',
    source: [
      'export function scale(a: number, b: number): number {',
      '  const factor: number = 3;',
      '  return a * factor + b;',
      '}',
    ].join('\n'),
    checks: [['scale(2, 5)', '11']],
  },
  {
    name: 'sum',
    module: 'math',
    source: [
      'export function sum(xs: readonly number[]): number {',
      '  let total = 0;',
      '  for (const x of xs) total += x;',
      '  return total;',
      '}',
    ].join('\n'),
    checks: [['sum([1, 2, 4])', '7']],
  },
  {
    name: 'mean',
    module: 'math',
    source: [
      'export function mean(xs: readonly number[]): number {',
      '  if (xs.length === 0) return 0;',
      '  return sum(xs) / xs.length;',
      '}',
    ].join('\n'),
    checks: [
      ['mean([2, 4, 9])', '5'],
      ['mean([])', '0'],
    ],
  },
  {
    name: 'sumAbove',
    module: 'math',
    source: [
      'export function sumAbove(xs: readonly number[], limit: number): number {',
      '  let total = 0;',
      '  for (const x of xs) {',
      '    if (x > limit) total += x;',
      '  }',
      '  return total;',
      '}',
    ].join('\n'),
    checks: [['sumAbove([1, 3, 4, 8], 3)', '12']],
  },
  {
    name: 'percentOf',
    module: 'math',
    source: [
      'export function percentOf(part: number, whole: number): number {',
      '  if (whole === 0) return 0;',
      '  return Math.round((part / whole) * 100);',
      '}',
    ].join('\n'),
    checks: [
      ['percentOf(1, 4)', '25'],
      ['percentOf(3, 0)', '0'],
    ],
  },
  {
    name: 'parity',
    module: 'math',
    source: [
      "export function parity(n: number): 'even' | 'odd' {",
      "  if (n % 2 === 0) return 'even';",
      "  return 'odd';",
      '}',
    ].join('\n'),
    checks: [
      ['parity(4)', '"even"'],
      ['parity(7)', '"odd"'],
    ],
  },
  {
    name: 'shout',
    module: 'text',
    source: [
      'export function shout(s: string): string {',
      '  const text = s.trim().toUpperCase();',
      "  return text + '-' + 2;",
      '}',
    ].join('\n'),
    checks: [["shout(' ab c ')", '"AB C-2"']],
  },
  {
    name: 'slug',
    module: 'text',
    source: [
      'export function slug(s: string): string {',
      '  const words = s.trim().toLowerCase().split(/\\s+/);',
      "  return words.join('-');",
      '}',
    ].join('\n'),
    checks: [["slug(' Hello Big World ')", '"hello-big-world"']],
  },
  {
    name: 'pad',
    module: 'text',
    source: [
      'export function pad(text: string, width: number): string {',
      '  let out = text;',
      "  while (out.length < width) out = '0' + out;",
      '  return out;',
      '}',
    ].join('\n'),
    checks: [
      ["pad('7', 3)", '"007"'],
      ["pad('1234', 3)", '"1234"'],
    ],
  },
  {
    name: 'label',
    module: 'text',
    source: [
      'export function label(n: number): string {',
      "  const kind = n < 0 ? 'negative' : 'positive';",
      "  return kind + ':' + n;",
      '}',
    ].join('\n'),
    checks: [
      ['label(3)', '"positive:3"'],
      ['label(-2)', '"negative:-2"'],
    ],
  },
  {
    name: 'keyValue',
    module: 'text',
    source: [
      'export function keyValue(key: string, value: unknown): string {',
      "  const shown = typeof value === 'string' ? value : JSON.stringify(value);",
      "  return key + '=' + shown;",
      '}',
    ].join('\n'),
    checks: [
      ["keyValue('a', 'b')", '"a=b"'],
      ["keyValue('n', 3)", '"n=3"'],
    ],
  },
  {
    name: 'range',
    module: 'list',
    source: [
      'export function range(start: number, end: number): number[] {',
      '  const out: number[] = [];',
      '  for (let i = start; i < end; i++) out.push(i);',
      '  return out;',
      '}',
    ].join('\n'),
    checks: [
      ['range(1, 4)', '[1, 2, 3]'],
      ['range(3, 3)', '[]'],
    ],
  },
  {
    name: 'chunk',
    module: 'list',
    source: [
      'export function chunk<T>(xs: readonly T[], size: number): T[][] {',
      '  const out: T[][] = [];',
      '  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));',
      '  return out;',
      '}',
    ].join('\n'),
    checks: [['chunk([1, 2, 3, 4, 5], 2)', '[[1, 2], [3, 4], [5]]']],
  },
  {
    name: 'Counter',
    module: 'list',
    source: [
      'export class Counter {',
      '  private count = 0;',
      '',
      '  add(step: number): number {',
      '    this.count += step;',
      '    return this.count;',
      '  }',
      '',
      '  reset(): void {',
      '    this.count = 0;',
      '  }',
      '}',
    ].join('\n'),
    checks: [['((c) => (c.add(2), c.add(3)))(new Counter())', '5']],
  },
];

/** A function's spec id: `sumAbove` → `sum-above`. */
export function specIdOf(name: string): string {
  return name.replace(/[A-Z]/g, (c, at: number) => (at === 0 ? '' : '-') + c.toLowerCase());
}

/** The spec ids, one per function (a mean's test also runs sum: one function calling another). */
export const TRANSPILED_SPECS = FUNCTIONS.map((f) => specIdOf(f.name));

/** The source files mutants go into. */
export function transpiledSources(kind: TranspiledKind): string[] {
  return kind === 'vitest' ? ['src/index.ts'] : ['lib/math.ts', 'lib/text.ts', 'lib/list.ts'];
}

function moduleText(functions: LibraryFunction[], header = ''): string {
  return `${header}${functions.map((f) => f.source).join('\n\n')}\n`;
}

function testText(kind: TranspiledKind, f: LibraryFunction): string {
  const checks = f.checks.map(([call, expected]) =>
    kind === 'vitest'
      ? `  expect(${call}).toEqual(${expected});`
      : `  assert.deepEqual(${call}, ${expected});`,
  );
  return kind === 'vitest'
    ? [
        "import { expect, test } from 'vitest';",
        `import { ${f.name} } from '../src/index';`,
        '',
        `test('${f.name}', () => {`,
        ...checks,
        '});',
        '',
      ].join('\n')
    : [
        "const test = require('node:test');",
        "const assert = require('node:assert/strict');",
        `const { ${f.name} } = require('../build/index.js');`,
        '',
        `test('${f.name}', () => {`,
        ...checks,
        '});',
        '',
      ].join('\n');
}

function packageJson(kind: TranspiledKind): string {
  const pkg =
    kind === 'vitest'
      ? {
          name: 'numkit',
          version: '1.0.0',
          private: true,
          type: 'module',
          scripts: { test: 'vitest run' },
          devDependencies: { vitest: VITEST },
        }
      : {
          name: 'numkit-build',
          version: '1.0.0',
          private: true,
          main: 'build/index.js',
          scripts: { pretest: 'tsc -p tsconfig.test.json', test: 'node --test' },
          devDependencies: { typescript: TYPESCRIPT },
        };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** The workspace's files (package.json, sources, tests, .weave/specs.json), without node_modules. */
export function transpiledLibraryFiles(kind: TranspiledKind): Record<string, string> {
  const files: Record<string, string> = { 'package.json': packageJson(kind) };
  if (kind === 'vitest') {
    files['.gitignore'] = 'node_modules/\n';
    files['tsconfig.json'] =
      `${JSON.stringify({ compilerOptions: { strict: true, module: 'esnext', target: 'es2022', moduleResolution: 'bundler', noEmit: true } }, null, 2)}\n`;
    files['src/index.ts'] = moduleText(FUNCTIONS, '// numkit: small numeric, text and list helpers.\n\n');
  } else {
    files['.gitignore'] = 'node_modules/\nbuild/\n';
    files['tsconfig.test.json'] =
      `${JSON.stringify({ compilerOptions: { strict: true, module: 'commonjs', target: 'es2022', outDir: 'build', rootDir: 'lib', sourceMap: true }, include: ['lib'] }, null, 2)}\n`;
    for (const module of ['math', 'text', 'list'] as const) {
      files[`lib/${module}.ts`] = moduleText(FUNCTIONS.filter((f) => f.module === module));
    }
    files['lib/index.ts'] = "export * from './math';\nexport * from './text';\nexport * from './list';\n";
  }
  const specs = FUNCTIONS.map((f) => {
    const file = kind === 'vitest' ? `test/${f.name}.test.ts` : `test/${f.name}.test.js`;
    files[file] = testText(kind, f);
    return {
      id: specIdOf(f.name),
      title: `${f.name} holds`,
      kind: 'functional',
      statement: `The library shall compute ${f.name} as its tests pin it.`,
      test: {
        command: kind === 'vitest' ? `npx vitest run ${file}` : `npm test -- ${file}`,
        files: [file],
        env: {},
      },
      anchors: [],
      dependsOn: [],
      interactsWith: [],
    };
  });
  files['.weave/specs.json'] = `${JSON.stringify(
    {
      version: 1,
      goal: 'numkit: helpers whose tests pin them.',
      defaults: { cwd: '.', timeoutSeconds: 120 },
      specs,
    },
    null,
    2,
  )}\n`;
  return files;
}

/** Where installs are kept between runs (one folder per package.json content). */
export function transpiledCacheDir(): string {
  return process.env.WEAVE_TRANSPILED_CACHE ?? path.join(os.homedir(), '.cache/weave/transpiled-libraries');
}

/**
 * Writes the library into `dir` with its node_modules and package-lock.json (installed from the registry on
 * first use, then copied from the cache). Returns the spec count.
 */
export function writeTranspiledLibrary(dir: string, kind: TranspiledKind): number {
  const files = transpiledLibraryFiles(kind);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  const installed = installedDependencies(kind, files['package.json']!);
  fs.copyFileSync(path.join(installed, 'package-lock.json'), path.join(dir, 'package-lock.json'));
  fs.cpSync(path.join(installed, 'node_modules'), path.join(dir, 'node_modules'), {
    recursive: true,
    verbatimSymlinks: true,
  });
  return TRANSPILED_SPECS.length;
}

function installedDependencies(kind: TranspiledKind, pkg: string): string {
  const key = createHash('sha256').update(pkg).digest('hex').slice(0, 16);
  const dir = path.join(transpiledCacheDir(), `${kind}-${key}`);
  if (fs.existsSync(path.join(dir, '.installed'))) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), pkg);
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: dir,
    stdio: 'pipe',
    timeout: 300_000,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  fs.writeFileSync(path.join(dir, '.installed'), new Date().toISOString());
  return dir;
}
