// Fixture projects in the shapes real ones have, as temp git repositories: a Python library with a src layout
// (pyproject.toml, pytest's pythonpath, an __init__.py re-exporting part of the package, __version__), and an
// npm library without a lockfile whose test needs a dependency installed (a local file: dependency, so no
// network is needed). Each starts with a committed base and the fix uncommitted (or committed, on request).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, type DemoRepo } from '../../support/demoRepo';

export const SYSTEM_PYTHON = '/usr/bin/python3';

function specFile(goal: string, specs: Array<Record<string, unknown>>): string {
  return `${JSON.stringify({ version: 1, goal, defaults: { cwd: '.', timeoutSeconds: 60 }, specs }, null, 2)}\n`;
}

function spec(
  id: string,
  kind: string,
  command: string,
  file: string,
  dependsOn: string[] = [],
): Record<string, unknown> {
  return {
    id,
    title: `${id} holds`,
    kind,
    statement: `The library shall satisfy ${id}.`,
    test: { command, files: [file] },
    anchors: [],
    dependsOn,
    interactsWith: [],
  };
}

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

function initRepo(files: Record<string, string>): DemoRepo {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-fixture-'));
  writeFiles(root, files);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Test');
  git(root, 'config', 'user.email', 'test@example.invalid');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  return { root, workspace: root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

const pytest = (file: string): string => `${SYSTEM_PYTHON} -m pytest -q -p no:cacheprovider ${file}`;

export const PYTHON_SLUG_BASE = "def slugify(text):\n    return text.lower().replace(' ', '-')\n";
export const PYTHON_SLUG_FIX =
  "import re\n\n\ndef slugify(text):\n    return re.sub(r'[^a-z0-9]+', '-', text.lower()).strip('-')\n";

/** slugkit: src/slugkit/{__init__,slug,_internal}.py, tests/, pyproject.toml (requires-python >=3.11, no deps). */
export function makePythonRepo(options: { commitFix?: boolean } = {}): DemoRepo {
  const repo = initRepo({
    '.gitignore': '__pycache__/\n*.pyc\n.pytest_cache/\n',
    'pyproject.toml': [
      '[project]',
      'name = "slugkit"',
      'dynamic = ["version"]',
      'requires-python = ">=3.11"',
      '',
      '[tool.pytest.ini_options]',
      'pythonpath = ["src"]',
      '',
    ].join('\n'),
    'src/slugkit/__init__.py': 'from .slug import slugify\n\n__version__ = "2.3.0"\n__all__ = ["slugify"]\n',
    'src/slugkit/_internal.py': 'SEPARATOR = "-"\n',
    'src/slugkit/slug.py': PYTHON_SLUG_BASE,
    'tests/test_basic.py':
      'from slugkit import slugify\n\n\ndef test_spaces():\n    assert slugify("Hello World") == "hello-world"\n',
    'tests/test_punctuation.py':
      'from slugkit import slugify\n\n\ndef test_punctuation():\n    assert slugify("Hello, World!") == "hello-world"\n',
    '.weave/specs.json': specFile('Slugs keep only letters, digits and single dashes.', [
      spec('basic-slug', 'functional', pytest('tests/test_basic.py'), 'tests/test_basic.py'),
      spec(
        'strips-punctuation',
        'functional',
        pytest('tests/test_punctuation.py'),
        'tests/test_punctuation.py',
        ['basic-slug'],
      ),
    ]),
  });
  fs.writeFileSync(path.join(repo.root, 'src/slugkit/slug.py'), PYTHON_SLUG_FIX);
  if (options.commitFix) {
    git(repo.root, 'commit', '-q', '-am', 'strip punctuation');
  }
  return repo;
}

/**
 * slugkit with a history: base (punctuation kept, no length limit; two specs fail), then a fix, a refactor and a
 * second fix. Returns the base commit: `<base>..HEAD` holds the three commits.
 */
export function makePythonHistoryRepo(): { repo: DemoRepo; base: string } {
  const repo = makePythonRepo();
  fs.writeFileSync(path.join(repo.root, 'src/slugkit/slug.py'), PYTHON_SLUG_BASE);
  writeFiles(repo.root, {
    'tests/test_length.py':
      'from slugkit import slugify\n\n\ndef test_length():\n    assert len(slugify("word " * 40)) <= 50\n',
  });
  const specs = JSON.parse(fs.readFileSync(path.join(repo.root, '.weave/specs.json'), 'utf8')) as {
    specs: unknown[];
  };
  specs.specs.push(spec('max-length', 'performance', pytest('tests/test_length.py'), 'tests/test_length.py'));
  fs.writeFileSync(path.join(repo.root, '.weave/specs.json'), `${JSON.stringify(specs, null, 2)}\n`);
  git(repo.root, 'add', '-A');
  git(repo.root, 'commit', '-q', '-m', 'length spec');
  const base = git(repo.root, 'rev-parse', 'HEAD').trim();
  const commit = (message: string, slug: string): void => {
    fs.writeFileSync(path.join(repo.root, 'src/slugkit/slug.py'), slug);
    git(repo.root, 'commit', '-q', '-am', message);
  };
  commit('strip punctuation', PYTHON_SLUG_FIX);
  commit(
    'refactor: name the pattern',
    "import re\n\nNOT_ALNUM = re.compile(r'[^a-z0-9]+')\n\n\ndef slugify(text):\n    return NOT_ALNUM.sub('-', text.lower()).strip('-')\n",
  );
  commit(
    'limit slugs to 50 characters',
    "import re\n\nNOT_ALNUM = re.compile(r'[^a-z0-9]+')\n\n\ndef slugify(text):\n    return NOT_ALNUM.sub('-', text.lower()).strip('-')[:50].rstrip('-')\n",
  );
  return { repo, base };
}

/** padlib: no lockfile, a file: dependency its test requires, tests that require('..'). */
export function makeLockfileLessNpmRepo(): DemoRepo {
  const repo = initRepo({
    '.gitignore': 'node_modules/\npackage-lock.json\n',
    'package.json': `${JSON.stringify(
      {
        name: 'padlib',
        version: '0.4.1',
        main: 'index.js',
        dependencies: { 'left-pad-local': 'file:./vendor/left-pad-local' },
        scripts: { test: 'node --test test/' },
      },
      null,
      2,
    )}\n`,
    'vendor/left-pad-local/package.json':
      '{ "name": "left-pad-local", "version": "1.0.0", "main": "index.js" }\n',
    'vendor/left-pad-local/index.js': "module.exports = (s, n, c = ' ') => String(s).padStart(n, c);\n",
    'index.js': "const pad = require('left-pad-local');\nexports.code = (n) => pad(n, 4);\n",
    'test/code.test.js': [
      "const test = require('node:test');",
      "const assert = require('node:assert');",
      "const { code } = require('..');",
      "test('codes are zero-padded', () => assert.equal(code(7), '0007'));",
      '',
    ].join('\n'),
    '.weave/specs.json': specFile('Codes are four digits.', [
      spec('zero-padded', 'interface', 'node --test test/code.test.js', 'test/code.test.js'),
    ]),
  });
  fs.writeFileSync(
    path.join(repo.root, 'index.js'),
    "const pad = require('left-pad-local');\nexports.code = (n) => pad(n, 4, '0');\n",
  );
  return repo;
}
