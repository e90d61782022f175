// The verb table (src/cli/verbs.ts) names each verb and loads its module on demand: every entry must load the
// verb it is named for, or `weave NAME` would run another verb.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { verbs } from '../../../src/cli/verbs';

test('each entry of the verb table loads the verb of its name, each name once', async () => {
  for (const entry of verbs) assert.equal((await entry.load()).name, entry.name);
  assert.equal(new Set(verbs.map((v) => v.name)).size, verbs.length);
});
