// The workspaces of the check bench (check.bench.ts): the same fixed amount of SHA-256 hashing per spec, as a
// bare script, as a package's own `npm test`, and split over modules so that a one-module change reaches only
// the specs that run that module (the incremental coverage rows).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';

// The test each spec runs: N rounds of SHA-256 over a small buffer, then a summary line Weave recognises.
export const WORKER = `const { createHash } = require('node:crypto');
const rounds = Number(process.argv[2]);
let digest = Buffer.alloc(64, 1);
for (let i = 0; i < rounds; i++) digest = createHash('sha256').update(digest).digest();
console.log(digest.toString('hex').slice(0, 8));
console.log('1 passed, 0 failed');
`;

/** The hashing as a library function (`revision` sits in its body: changing it changes the function). */
const digestFunction = (revision: number): string[] => [
  "const { createHash } = require('node:crypto');",
  'exports.digest = function digest(rounds) {',
  `  // revision ${revision}`,
  '  let digest = Buffer.alloc(64, 1);',
  "  for (let i = 0; i < rounds; i++) digest = createHash('sha256').update(digest).digest();",
  "  return digest.toString('hex');",
  '};',
  '',
];

// The same work as a package's test suite: a library function, four node:test files that require('..').
export const RUNNER_FILES = (rounds: number): Record<string, string> => ({
  'package.json': JSON.stringify({
    name: 'digest-lib',
    version: '1.0.0',
    main: 'index.js',
    scripts: { test: 'node --test' },
  }),
  'index.js': digestFunction(0).join('\n'),
  ...Object.fromEntries(
    [1, 2, 3, 4].map((n) => [
      `test/part${n}.test.js`,
      [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        "const { digest } = require('..');",
        `test('part ${n}', () => assert.equal(digest(${Math.round(rounds / 4)}).length, 64));`,
        '',
      ].join('\n'),
    ]),
  ),
});

/** Modules of the incremental workspace: spec i runs module i mod MODULES. */
export const MODULES = 8;

/** lib/partK.js (the hashing) and workK.js (its test) for each module, and the commit of them all. */
export const MODULE_FILES = (): Record<string, string> =>
  Object.fromEntries(
    Array.from({ length: MODULES }, (_, k) => [
      [`lib/part${k}.js`, digestFunction(0).join('\n')],
      [
        `work${k}.js`,
        [
          `const { digest } = require('./lib/part${k}.js');`,
          'console.log(digest(Number(process.argv[2])).slice(0, 8));',
          "console.log('1 passed, 0 failed');",
          '',
        ].join('\n'),
      ],
    ]).flat(),
  );

/** Changes the body of module k's function: what the specs that run it executed. */
export async function editModule(dir: string, k: number, revision: number): Promise<void> {
  await fs.writeFile(path.join(dir, `lib/part${k}.js`), digestFunction(revision).join('\n'));
}

export interface BenchSpecs {
  count: number;
  workMs: number;
  /** Spec i's command (0-based). */
  command: (i: number) => string;
  files?: (i: number) => string[];
}

export async function writeWorkspace(
  dir: string,
  files: Record<string, string>,
  specs: BenchSpecs,
): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  }
  const list = Array.from({ length: specs.count }, (_, i) => ({
    id: `spec-${String(i + 1).padStart(2, '0')}`,
    title: `busy ${i + 1}`,
    kind: 'performance',
    statement: `~${specs.workMs} ms of hashing`,
    test: { command: specs.command(i), ...(specs.files ? { files: specs.files(i) } : {}) },
  }));
  await fs.mkdir(path.join(dir, '.weave'), { recursive: true });
  await fs.writeFile(
    path.join(dir, '.weave/specs.json'),
    JSON.stringify({ version: 1, specs: list }, null, 2),
  );
}

/** A git repository of everything in `dir` (coverage reuse compares snapshots of it). */
export function commitAll(dir: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      stdio: 'ignore',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'bench',
        GIT_AUTHOR_EMAIL: 'bench@localhost',
        GIT_COMMITTER_NAME: 'bench',
        GIT_COMMITTER_EMAIL: 'bench@localhost',
      },
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'bench');
}
