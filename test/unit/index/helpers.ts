// Shared by the index tests: the repository root (tests run from out/test/unit/index/) and temp folders.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../../../..');
export const langsFixture = path.join(repoRoot, 'test/fixtures/index/langs');

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `weave-index-${prefix}-`));
}

export function copyDir(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
}
