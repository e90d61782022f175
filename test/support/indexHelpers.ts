// Shared by the index tests: the repository root and temp folders.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export { REPO_ROOT as repoRoot } from './paths';
import { REPO_ROOT } from './paths';
export const langsFixture = path.join(REPO_ROOT, 'test/fixtures/index/langs');

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `weave-index-${prefix}-`));
}

export function copyDir(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
}
