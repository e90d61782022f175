// Repositories whose set-up installs something, for the shared environments of `weave mine` (issue #37): an npm
// project with a lockfile (its dependencies are folders of its own, `file:` links, so `npm ci` needs no registry)
// whose newest commit adds a dependency to package.json and the lockfile; a Python project whose requirements.txt
// the venv installs from what the interpreter already has (--no-index); and an npm project whose new test writes
// into node_modules. Commits are dated (mineFixtures.ts), so every run sees the same history.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commit, nodeTest } from './mineFixtures';

export interface EnvFixtures {
  dir: string;
  /** npm-locked and py-req: every candidate verifies, with or without shared environments. */
  sharedList: string;
  /** npm-writer: its candidate's test writes into node_modules. */
  writerList: string;
  cleanup(): void;
}

const NPMRC = 'audit=false\nfund=false\noffline=true\n';

function init(dir: string, name: string): string {
  const root = path.join(dir, name);
  fs.mkdirSync(root, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  return root;
}

/** package.json with `deps` (name → file:vendor/name) and the lockfile npm writes for it, offline. */
function npmManifest(root: string, name: string, deps: string[]): Record<string, string> {
  const pkg = {
    name,
    version: '1.0.0',
    private: true,
    dependencies: Object.fromEntries(deps.map((d) => [d, `file:vendor/${d}`])),
  };
  fs.writeFileSync(path.join(root, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  fs.writeFileSync(path.join(root, '.npmrc'), NPMRC);
  for (const d of deps) {
    fs.mkdirSync(path.join(root, 'vendor', d), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'vendor', d, 'package.json'),
      `{ "name": "${d}", "version": "1.0.0", "main": "index.js" }\n`,
    );
  }
  execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--offline'], {
    cwd: root,
    stdio: 'ignore',
  });
  return {
    'package.json': fs.readFileSync(path.join(root, 'package.json'), 'utf8'),
    'package-lock.json': fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'),
  };
}

const PAD = 'module.exports = (s, n) => String(s).padStart(n);\n';
const RULE = "module.exports = (n) => '-'.repeat(n);\n";

export function makeEnvFixtures(): EnvFixtures {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-mine-env-fixtures-'));
  const locked = init(dir, 'npm-locked');
  commit(locked, 'fmt: pad', {
    ...npmManifest(locked, 'fmt', ['pad']),
    '.npmrc': NPMRC,
    'vendor/pad/index.js': PAD,
    'src/fmt.js': "const pad = require('pad');\nexports.right = (s, n) => pad(s, n);\n",
    'test/right.test.js': nodeTest(
      'right',
      "const { right } = require('../src/fmt');\ntest('right', () => assert.equal(right('a', 3), '  a'));\n",
    ),
  });
  commit(locked, 'fmt: number\n\nnumber(x, n) right-aligns a number.', {
    'src/fmt.js':
      "const pad = require('pad');\nexports.right = (s, n) => pad(s, n);\nexports.number = (x, n) => pad(x.toFixed(1), n);\n",
    'test/number.test.js': nodeTest(
      'number',
      "const { number } = require('../src/fmt');\ntest('number', () => assert.equal(number(2, 5), '  2.0'));\n",
    ),
  });
  commit(locked, 'fmt: percent', {
    'src/fmt.js':
      "const pad = require('pad');\nexports.right = (s, n) => pad(s, n);\nexports.number = (x, n) => pad(x.toFixed(1), n);\nexports.percent = (x) => `${Math.round(x * 100)}%`;\n",
    'test/percent.test.js': nodeTest(
      'percent',
      "const { percent } = require('../src/fmt');\ntest('percent', () => assert.equal(percent(0.5), '50%'));\n",
    ),
  });
  // A new dependency: the gold side's environment is not the base side's.
  commit(locked, 'fmt: underline with a rule\n\nunderline(s) is s over a rule of its length.', {
    ...npmManifest(locked, 'fmt', ['pad', 'rule']),
    'vendor/rule/index.js': RULE,
    'src/fmt.js':
      "const pad = require('pad');\nconst rule = require('rule');\nexports.right = (s, n) => pad(s, n);\nexports.number = (x, n) => pad(x.toFixed(1), n);\nexports.percent = (x) => `${Math.round(x * 100)}%`;\nexports.underline = (s) => `${s}\\n${rule(s.length)}`;\n",
    'test/underline.test.js': nodeTest(
      'underline',
      "const { underline } = require('../src/fmt');\ntest('underline', () => assert.equal(underline('ab'), 'ab\\n--'));\n",
    ),
  });

  const req = init(dir, 'py-req');
  commit(req, 'mean', {
    'requirements.txt': '--no-index\npytest\n',
    'stats.py': 'def mean(xs):\n    return sum(xs) / len(xs)\n',
    'tests/test_mean.py': 'from stats import mean\n\n\ndef test_mean():\n    assert mean([1, 2, 3]) == 2\n',
  });
  commit(req, 'spread: the largest minus the smallest', {
    'stats.py':
      'def mean(xs):\n    return sum(xs) / len(xs)\n\n\ndef spread(xs):\n    return max(xs) - min(xs)\n',
    'tests/test_spread.py':
      'from stats import spread\n\n\ndef test_spread():\n    assert spread([3, 1, 2]) == 2\n',
  });

  const writer = init(dir, 'npm-writer');
  commit(writer, 'fmt: pad', {
    ...npmManifest(writer, 'fmt', ['pad']),
    '.npmrc': NPMRC,
    'vendor/pad/index.js': PAD,
    'src/fmt.js': "const pad = require('pad');\nexports.right = (s, n) => pad(s, n);\n",
    'test/right.test.js': nodeTest(
      'right',
      "const { right } = require('../src/fmt');\ntest('right', () => assert.equal(right('a', 3), '  a'));\n",
    ),
  });
  commit(writer, 'fmt: left', {
    'src/fmt.js':
      "const pad = require('pad');\nexports.right = (s, n) => pad(s, n);\nexports.left = (s, n) => String(s).padEnd(n);\n",
    // A test that keeps a note in node_modules, as some tools keep caches there: with a shared environment that
    // is a write into it.
    'test/left.test.js': nodeTest(
      'left',
      "require('node:fs').writeFileSync(require('node:path').join(__dirname, '..', 'node_modules', '.left-note'), 'seen');\nconst { left } = require('../src/fmt');\ntest('left', () => assert.equal(left('a', 3), 'a  '));\n",
    ),
  });

  const sharedList = path.join(dir, 'shared.txt');
  fs.writeFileSync(sharedList, 'npm-locked\npy-req\n');
  const writerList = path.join(dir, 'writer.txt');
  fs.writeFileSync(writerList, 'npm-writer\n');
  return { dir, sharedList, writerList, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
