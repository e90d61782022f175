// Six repositories for `weave mine`, made with real git in a temp folder: two npm projects (one in a subfolder)
// and two Python ones that each hold a commit changing source and tests together, one whose commits never
// change a test (no usable commit), and one whose set-up fails (a dependency that does not exist). Commits are
// dated, so every run over them sees the same history.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface MineFixtures {
  dir: string;
  reposFile: string;
  cleanup(): void;
}

type Files = Record<string, string>;

let clock = Date.UTC(2026, 0, 1);

export function commit(root: string, message: string, files: Files): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  clock += 3_600_000;
  const date = new Date(clock).toISOString();
  const env = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Fixture',
    GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
    GIT_COMMITTER_NAME: 'Fixture',
    GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
  execFileSync('git', ['add', '-A'], { cwd: root, env });
  execFileSync('git', ['commit', '-q', '-m', message], { cwd: root, env });
}

function repository(dir: string, name: string, history: Array<[message: string, files: Files]>): void {
  const root = path.join(dir, name);
  fs.mkdirSync(root, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  for (const [message, files] of history) commit(root, message, files);
}

export const nodeTest = (name: string, body: string): string =>
  `const { test } = require('node:test');\nconst assert = require('node:assert/strict');\n${body.replace(/NAME/g, name)}`;

export function makeMineFixtures(): MineFixtures {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-mine-fixtures-'));
  repository(dir, 'npm-calc', [
    [
      'calculator: add',
      {
        'package.json': '{ "name": "calc", "version": "1.0.0", "private": true }\n',
        'src/calc.js': 'exports.add = (a, b) => a + b;\n',
        'test/add.test.js': nodeTest(
          'add',
          "const { add } = require('../src/calc');\ntest('adds', () => assert.equal(add(2, 3), 5));\n",
        ),
      },
    ],
    [
      'Add subtract\n\nThe calculator subtracts: subtract(a, b) is a - b.',
      {
        'src/calc.js': 'exports.add = (a, b) => a + b;\nexports.subtract = (a, b) => a - b;\n',
        'test/subtract.test.js': nodeTest(
          'subtract',
          "const { subtract } = require('../src/calc');\ntest('subtracts', () => assert.equal(subtract(5, 3), 2));\n",
        ),
      },
    ],
  ]);
  repository(dir, 'npm-mono', [
    [
      'strings package',
      {
        'README.md': '# a monorepo\n',
        'packages/strings/package.json': '{ "name": "strings", "version": "0.2.0", "private": true }\n',
        'packages/strings/index.js': 'exports.upper = (s) => s.toUpperCase();\n',
        'packages/strings/test/upper.test.js': nodeTest(
          'upper',
          "const { upper } = require('../index');\ntest('upper-cases', () => assert.equal(upper('ab'), 'AB'));\n",
        ),
      },
    ],
    [
      'strings: capitalize the first letter',
      {
        'packages/strings/index.js':
          'exports.upper = (s) => s.toUpperCase();\nexports.capitalize = (s) => s.charAt(0).toUpperCase() + s.slice(1);\n',
        'packages/strings/test/capitalize.test.js': nodeTest(
          'capitalize',
          "const { capitalize } = require('../index');\ntest('capitalizes', () => assert.equal(capitalize('ab'), 'Ab'));\n",
        ),
      },
    ],
  ]);
  repository(dir, 'py-slug', [
    [
      'slugify',
      {
        'pyproject.toml': '[project]\nname = "slug"\nversion = "0.1.0"\n',
        'slug.py': 'def slugify(text):\n    return text.lower().replace(" ", "-")\n',
        'tests/test_slugify.py':
          'from slug import slugify\n\n\ndef test_slugify():\n    assert slugify("A B") == "a-b"\n',
      },
    ],
    [
      'Strip surrounding whitespace from slugs',
      {
        'slug.py': 'def slugify(text):\n    return text.strip().lower().replace(" ", "-")\n',
        'tests/test_strip.py':
          'from slug import slugify\n\n\ndef test_strip():\n    assert slugify("  A B ") == "a-b"\n',
      },
    ],
    ['docs: usage', { 'README.md': 'slugify("A B") == "a-b"\n' }],
  ]);
  repository(dir, 'py-stats', [
    [
      'mean',
      {
        'stats.py': 'def mean(xs):\n    return sum(xs) / len(xs)\n',
        'tests/test_mean.py':
          'from stats import mean\n\n\ndef test_mean():\n    assert mean([1, 2, 3]) == 2\n',
      },
    ],
    [
      'median of an odd and an even count',
      {
        'stats.py':
          'def mean(xs):\n    return sum(xs) / len(xs)\n\n\ndef median(xs):\n    s = sorted(xs)\n    n = len(s)\n    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2\n',
        'tests/test_median.py':
          'from stats import median\n\n\ndef test_odd():\n    assert median([3, 1, 2]) == 2\n\n\ndef test_even():\n    assert median([4, 1, 2, 3]) == 2.5\n',
        // A test the commit only tidies: it passes before the change too, so mining must make it a keep spec.
        'tests/test_mean.py':
          'from stats import mean\n\n\ndef test_mean():\n    assert mean([1, 2, 3]) == 2.0\n',
      },
    ],
  ]);
  repository(dir, 'no-tests', [
    ['greeting', { 'greet.py': 'def greet(name):\n    return "hello " + name\n' }],
    ['greeting: punctuation', { 'greet.py': 'def greet(name):\n    return "hello, " + name + "!"\n' }],
  ]);
  repository(dir, 'broken-setup', [
    [
      'clock',
      {
        // The install step builds a native addon whose source is missing: `npm install` fails, as a project whose
        // build tools this machine lacks does.
        'package.json':
          '{ "name": "clock", "version": "1.0.0", "private": true, "scripts": { "install": "cc -o build/clock.node src/clock.c" }, "dependencies": { "tick": "file:./vendor/tick" } }\n',
        'vendor/tick/package.json': '{ "name": "tick", "version": "1.0.0" }\n',
        'src/clock.js': 'exports.now = () => 0;\n',
        'test/now.test.js': nodeTest(
          'now',
          "const { now } = require('../src/clock');\ntest('now', () => assert.equal(now(), 0));\n",
        ),
      },
    ],
    [
      'clock: later',
      {
        'src/clock.js': 'exports.now = () => 0;\nexports.later = (t) => t + 1;\n',
        'test/later.test.js': nodeTest(
          'later',
          "const { later } = require('../src/clock');\ntest('later', () => assert.equal(later(1), 2));\n",
        ),
      },
    ],
  ]);
  const reposFile = path.join(dir, 'repos.txt');
  fs.writeFileSync(
    reposFile,
    [
      '# fixture repositories for weave mine',
      'npm-calc',
      'npm-mono HEAD~1..HEAD packages/strings',
      'py-slug',
      'py-stats   # a Python project with pytest',
      'no-tests',
      'broken-setup',
      '',
    ].join('\n'),
  );
  return { dir, reposFile, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
