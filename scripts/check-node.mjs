// Weave's tests need the Node versions package.json's engines field names (22 or 24, the LTS lines; the
// runner-evidence hooks use node:test and module APIs older Node lacks). scripts/run-node-tests.mjs asks this
// before running a layer: on an older Node it hands over to the tool cache's Node 24 or says how to get it, rather
// than fail test by test with no word why. (`npm test` itself always runs on that Node: scripts/test.mjs.)

/** The one-line complaint about `version` (e.g. '20.19.0') under `engines` (e.g. '>=22'), or undefined. */
export function nodeVersionProblem(version, engines) {
  const minimum = Number(/^>=\s*(\d+)/.exec(engines)?.[1]);
  if (!Number.isInteger(minimum)) return `package.json engines.node '${engines}' is not of the form '>=N'`;
  const major = Number(version.split('.')[0]);
  if (major >= minimum) return undefined;
  return `Use Node 22 or 24 for Weave's tests: this is Node ${version} (package.json engines: node ${engines}).`;
}
