// A generated 40-spec workspace for the panel's UI tests (issue #25: the panel at 40 specs, 170 px and in a
// high-contrast theme): long ids of several lengths, every kind, a few failing specs, and dependsOn edges onto
// passing specs only (so no spec is blocked and "failing only" keeps exactly the failing ones). Each spec has its
// own node:test file; the failing ones fail by assertion.
import fs from 'node:fs';
import path from 'node:path';

const KINDS = ['functional', 'interface', 'security', 'performance', 'reliability', 'compatibility'] as const;
const TOPICS = [
  'checkout-applies-discount-codes-once',
  'returns',
  'invoice-totals-round-half-even',
  'cart-keeps-items',
  'shipping-quote-uses-carrier-rates',
  'tax',
  'refund-never-exceeds-payment',
  'search-ranks-exact-matches-first',
];

export interface GeneratedSpec {
  id: string;
  title: string;
  kind: (typeof KINDS)[number];
  failing: boolean;
  dependsOn: string[];
}

function specNumber(n: number): GeneratedSpec {
  const topic = TOPICS[n % TOPICS.length] ?? 'rule';
  const id = `${topic}-rule-${n}`;
  // Spec 5k is a group's root; 3, 11, 19, 27 fail (none of them a root, none a dependency).
  const failing = n % 8 === 3 && n % 5 !== 0;
  const root = n - (n % 5);
  return {
    id,
    title: `Rule ${n} of the ${topic.replace(/-/g, ' ')} constraints holds`,
    kind: KINDS[n % KINDS.length] ?? 'functional',
    failing,
    dependsOn: n % 5 === 0 ? [] : [`${TOPICS[root % TOPICS.length] ?? 'rule'}-rule-${root}`],
  };
}

export const FORTY_SPECS: GeneratedSpec[] = Array.from({ length: 40 }, (_, n) => specNumber(n));

/** Writes the workspace (package.json, one test per spec, .weave/specs.json) into `into`: the forty specs, or the
 * first of them only (`specs`, a prefix of FORTY_SPECS, so every dependency is among them). */
export function writeFortySpecWorkspace(into: string, specs: GeneratedSpec[] = FORTY_SPECS): void {
  fs.mkdirSync(path.join(into, 'test'), { recursive: true });
  fs.mkdirSync(path.join(into, '.weave'), { recursive: true });
  fs.writeFileSync(
    path.join(into, 'package.json'),
    `${JSON.stringify({ name: 'forty-specs', version: '1.0.0', private: true, scripts: { test: 'node --test' } }, null, 2)}\n`,
  );
  // Every fourth spec's test loads the shop's pricing module: those specs share code, which Weave reports as
  // potential interactions (the large graph hides them by default above 15 specs).
  fs.mkdirSync(path.join(into, 'src'), { recursive: true });
  fs.writeFileSync(path.join(into, 'src/pricing.js'), 'exports.price = (cents) => Math.round(cents);\n');
  specs.forEach((spec, n) => {
    const expected = spec.failing ? n + 1 : n;
    fs.writeFileSync(
      path.join(into, `test/rule-${n}.test.js`),
      [
        "const test = require('node:test');",
        "const assert = require('node:assert/strict');",
        ...(n % 4 === 0 ? ["const { price } = require('../src/pricing.js');", `price(${n});`] : []),
        `test('rule ${n}', () => {`,
        `  assert.equal(${n} * 1, ${expected}, 'rule ${n} computes its value');`,
        '});',
        '',
      ].join('\n'),
    );
  });
  const file = {
    version: 1,
    goal: 'Keep forty business rules of the shop true at once.',
    defaults: { cwd: '.', timeoutSeconds: 60 },
    specs: specs.map((spec, n) => ({
      id: spec.id,
      title: spec.title,
      kind: spec.kind,
      statement: `The shop shall keep rule ${n}.`,
      test: { command: `node --test test/rule-${n}.test.js`, files: [`test/rule-${n}.test.js`] },
      anchors: [],
      dependsOn: spec.dependsOn,
      interactsWith: [],
    })),
  };
  fs.writeFileSync(path.join(into, '.weave/specs.json'), `${JSON.stringify(file, null, 2)}\n`);
}
