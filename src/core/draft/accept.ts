// Accepting kept drafts: the only place the draft agent's work reaches the user's files. The specs are appended to
// .weave/specs.json with jsonc edits (comments and formatting kept), the result is validated before anything is
// written, test files are refused if they exist by now, and the spec file is replaced atomically.
import fs from 'node:fs/promises';
import path from 'node:path';
import { addSpec, applyTextEdits, formatProblem, parseSpecText, specFilePath } from '../spec';
import type { KeptDraft } from './types';

export class AcceptError extends Error {
  override name = 'AcceptError';
}

export interface Accepted {
  specIds: string[];
  testFiles: string[];
}

export async function acceptDrafts(workspaceDir: string, drafts: readonly KeptDraft[]): Promise<Accepted> {
  const file = specFilePath(workspaceDir);
  let text = await fs.readFile(file, 'utf8');
  for (const draft of drafts) text = applyTextEdits(text, addSpec(text, draft.specInput));
  const checked = parseSpecText(text, file);
  if (!checked.ok) {
    const errors = checked.problems.filter((p) => p.severity === 'error').map(formatProblem);
    throw new AcceptError(`the spec file would be invalid, nothing was written:\n${errors.join('\n')}`);
  }
  const testFiles = drafts.flatMap((d) => d.testFiles);
  for (const t of testFiles) {
    const exists = await fs.lstat(path.join(workspaceDir, t.path)).then(
      () => true,
      () => false,
    );
    if (exists)
      throw new AcceptError(
        `${t.path} exists now (it did not when the draft was verified); nothing was written`,
      );
  }
  for (const t of testFiles) {
    const target = path.join(workspaceDir, t.path);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, t.content, { flag: 'wx' });
  }
  const partial = `${file}.${process.pid}.tmp`;
  await fs.writeFile(partial, text);
  await fs.rename(partial, file);
  return { specIds: drafts.map((d) => d.spec.id), testFiles: testFiles.map((t) => t.path) };
}
