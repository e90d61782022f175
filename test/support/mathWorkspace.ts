// A small real-shaped workspace for the MCP and guard tests: a single-module library whose tests `require('..')`,
// one spec that passes and one that fails (by assertion), committed in a throw-away git repository.
import { makeRepo } from './gitRepo';

export const SPECS = {
  version: 1,
  goal: 'Arithmetic helpers.',
  defaults: { cwd: '.', env: {}, timeoutSeconds: 60 },
  specs: [
    {
      id: 'add-works',
      title: 'add returns the sum',
      kind: 'functional',
      statement: 'When given two numbers, add shall return their sum.',
      test: { command: 'node --test test/add.test.js', files: ['test/add.test.js'] },
      anchors: ['index.js#add'],
      dependsOn: [],
      interactsWith: ['sub-works'],
    },
    {
      id: 'sub-works',
      title: 'sub returns the difference',
      kind: 'functional',
      statement: 'When given a and b, sub shall return a - b.',
      test: { command: 'node --test test/sub.test.js', files: ['test/sub.test.js'] },
      anchors: ['index.js#sub'],
      dependsOn: [],
      interactsWith: [],
    },
  ],
};

export const INDEX_JS = `'use strict';
function add(a, b) {
  return a + b;
}

function sub(a, b) {
  return b - a; // the bug the failing spec reports
}

module.exports = { add, sub };
`;

export async function makeMathWorkspace(): Promise<string> {
  return makeRepo({
    'package.json': JSON.stringify({ name: 'mathlib', version: '1.0.0', main: 'index.js' }, null, 2),
    'index.js': INDEX_JS,
    'test/add.test.js': `const test = require('node:test');
const assert = require('node:assert');
const { add } = require('..');
test('add', () => assert.strictEqual(add(2, 3), 5));
`,
    'test/sub.test.js': `const test = require('node:test');
const assert = require('node:assert');
const { sub } = require('..');
test('sub', () => assert.strictEqual(sub(5, 3), 2));
`,
    '.weave/specs.json': JSON.stringify(SPECS, null, 2),
    '.weave/.gitignore': 'runs/\ncache/\n',
  });
}
