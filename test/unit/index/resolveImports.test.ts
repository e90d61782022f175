// Import resolution against a file list (no disk): folder and package-root imports the way Node and
// TypeScript find them, Python packages that re-export part of themselves, and what cannot be traced.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createImportResolver } from '../../../src/core/index/resolveImports';
import type { LanguageId } from '../../../src/core/index/types';

function resolverFor(files: Record<string, string>, installed: string[] = []) {
  const resolver = createImportResolver(Object.keys(files), (f) => files[f], {
    isInstalled: (_dir, name) => installed.includes(name),
  });
  return (file: string, specifiers: string[], language: LanguageId = 'javascript') =>
    resolver.resolveDetailed(file, language, specifiers);
}

const LIBRARY = {
  'package.json': JSON.stringify({
    name: 'tinylib',
    main: 'index.js',
    exports: { '.': { import: './index.mjs', require: './index.js' }, './util': './lib/util.js' },
    devDependencies: { mocha: '^10' },
  }),
  'index.js': '',
  'index.mjs': '',
  'lib/util.js': '',
  'lib/nested/deep.js': '',
  'test/a.test.js': '',
  'test/unit/b.test.js': '',
  'test/esm.test.mjs': '',
};

void test("require('..'), '../', '.', '../..' and from '..' reach the package's main (and its import entry)", () => {
  const resolve = resolverFor(LIBRARY);
  for (const spec of ['..', '../']) {
    const r = resolve('test/a.test.js', [spec]);
    assert.deepEqual(r.files, ['index.js', 'index.mjs'], spec);
    assert.deepEqual(r.untraceable, [], spec);
    // A `require` may not take the "import" entry: that edge is conditional, main is certain.
    assert.deepEqual(r.conditional, { 'index.mjs': 'package.json "import" entry' }, spec);
  }
  assert.deepEqual(resolve('test/unit/b.test.js', ['../..']).files, ['index.js', 'index.mjs']);
  assert.deepEqual(resolve('index.mjs', ['.']).files, ['index.js']);
});

void test('the package imported by its own name follows exports; a subpath export too; .mjs takes "import"', () => {
  const resolve = resolverFor(LIBRARY);
  const self = resolve('test/esm.test.mjs', ['tinylib']);
  assert.deepEqual(self.files, ['index.js', 'index.mjs']);
  assert.deepEqual(self.conditional, { 'index.js': 'package.json "require" entry' });
  assert.deepEqual(resolve('test/a.test.js', ['tinylib/util']).files, ['lib/util.js']);
  const missing = resolve('test/a.test.js', ['tinylib/nothing']);
  assert.deepEqual(missing.files, []);
  assert.match(missing.untraceable[0]!.reason, /exports no '\.\/nothing' entry/);
});

void test('a string exports, a folder with only index.*, and main without an extension', () => {
  const resolve = resolverFor({
    'package.json': JSON.stringify({ name: 'one', exports: './src/main.js' }),
    'src/main.js': '',
    'plugins/index.ts': '',
    'sub/package.json': JSON.stringify({ main: 'lib' }),
    'sub/lib/index.js': '',
    'test/x.test.js': '',
  });
  assert.deepEqual(resolve('test/x.test.js', ['one']).files, ['src/main.js']);
  assert.deepEqual(resolve('test/x.test.js', ['../plugins']).files, ['plugins/index.ts']);
  assert.deepEqual(resolve('test/x.test.js', ['../sub']).files, ['sub/lib/index.js']);
});

void test('built-ins, installed and declared packages are external; anything else cannot be traced', () => {
  const resolve = resolverFor(LIBRARY, ['lodash']);
  const r = resolve('test/a.test.js', [
    'node:test',
    'fs',
    'fs/promises',
    'lodash/fp',
    'mocha',
    '@/lib/util',
    'left-pad',
    './missing',
    '../../outside',
  ]);
  assert.deepEqual(r.files, []);
  assert.deepEqual(
    r.untraceable.map((u) => u.specifier),
    ['@/lib/util', 'left-pad', './missing', '../../outside'],
  );
  assert.match(r.untraceable[0]!.reason, /neither a workspace file nor an installed or declared package/);
  assert.match(r.untraceable[3]!.reason, /leads out of the workspace/);
});

void test('a main that names a build output not in the workspace cannot be traced', () => {
  const resolve = resolverFor({
    'package.json': JSON.stringify({ name: 'built', main: 'dist/index.js' }),
    'src/index.ts': '',
    'test/a.test.js': '',
  });
  const r = resolve('test/a.test.js', ['..']);
  assert.deepEqual(r.files, []);
  assert.match(
    r.untraceable[0]!.reason,
    /package\.json names dist\/index\.js, which is not in the workspace/,
  );
});

void test('package.json "imports": #internal maps to a file', () => {
  const resolve = resolverFor({
    'package.json': JSON.stringify({ name: 'p', imports: { '#util': './lib/util.js', '#dep': 'lodash' } }),
    'lib/util.js': '',
    'lib/a.js': '',
  });
  assert.deepEqual(resolve('lib/a.js', ['#util']).files, ['lib/util.js']);
  assert.deepEqual(resolve('lib/a.js', ['#dep']), { files: [], untraceable: [], conditional: {} });
  assert.equal(resolve('lib/a.js', ['#nope']).untraceable.length, 1);
});

const PACKAGE = {
  'tox.ini': '[pytest]\npythonpath = src\n',
  'src/pkg/__init__.py': '',
  'src/pkg/core.py': '',
  'src/pkg/func.py': '',
  'src/pkg/plugins/__init__.py': '',
  'src/pkg/plugins/alpha.py': '',
  'src/pkg/plugins/beta.py': '',
  'src/pkg/plugins/registry.py': '',
  'tests/test_a.py': '',
};

void test('Python: import pkg is its __init__ alone; from pkg.func import f is func and the packages above', () => {
  const resolve = resolverFor(PACKAGE);
  assert.deepEqual(resolve('tests/test_a.py', ['pkg'], 'python').files, ['src/pkg/__init__.py']);
  // `from pkg import a` lists `pkg` and `pkg.a` (a may be a submodule): a name is not a module, and fine.
  assert.deepEqual(resolve('tests/test_a.py', ['pkg', 'pkg.a'], 'python'), {
    files: ['src/pkg/__init__.py'],
    untraceable: [],
    conditional: {},
  });
  assert.deepEqual(resolve('tests/test_a.py', ['pkg.func', 'pkg.func.f'], 'python').files, [
    'src/pkg/__init__.py',
    'src/pkg/func.py',
  ]);
});

void test('Python: from . import X is X (or the __init__ binding), never its siblings; a missing relative module cannot be traced', () => {
  const resolve = resolverFor(PACKAGE);
  assert.deepEqual(resolve('src/pkg/plugins/registry.py', ['.', '.alpha'], 'python').files, [
    'src/pkg/plugins/__init__.py',
    'src/pkg/plugins/alpha.py',
  ]);
  // `from . import VERSION`: a name bound in __init__.py.
  assert.deepEqual(resolve('src/pkg/plugins/registry.py', ['.', '.VERSION'], 'python').files, [
    'src/pkg/plugins/__init__.py',
  ]);
  const r = resolve('src/pkg/plugins/registry.py', ['.gone.thing', '.gone'], 'python');
  // `.gone` alone could be `from . import gone` (a name in __init__.py); `.gone.thing` needs the module.
  assert.deepEqual(
    r.untraceable.map((u) => u.specifier),
    ['.gone.thing'],
  );
  assert.match(r.untraceable[0]!.reason, /relative import '\.gone\.thing' names no module/);
});
