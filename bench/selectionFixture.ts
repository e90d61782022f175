// The workspace of the safe-selection study: 10 modules × 3 specs with real node:test tests, a shared utility
// module used by three of them, and cross-module imports, so that some changes reach many specs and most reach
// few. The seeded mutants applied to its source functions come from the core's operators (selectionMutants.ts).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const MODULES = 10;

/** Modules that import other modules (their specs are reached through the import cone). */
export const IMPORTS: Record<number, number[]> = { 3: [1], 6: [1, 4], 8: [7], 9: [7] };
/** Modules that use src/util.js. */
export const USES_UTIL = new Set([0, 2, 5]);

function moduleSource(k: number): string {
  const K = k + 2;
  const deps = IMPORTS[k] ?? [];
  const header = [
    `'use strict';`,
    `// Module m${k}: arithmetic and text helpers (generated for the selection benchmark).`,
    ...deps.map((d) => `const m${d} = require('./m${d}');`),
    ...(USES_UTIL.has(k) ? [`const util = require('./util');`] : []),
    '',
  ];
  const extra = deps.length > 0 ? ` + m${deps[0]!}.scale${deps[0]!}(1, 0)` : '';
  const label = USES_UTIL.has(k) ? 'util.label(n)' : `'odd' + n`;
  return [
    ...header,
    `function scale${k}(a, b) {`,
    `  const factor = ${K};`,
    `  return a * factor + b;`,
    `}`,
    '',
    `function shout${k}(s) {`,
    `  const text = s.trim().toUpperCase();`,
    `  return text + '-' + ${K};`,
    `}`,
    '',
    `function sumAbove${k}(xs) {`,
    `  let total = 0;`,
    `  for (const x of xs) {`,
    `    if (x > ${K}) total += x;`,
    `  }`,
    `  return total${extra};`,
    `}`,
    '',
    `function parity${k}(n) {`,
    `  if (n % ${K} === 0) return 'multiple';`,
    `  return ${label};`,
    `}`,
    '',
    `module.exports = { scale${k}, shout${k}, sumAbove${k}, parity${k} };`,
    '',
  ].join('\n');
}

const UTIL = [
  `'use strict';`,
  '// Shared by m0, m2 and m5.',
  'function label(n) {',
  "  const kind = n < 0 ? 'negative' : 'positive';",
  "  return kind + ':' + n;",
  '}',
  '',
  'module.exports = { label };',
  '',
].join('\n');

/** What the unmutated module returns for the inputs its tests use. */
function expected(k: number): { scale: number; shout: string; sum: number; parityO: string } {
  const K = k + 2;
  const deps = IMPORTS[k] ?? [];
  const extra = deps.length > 0 ? deps[0]! + 2 : 0; // scale_d(1, 0) is module d's factor
  return {
    scale: 3 * K + 4,
    shout: `AB C-${K}`,
    // sumAbove([1, K, K + 1, K + 5]) keeps the values above K.
    sum: K + 1 + K + 5 + extra,
    parityO: USES_UTIL.has(k) ? `positive:${K + 1}` : `odd${K + 1}`,
  };
}

/** The same functions as module k, for one shared file: names are already unique, imports become calls. */
function inlinedSource(k: number): string {
  return moduleSource(k)
    .split('\n')
    .filter(
      (l) => !l.startsWith('const ') && !l.startsWith("'use strict'") && !l.startsWith('module.exports'),
    )
    .join('\n')
    .replace(/\bm(\d+)\.scale/g, 'scale')
    .replace(/\butil\.label/g, 'label');
}

function testSource(k: number, part: 'a' | 'b' | 'c', requirePath = `../src/m${k}`): string {
  const K = k + 2;
  const e = expected(k);
  const lines = [
    `'use strict';`,
    `const test = require('node:test');`,
    `const assert = require('node:assert/strict');`,
    `const m = require('${requirePath}');`,
    '',
  ];
  if (part === 'a') {
    lines.push(`test('scale and shout', () => {`);
    lines.push(`  assert.equal(m.scale${k}(3, 4), ${e.scale});`);
    lines.push(`  assert.equal(m.shout${k}('  ab c '), ${JSON.stringify(e.shout)});`);
    lines.push('});');
  } else if (part === 'b') {
    lines.push(`test('sum above', () => {`);
    lines.push(`  assert.equal(m.sumAbove${k}([1, ${K}, ${K + 1}, ${K + 5}]), ${e.sum});`);
    lines.push('});');
  } else {
    lines.push(`test('parity', () => {`);
    lines.push(`  assert.equal(m.parity${k}(${K * 2}), 'multiple');`);
    lines.push(`  assert.equal(m.parity${k}(${K + 1}), ${JSON.stringify(e.parityO)});`);
    lines.push('});');
  }
  return lines.join('\n') + '\n';
}

