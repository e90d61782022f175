// What a hook process loads: `dist/guard-program.js` (src/cli/guardMain.ts) answers an agent's tool call, and an
// agent pays for it on every one. Everything its static imports reach is loaded by every event, so that closure
// must hold none of the parts that made an Edit cost 4× a bare `node -e 0` (bench/guard.bench.ts): the zod schema
// and the spec model, tree-sitter and the shell grammar, the manifest parsers, node:crypto (11–16 ms of CPU to
// load), fs.promises and stream readers of stdin, child processes. They are reached through import() only,
// which the build puts in the bundles loaded on demand (scripts/build.mjs, guard-parts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importsOf } from '../../support/importGraph';

const FORBIDDEN_PACKAGES = new Set([
  'zod',
  'web-tree-sitter',
  'jsonc-parser',
  'smol-toml',
  'node:crypto',
  'node:child_process',
  'node:stream/consumers',
  'node:fs/promises',
]);

test("the hook program's static imports reach no schema library, grammar, parser, crypto or async fs", () => {
  const seen = new Set<string>();
  const found: string[] = [];
  const files = ['cli/guardMain.ts'];
  while (files.length > 0) {
    const file = files.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const edge of importsOf(file)) {
      if (edge.kind !== 'static') continue;
      if (edge.file !== undefined) files.push(edge.file);
      else if (FORBIDDEN_PACKAGES.has(edge.specifier) || edge.specifier.startsWith('zod/'))
        found.push(`src/${file} imports ${edge.specifier}`);
      else if (edge.specifier === 'node:fs' && edge.names.includes('promises'))
        found.push(`src/${file} imports fs.promises`);
    }
  }
  assert.ok(
    seen.has('cli/guard/handleEvent.ts') && seen.has('cli/guard/protectedPaths.ts'),
    'the walk reached the hook path',
  );
  assert.deepEqual(found, [], 'load these with import() where the event needs them');
});
