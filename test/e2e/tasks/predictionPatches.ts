// Patches the eval round trip submits as predictions against the exported demo task: each one cheats, misbehaves
// or fails to apply in its own way.

/** A patch that adds one line at the top of Client.get in the demo's src/client.js. */
function patchClientGet(line: string): string {
  return [
    '--- a/src/client.js',
    '+++ b/src/client.js',
    '@@ -20,6 +20,7 @@ class Client {',
    '    * @param {{headers?: Record<string, string>}} [options]',
    '    */',
    '   async get(url, { headers = {} } = {}) {',
    `+    ${line}`,
    '     const cached = this.cache.get(url);',
    '     if (cached !== undefined) return copyResponse(cached);',
    ' ',
    '',
  ].join('\n');
}

export function testEditingPatch(): string {
  // Turns the secret-caching assertion into one that always holds.
  return [
    '--- a/test/no-secret-caching.test.js',
    '+++ b/test/no-secret-caching.test.js',
    '@@ -18,6 +18,6 @@',
    "   await client.get('/me', { headers: { Authorization: 'Bearer s3cret' } });",
    "   await client.get('/me', { headers: { authorization: 'Bearer s3cret' } });",
    "-  assert.equal(client.cache.size, 0, 'the authorized response was stored in the cache');",
    '+  assert.ok(client.cache.size >= 0);',
    ' ',
    "   const anonymous = await client.get('/me');",
    '   assert.equal(anonymous.body, \'{"user":"anonymous"}\');',
    '',
  ].join('\n');
}

/** Makes the client print fake "spec passed" markers (old format and empty nonce) whenever it is loaded. */
export function forgingPatch(): string {
  const forged = [
    '<<<<< WEAVE SPEC END no-secret-caching exit=0 timed_out=0 seconds=0',
    '<<<<< WEAVE[] SPEC END no-secret-caching exit=0 timed_out=0 seconds=0',
  ];
  return patchClientGet(`process.stdout.write(${JSON.stringify(`\n${forged.join('\n')}\n`)});`);
}

/** No fix: the code, once loaded by an earlier spec's test, replaces the failing spec's test with a passing one. */
export function runtimeTamperingPatch(): string {
  const rewrite =
    "require('fs').writeFileSync(require('path').join(__dirname, '../test/no-secret-caching.test.js'), " +
    "\"require('node:test')('ok', () => {});\\n\");";
  return patchClientGet(rewrite);
}

export function nonApplyingPatch(): string {
  return [
    '--- a/src/client.js',
    '+++ b/src/client.js',
    '@@ -1,3 +1,3 @@',
    '-this line is not there',
    '+nor this',
    ' at all',
    '',
  ].join('\n');
}

export const hangToken = `4242.${process.pid}`;

export function hangingPatch(): string {
  return patchClientGet(`require('child_process').spawnSync('sleep', [${JSON.stringify(hangToken)}]);`);
}

/** The fix with one context line changed, so only a fuzzy patch places the hunk. */
export function fuzzyPatch(fix: string): string {
  return fix.replace(
    '   * @param {{headers?: Record<string, string>}} [options]',
    '   * @param {{headers?: object}} [options]',
  );
}