/**
 * The same 30 specs over a single-module library: every function in index.js (the package's main), and every
 * test loads it with `require('..')`, so the import cones of all specs are the same file.
 */
export function writeSingleModuleFixture(dir: string): number {
  const exported = Array.from({ length: MODULES }, (_, k) => [
    `scale${k}`,
    `shout${k}`,
    `sumAbove${k}`,
    `parity${k}`,
  ]).flat();
  const library = [
    `'use strict';`,
    '// A single-module library (generated for the selection benchmark).',
    '',
    ...UTIL.split('\n').filter((l) => !l.startsWith("'use strict'") && !l.startsWith('module.exports')),
    ...Array.from({ length: MODULES }, (_, k) => inlinedSource(k)),
    `module.exports = { label, ${exported.join(', ')} };`,
    '',
  ].join('\n');
  const files: Record<string, string> = {
    'package.json': '{ "name": "single-module", "version": "1.0.0", "main": "index.js", "private": true }\n',
    '.gitignore': '.weave/runs/\n.weave/cache/\n',
    'index.js': library,
  };
  const specs: unknown[] = [];
  for (let k = 0; k < MODULES; k++) {
    for (const part of ['a', 'b', 'c'] as const) {
      const testFile = `test/m${k}-${part}.test.js`;
      files[testFile] = testSource(k, part, '..');
      specs.push({
        id: `m${k}-${part}`,
        title: `group ${k} part ${part}`,
        kind: 'functional',
        statement: `group ${k} ${part}`,
        test: { command: `node ${testFile}`, files: [testFile] },
        dependsOn: part === 'c' && k % 3 === 0 ? [`m${k}-a`] : [],
      });
    }
  }
  files['.weave/specs.json'] =
    JSON.stringify({ version: 1, goal: 'selection benchmark, one module', specs }, null, 2) + '\n';
  writeFiles(dir, files);
  return specs.length;
}

/** The functions the test of module k's part calls (`sum` is the module's spelling of sumAbove). */
export function partSymbols(k: number, part: 'a' | 'b' | 'c', sum: string): string[] {
  return part === 'a' ? [`scale${k}`, `shout${k}`] : part === 'b' ? [sum] : [`parity${k}`];
}

/** Spec m{k}-{part} of a per-module fixture: its test command and file, anchored to the functions it calls. */
export function moduleSpec(
  k: number,
  part: 'a' | 'b' | 'c',
  command: string,
  testFile: string,
  anchors: string[],
): unknown {
  return {
    id: `m${k}-${part}`,
    title: `module ${k} part ${part}`,
    kind: 'functional',
    statement: `m${k} ${part}`,
    test: { command, files: [testFile] },
    anchors,
    // Every third module's parity spec only means something when its scale spec holds.
    dependsOn: part === 'c' && k % 3 === 0 ? [`m${k}-a`] : [],
  };
}

/** Writes `files` (workspace-relative path → content) under dir. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
}

export function writeSelectionFixture(dir: string): number {
  const files: Record<string, string> = {
    'package.json': '{ "name": "selection-fixture", "version": "1.0.0", "private": true }\n',
    '.gitignore': '.weave/runs/\n.weave/cache/\n',
    'src/util.js': UTIL,
  };
  const specs: unknown[] = [];
  for (let k = 0; k < MODULES; k++) {
    files[`src/m${k}.js`] = moduleSource(k);
    for (const part of ['a', 'b', 'c'] as const) {
      const testFile = `test/m${k}-${part}.test.js`;
      files[testFile] = testSource(k, part);
      const symbols = partSymbols(k, part, `sumAbove${k}`);
      // Plain `node FILE`: node:test reports its summary, one process per spec.
      specs.push(
        moduleSpec(
          k,
          part,
          `node ${testFile}`,
          testFile,
          symbols.map((s) => `src/m${k}.js#${s}`),
        ),
      );
    }
  }
  files['.weave/specs.json'] =
    JSON.stringify({ version: 1, goal: 'selection benchmark', specs }, null, 2) + '\n';
  writeFiles(dir, files);
  return specs.length;
}

/** Runs git in a bench workspace as a fixed bench author (commits need an identity; output is not wanted). */
export function gitIn(dir: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd: dir,
    stdio: 'ignore',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'b',
      GIT_AUTHOR_EMAIL: 'b@example.invalid',
      GIT_COMMITTER_NAME: 'b',
      GIT_COMMITTER_EMAIL: 'b@example.invalid',
    },
  });
}

/** A fraction as a percentage with one decimal. */
export function percent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}
