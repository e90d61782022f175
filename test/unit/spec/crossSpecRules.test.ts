// The rules between specs are one set: the loader (CLI, diagnostics) and the panel's form reach the same verdict,
// error or warning, on the same specs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSpecText } from '../../../src/core/spec/load';
import { crossSpecFindings } from '../../../src/shared/crossSpecRules';
import { validateSpecDraft } from '../../../src/shared/specDraft';

const spec = (id: string, dependsOn: string[] = [], interactsWith: string[] = []) => ({
  id,
  title: id,
  kind: 'functional',
  statement: 's',
  test: { command: 'node --test', files: [] },
  anchors: [],
  dependsOn,
  interactsWith,
});

/** What the loader says about the file holding `others` and then `draft`: errors, warnings (relations only). */
function loaderVerdict(draft: ReturnType<typeof spec>, others: ReturnType<typeof spec>[]) {
  const text = JSON.stringify({ version: 1, specs: [...others, draft] }, null, 2);
  const result = parseSpecText(text, 'specs.json');
  const about = (p: { path: string }) => /\.(id|dependsOn|interactsWith)\b/.test(p.path);
  return {
    errors: result.ok ? 0 : result.problems.filter((p) => p.severity === 'error' && about(p)).length,
    warnings: (result.ok ? result.warnings : result.problems).filter(
      (p) => p.severity === 'warning' && about(p),
    ).length,
  };
}

function formVerdict(draft: ReturnType<typeof spec>, others: ReturnType<typeof spec>[]) {
  const result = validateSpecDraft(draft, others);
  const issues = result.ok ? result.warnings : result.issues;
  return {
    errors: issues.filter((i) => i.severity === undefined).length,
    warnings: issues.filter((i) => i.severity === 'warning').length,
  };
}

const others = [spec('a'), spec('b', ['a'])];
const cases: Array<[string, ReturnType<typeof spec>]> = [
  ['a good spec', spec('c', ['b'], ['a'])],
  ['a spec listed twice', spec('c', ['a', 'a'])],
  ['a spec listed twice in interactsWith', spec('c', [], ['b', 'b'])],
  ['an unknown reference', spec('c', ['zz'])],
  ['a self reference', spec('c', [], ['c'])],
  ['a duplicate id', spec('a')],
];

for (const [name, draft] of cases) {
  test(`the loader and the form agree on ${name}`, () => {
    const loader = loaderVerdict(draft, others);
    const form = formVerdict(draft, others);
    assert.equal(form.errors > 0, loader.errors > 0, JSON.stringify({ loader, form }));
    assert.equal(form.warnings > 0, loader.warnings > 0, JSON.stringify({ loader, form }));
  });
}

test('a spec listed twice is a warning in both: the file loads and the form saves', () => {
  const draft = spec('c', ['a', 'a']);
  const text = JSON.stringify({ version: 1, specs: [...others, draft] });
  const loaded = parseSpecText(text, 'specs.json');
  assert.ok(loaded.ok);
  assert.deepEqual(
    loaded.warnings.map((w) => w.path),
    ['specs[2].dependsOn[1]'],
  );
  const form = validateSpecDraft(draft, others);
  assert.ok(form.ok);
  assert.deepEqual(form.warnings, [
    { field: 'dependsOn', message: 'dependsOn lists a spec twice', severity: 'warning' },
  ]);
});

test('a cycle created by the edited spec is reported on it, whatever else in the file is cyclic', () => {
  // x ⇄ y is already a cycle; editing "a" to depend on "b", which depends on "a", makes another.
  const file = [spec('x', ['y']), spec('y', ['x']), spec('b', ['a'])];
  const result = validateSpecDraft(spec('a', ['b']), file);
  assert.ok(!result.ok);
  assert.deepEqual(result.issues, [{ field: 'dependsOn', message: 'dependency cycle: a → b → a' }]);
});

test('findings carry positions in the list: duplicates point at the first use, cycles at the closing entry', () => {
  const findings = crossSpecFindings([spec('a', ['c', 'b']), 'not a spec', spec('b', ['a']), spec('a')]);
  assert.deepEqual(findings, [
    { rule: 'duplicate-id', spec: 3, id: 'a', firstUse: 0 },
    { rule: 'unknown-reference', spec: 0, relation: 'dependsOn', entry: 0, target: 'c' },
    { rule: 'dependency-cycle', spec: 0, entry: 1, cycle: ['a', 'b', 'a'] },
  ]);
});
