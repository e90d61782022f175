// Where the tests find the repository's files: this file runs from out/test/support/ after the build. The one
// definition of the repository root for every test layer.
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const FIXTURES = path.join(REPO_ROOT, 'test/fixtures');
export const CLI = path.join(REPO_ROOT, 'dist/cli.js');
export const EXAMPLES = path.join(REPO_ROOT, 'examples');
