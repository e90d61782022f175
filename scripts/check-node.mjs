// Run first by `npm test`: Weave's tests need the Node versions package.json's engines field names (22 or 24,
// the LTS lines; the runner-evidence hooks use node:test and module APIs older Node lacks). On an older Node the
// suite would build and then fail test by test with no word why; this says it in one line instead.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));

/** The one-line complaint about `version` (e.g. '20.19.0') under `engines` (e.g. '>=22'), or undefined. */
export function nodeVersionProblem(version, engines) {
  const minimum = Number(/^>=\s*(\d+)/.exec(engines)?.[1]);
  if (!Number.isInteger(minimum)) return `package.json engines.node '${engines}' is not of the form '>=N'`;
  const major = Number(version.split('.')[0]);
  if (major >= minimum) return undefined;
  return `Use Node 22 or 24 for Weave's tests: this is Node ${version} (package.json engines: node ${engines}).`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const problem = nodeVersionProblem(process.versions.node, pkg.engines.node);
  if (problem !== undefined) {
    console.error(problem);
    process.exit(1);
  }
}
