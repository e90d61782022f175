// Why an agent's patch does not apply to the user's files, file by file and in words. A refused Apply keeps the
// result (the user may revert their edit and retry, or apply the files that still apply); what they need to hear is
// which file conflicts and how, never git's stderr ("error: patch failed: src/math.js:3").

/** One file's part of a `git diff` patch: its header and hunks, a patch of its own. */
export interface FilePatch {
  /** The path to report (the new one; the old one for a deletion). */
  path: string;
  patch: string;
}

/** Splits a `git diff` patch at each `diff --git` header; text before the first header is dropped. */
export function splitPatchByFile(patch: string): FilePatch[] {
  const out: FilePatch[] = [];
  const lines = patch.split('\n');
  let start = -1;
  const flush = (end: number): void => {
    if (start < 0) return;
    const body = lines.slice(start, end).join('\n');
    out.push({ path: pathOf(body), patch: body.endsWith('\n') ? body : `${body}\n` });
  };
  lines.forEach((line, i) => {
    if (!line.startsWith('diff --git ')) return;
    flush(i);
    start = i;
  });
  flush(lines.length);
  return out.map((f) => ({ ...f, patch: f.patch.replace(/\n+$/, '\n') }));
}

function pathOf(body: string): string {
  const plus = /^\+\+\+ b\/(.+)$/m.exec(body);
  if (plus) return plus[1]!;
  const minus = /^--- a\/(.+)$/m.exec(body);
  if (minus) return minus[1]!;
  const renamed = /^rename to (.+)$/m.exec(body);
  if (renamed) return renamed[1]!;
  return /^diff --git a\/(.*) b\/(.*)$/m.exec(body)?.[2] ?? '(unknown file)';
}

export type ConflictKind = 'edited' | 'missing' | 'exists' | 'other';

/** One file of the patch that does not apply, and why in words. */
export interface FileConflict {
  path: string;
  kind: ConflictKind;
  reason: string;
}

/** Reads `git apply --check`'s stderr for one file into a kind (git's messages are stable under LC_ALL=C). */
export function classifyApplyFailure(stderr: string): ConflictKind {
  if (/already exists in (working directory|index)/.test(stderr)) return 'exists';
  if (/No such file or directory|does not exist in (index|working directory)/.test(stderr)) return 'missing';
  if (/patch does not apply|patch failed/.test(stderr)) return 'edited';
  return 'other';
}

export function conflictReason(path: string, kind: ConflictKind): string {
  switch (kind) {
    case 'edited':
      return `${path} was edited where the agent's change goes (the lines it changes are not as they were when the agent ran)`;
    case 'missing':
      return `${path} no longer exists (the agent changed it)`;
    case 'exists':
      return `${path} already exists (the agent creates it)`;
    case 'other':
      return `${path} cannot take the agent's change`;
  }
}

/** The one sentence a refused Apply shows: which files conflict, that nothing changed, and what the user can do. */
export function conflictSummary(conflicts: readonly FileConflict[], applicable: readonly string[]): string {
  const names = conflicts.map((c) => c.path);
  const which =
    names.length === 1
      ? `${names[0]} conflicts with your edits`
      : `${names.length} files conflict with your edits: ${names.join(', ')}`;
  const rest =
    applicable.length === 0
      ? ''
      : ` ${applicable.length === 1 ? `${applicable[0]} still applies` : `${applicable.join(', ')} still apply`} on its own.`;
  return `The agent's change was not applied: ${which}; nothing was changed.${rest}`;
}
