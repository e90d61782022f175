// `weave init` on a pytest project whose addopts names plugins: which file pytest reads addopts from, how the
// value splits (Python's shlex), which words belong to a plugin option (with its value: `--cov pkg`,
// `--cov=pkg`, `-n 4`, `-p name`), and the override that drops just the options of plugins that do not import.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import {
  pluginOptions,
  pythonShlexQuote,
  readAddopts,
  rewriteAddopts,
  shlexSplit,
  type Addopts,
} from '../../../src/core/spec/starter/pytestAddopts';

const none = async () => false;
const only =
  (...modules: string[]) =>
  async (module: string) =>
    modules.includes(module);

/** What /bin/sh makes of the override: the words pytest receives. */
function shellWords(override: string): string[] {
  const r = spawnSync('/bin/sh', ['-c', `printf '%s\\0' ${override}`], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\0').slice(0, -1);
}

/** The addopts value pytest reads from `-o addopts=VALUE`, split as pytest splits it. */
function keptArgs(override: string): string[] {
  const [flag, setting] = shellWords(override);
  assert.equal(flag, '-o');
  assert.match(setting!, /^addopts=/);
  return shlexSplit(setting!.slice('addopts='.length));
}

describe('pytest addopts: where pytest reads it', () => {
  it('takes pytest.ini / .pytest.ini first, even without addopts, then pyproject, tox.ini, setup.cfg', () => {
    assert.deepEqual(
      readAddopts({
        '.pytest.ini': '[pytest]\naddopts = --cov=pkg -q\n',
        'setup.cfg': '[tool:pytest]\naddopts = -x\n',
      }),
      { file: '.pytest.ini', args: ['--cov=pkg', '-q'] },
    );
    assert.equal(
      readAddopts({ 'pytest.ini': '[pytest]\n', 'tox.ini': '[pytest]\naddopts = -x\n' }),
      undefined,
    );
    assert.deepEqual(
      readAddopts({
        'pyproject.toml': '[tool.pytest.ini_options]\naddopts = ["--cov", "pkg", "-m", "not slow"]\n',
        'tox.ini': '[pytest]\naddopts = -x\n',
      }),
      { file: 'pyproject.toml', args: ['--cov', 'pkg', '-m', 'not slow'] },
    );
    assert.deepEqual(
      readAddopts({ 'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "-ra -n auto"\n' }),
      {
        file: 'pyproject.toml',
        args: ['-ra', '-n', 'auto'],
      },
    );
    // A pyproject without pytest's table does not count; tox.ini's [pytest] does.
    assert.deepEqual(
      readAddopts({
        'pyproject.toml': '[project]\nname = "x"\n',
        'tox.ini': '[tox]\n[pytest]\naddopts = --timeout 5\n',
      }),
      { file: 'tox.ini', args: ['--timeout', '5'] },
    );
    assert.deepEqual(
      readAddopts({
        'setup.cfg': '[metadata]\nname = x\n[tool:pytest]\naddopts =\n    --cov=pkg\n    --reruns 2\n',
      }),
      { file: 'setup.cfg', args: ['--cov=pkg', '--reruns', '2'] },
    );
  });
});

describe('pytest addopts: splitting and quoting', () => {
  it("splits like Python's shlex.split (quotes, escapes) and quotes like shlex.quote", () => {
    assert.deepEqual(shlexSplit(`-m "not slow" -k 'a or b' --x=a\\ b ""`), [
      '-m',
      'not slow',
      '-k',
      'a or b',
      '--x=a b',
      '',
    ]);
    assert.deepEqual(shlexSplit('-q\n  --strict-markers'), ['-q', '--strict-markers']);
    assert.throws(() => shlexSplit('-m "open'), /no closing quotation/);
    assert.equal(pythonShlexQuote('--strict-markers'), '--strict-markers');
    assert.equal(pythonShlexQuote('not slow'), `'not slow'`);
    assert.equal(pythonShlexQuote(`it's`), `'it'"'"'s'`);
    for (const word of ['not slow', `it's`, '$HOME', '', 'a"b'])
      assert.deepEqual(shlexSplit(pythonShlexQuote(word)), [word]);
  });
});

describe('pytest addopts: plugin options and their values', () => {
  const words = (args: string[]) =>
    pluginOptions(args).map((p) => (typeof p === 'string' ? p : `[${p.words.join(' ')}|${p.module}]`));

  it('--cov takes an optional value: `--cov pkg` and `--cov=pkg` drop whole, `--cov -q` keeps -q', () => {
    assert.deepEqual(words(['--cov', 'pkg', '-q']), ['[--cov pkg|pytest_cov]', '-q']);
    assert.deepEqual(words(['--cov=pkg', '-q']), ['[--cov=pkg|pytest_cov]', '-q']);
    assert.deepEqual(words(['--cov', '-q']), ['[--cov|pytest_cov]', '-q']);
    assert.deepEqual(words(['--cov-report', 'term-missing', '--cov-branch']), [
      '[--cov-report term-missing|pytest_cov]',
      '[--cov-branch|pytest_cov]',
    ]);
  });

  it('xdist -n / --dist, pytest-timeout, rerunfailures, benchmark flags and values, -p name', () => {
    assert.deepEqual(words(['-n', 'auto', '-n4', '--dist=loadfile', '--dist', 'load']), [
      '[-n auto|xdist]',
      '[-n4|xdist]',
      '[--dist=loadfile|xdist]',
      '[--dist load|xdist]',
    ]);
    assert.deepEqual(
      words(['--timeout', '30', '--reruns=2', '--benchmark-skip', '--benchmark-sort', 'mean']),
      [
        '[--timeout 30|pytest_timeout]',
        '[--reruns=2|pytest_rerunfailures]',
        '[--benchmark-skip|pytest_benchmark]',
        '[--benchmark-sort mean|pytest_benchmark]',
      ],
    );
    assert.deepEqual(words(['-p', 'pytest_mock', '-pxdist', '-p', 'no:cacheprovider']), [
      '[-p pytest_mock|pytest_mock]',
      '[-pxdist|xdist]',
      '-p',
      'no:cacheprovider',
    ]);
  });

  it('keeps options it does not know, with their words in order', () => {
    assert.deepEqual(words(['-ra', '--strict-markers', '-m', 'not slow', '--tb=short', 'tests']), [
      '-ra',
      '--strict-markers',
      '-m',
      'not slow',
      '--tb=short',
      'tests',
    ]);
  });
});

describe('pytest addopts: the override', () => {
  const addopts = (...args: string[]): Addopts => ({ file: '.pytest.ini', args });

  it('drops only the options of plugins that do not import, keeps the rest quoted for sh and for pytest', async () => {
    const rewrite = await rewriteAddopts(
      addopts('--cov', 'pkg', '-m', 'not slow', '-n', '4', "--junitxml=it's.xml", '--timeout=5', '-q'),
      only('xdist'),
      'python3',
    );
    assert.ok(rewrite);
    assert.deepEqual(keptArgs(rewrite.override), ['-m', 'not slow', '-n', '4', "--junitxml=it's.xml", '-q']);
    assert.equal(
      rewrite.note,
      'addopts in .pytest.ini names pytest-cov, pytest-timeout, which python3 cannot import: the command ' +
        'overrides addopts without --cov pkg --timeout=5. Install pytest-cov, pytest-timeout and drop the ' +
        '-o addopts=… to use them.',
    );
  });

  it('the --cov shape: `--cov=pkg -q` becomes -o addopts=-q; nothing left gives an empty addopts', async () => {
    const cov = await rewriteAddopts(addopts('--cov=pkg', '-q'), none, 'python3');
    assert.equal(cov?.override, '-o addopts=-q');
    const all = await rewriteAddopts(addopts('--cov=pkg'), none, 'python3');
    assert.deepEqual(shellWords(all!.override), ['-o', 'addopts=']);
  });

  it('changes nothing when every plugin imports or addopts names none', async () => {
    assert.equal(
      await rewriteAddopts(addopts('--cov=pkg', '-n', '2'), only('pytest_cov', 'xdist'), 'python3'),
      undefined,
    );
    assert.equal(await rewriteAddopts(addopts('-ra', '--strict-markers'), none, 'python3'), undefined);
  });

  it('asks about each plugin module once', async () => {
    const asked: string[] = [];
    await rewriteAddopts(
      addopts('--cov=a', '--cov=b', '--cov-report=xml', '-n', '2'),
      async (m) => {
        asked.push(m);
        return false;
      },
      'python3',
    );
    assert.deepEqual(asked, ['pytest_cov', 'xdist']);
  });
});
