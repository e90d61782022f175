// The Python workspace of the safe-selection study: a src-layout package (src/selpkg, pytest.ini with
// `pythonpath = src`) holding the same 10 modules × 3 specs as the Node fixture, in the shapes real packages
// have: __init__.py re-exports three modules by name (`from .m0 import …`), the rest are reached only by
// `from . import m7` from a sibling or by tests importing them directly (`from selpkg.m5 import …`,
// `from selpkg import m5`). Specs run `python3 -m pytest -q tests/test_mK_x.py`, one process each.
import { IMPORTS, MODULES, USES_UTIL, moduleSpec, partSymbols, writeFiles } from './selectionFixture';

export const PYTHON_PACKAGE = 'selpkg';
/** Debian's interpreter: the one with pytest (the pyenv python3 on PATH has none). */
const PYTHON = '/usr/bin/python3';
/** The modules __init__.py re-exports; importing any submodule runs it, so these load in every test. */
const REEXPORTED = new Set([0, 1, 2]);

/** How module k reaches the modules it uses: `from .m1 import scale1` or `from . import m7`. */
function importLines(k: number): { lines: string[]; call: (d: number) => string } {
  const deps = IMPORTS[k] ?? [];
  if (deps.length === 0) return { lines: [], call: () => '' };
  if (k === 3) return { lines: deps.map((d) => `from .m${d} import scale${d}`), call: (d) => `scale${d}` };
  return { lines: [`from . import ${deps.map((d) => `m${d}`).join(', ')}`], call: (d) => `m${d}.scale${d}` };
}

function moduleSource(k: number): string {
  const K = k + 2;
  const deps = IMPORTS[k] ?? [];
  const { lines, call } = importLines(k);
  const extra = deps.length > 0 ? ` + ${call(deps[0]!)}(1, 0)` : '';
  const label = USES_UTIL.has(k) ? 'label(n)' : `'odd' + str(n)`;
  return [
    `"""Module m${k}: arithmetic and text helpers (generated for the selection benchmark)."""`,
    ...lines,
    ...(USES_UTIL.has(k) ? ['from .util import label'] : []),
    '',
    '',
    `def scale${k}(a, b):`,
    `    factor = ${K}`,
    `    return a * factor + b`,
    '',
    '',
    `def shout${k}(s):`,
    `    text = s.strip().upper()`,
    `    return text + '-' + str(${K})`,
    '',
    '',
    `def sum_above${k}(xs):`,
    `    total = 0`,
    `    for x in xs:`,
    `        if x > ${K}:`,
    `            total += x`,
    `    return total${extra}`,
    '',
    '',
    `def parity${k}(n):`,
    `    if n % ${K} == 0:`,
    `        return 'multiple'`,
    `    return ${label}`,
    '',
  ].join('\n');
}

const UTIL = [
  '"""Shared by m0, m2 and m5."""',
  '',
  '',
  'def label(n):',
  "    kind = 'negative' if n < 0 else 'positive'",
  "    return kind + ':' + str(n)",
  '',
].join('\n');

function initSource(): string {
  const names = [...REEXPORTED].flatMap((k) => [`scale${k}`, `shout${k}`, `sum_above${k}`, `parity${k}`]);
  return [
    `"""${PYTHON_PACKAGE}: generated for the selection benchmark. Re-exports m0 to m2; import the rest by name."""`,
    ...[...REEXPORTED].map((k) => `from .m${k} import scale${k}, shout${k}, sum_above${k}, parity${k}`),
    '',
    `__all__ = [${names.map((n) => `"${n}"`).join(', ')}]`,
    '',
  ].join('\n');
}

/** The test of module k's part: re-exported modules through the package, the others by their own name. */
function testSource(k: number, part: 'a' | 'b' | 'c'): string {
  const K = k + 2;
  const deps = IMPORTS[k] ?? [];
  const used = partSymbols(k, part, `sum_above${k}`);
  const byName = REEXPORTED.has(k) ? part === 'b' : part !== 'a';
  const importLine = byName
    ? `from ${REEXPORTED.has(k) ? PYTHON_PACKAGE : `${PYTHON_PACKAGE}.m${k}`} import ${used.join(', ')}`
    : REEXPORTED.has(k)
      ? `import ${PYTHON_PACKAGE} as m`
      : `from ${PYTHON_PACKAGE} import m${k} as m`;
  const fn = (name: string): string => (byName ? name : `m.${name}`);
  const body =
    part === 'a'
      ? [
          `def test_scale_and_shout():`,
          `    assert ${fn(`scale${k}`)}(3, 4) == ${3 * K + 4}`,
          `    assert ${fn(`shout${k}`)}('  ab c ') == 'AB C-${K}'`,
        ]
      : part === 'b'
        ? [
            `def test_sum_above():`,
            // sum_above([1, K, K + 1, K + 5]) keeps the values above K; scale_d(1, 0) is module d's factor.
            `    assert ${fn(`sum_above${k}`)}([1, ${K}, ${K + 1}, ${K + 5}]) == ${2 * K + 6 + (deps.length > 0 ? deps[0]! + 2 : 0)}`,
          ]
        : [
            `def test_parity():`,
            `    assert ${fn(`parity${k}`)}(${K * 2}) == 'multiple'`,
            `    assert ${fn(`parity${k}`)}(${K + 1}) == '${USES_UTIL.has(k) ? 'positive:' : 'odd'}${K + 1}'`,
          ];
  return [importLine, '', '', ...body, ''].join('\n');
}

/** Writes the package, its tests and 30 specs into dir; returns the number of specs. */
export function writePythonFixture(dir: string): number {
  const pkg = `src/${PYTHON_PACKAGE}`;
  const files: Record<string, string> = {
    '.gitignore': '.weave/runs/\n.weave/cache/\n__pycache__/\n.pytest_cache/\n',
    // No cache directory: the bench restores each mutated file, and a stale cache must not outlive it.
    'pytest.ini': '[pytest]\npythonpath = src\ntestpaths = tests\naddopts = -p no:cacheprovider\n',
    [`${pkg}/__init__.py`]: initSource(),
    [`${pkg}/util.py`]: UTIL,
  };
  const specs: unknown[] = [];
  for (let k = 0; k < MODULES; k++) {
    files[`${pkg}/m${k}.py`] = moduleSource(k);
    for (const part of ['a', 'b', 'c'] as const) {
      const testFile = `tests/test_m${k}_${part}.py`;
      files[testFile] = testSource(k, part);
      const anchors = partSymbols(k, part, `sum_above${k}`).map((s) => `${pkg}/m${k}.py#${s}`);
      specs.push(moduleSpec(k, part, `${PYTHON} -m pytest -q ${testFile}`, testFile, anchors));
    }
  }
  const specFile = {
    version: 1,
    goal: 'selection benchmark, src-layout Python package',
    // A mutant is restored within the second it was written: a .pyc keyed by mtime could outlive it.
    defaults: { env: { PYTHONDONTWRITEBYTECODE: '1' } },
    specs,
  };
  files['.weave/specs.json'] = JSON.stringify(specFile, null, 2) + '\n';
  writeFiles(dir, files);
  return specs.length;
}
