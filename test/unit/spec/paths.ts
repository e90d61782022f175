// Where the spec tests find the repository's files: this file runs from out/test/unit/spec/ after the build.
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../../..');
export const FIXTURES = path.join(REPO_ROOT, 'test/fixtures');
export const CLI = path.join(REPO_ROOT, 'dist/cli.js');
export const EXAMPLES = path.join(REPO_ROOT, 'examples');
