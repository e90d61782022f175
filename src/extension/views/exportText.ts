// The words "Weave: export workspace as benchmark task" shows: the refusal when the task does not verify, and the
// check of a folder path typed for the task. Free of 'vscode' so they are unit-tested with plain node:test.
import fs from 'node:fs';
import path from 'node:path';
import { failureExcerpt } from '../../core/check';

/** How many of a failed spec's last output lines the refusal repeats (the output channel has them all). */
const OUTPUT_LINES_SHOWN = 2;
/** How many specs the refusal names before "+N more in the output". */
const REASONS_SHOWN = 3;

/**
 * One line per reason for a notification (which shows one paragraph): "clamp-bounds: fail; its output ends:
 * 3 !== 5". A reason's own lines ("…its output ends:" then indented output) are joined, the output cut to the
 * lines that say what failed (failureExcerpt: no stack frames, no `generatedMessage: false,` or closing brace of
 * Node's inspected error, which are the last lines of a node:test failure), so the words after "its output
 * ends:" are the test's own, not nothing and not noise.
 */
export function reasonLine(reason: { spec: string; reason: string }): string {
  const [head = '', ...rest] = reason.reason.split('\n');
  const excerpt = failureExcerpt(rest.join('\n'), OUTPUT_LINES_SHOWN).split('\n');
  const output = rest.map((l) => l.trim()).filter((l) => l !== '');
  const lines = excerpt.some((l) => l.trim() !== '') ? excerpt : output.slice(-OUTPUT_LINES_SHOWN);
  const shown = lines.join(' ⏎ ');
  const who = reason.spec === '*' ? 'task' : reason.spec;
  return shown === '' ? `${who}: ${head}` : `${who}: ${head} ${shown}`;
}

/** The refusal's text: what happened, then each spec's reason with the end of its output. */
export function refusalText(reasons: ReadonlyArray<{ spec: string; reason: string }>): string {
  const lines = reasons.map(reasonLine);
  return (
    `Weave: the task did not verify, so nothing was written. ${lines.slice(0, REASONS_SHOWN).join(' · ')}` +
    (lines.length > REASONS_SHOWN ? ` (+${lines.length - REASONS_SHOWN} more in the output)` : '')
  );
}

/**
 * Why a typed output path cannot take the task, or undefined when it can. A folder that does not exist yet is
 * fine (the export creates it, with its parents, only once the task verified), with or without a trailing slash;
 * an existing file is not. Relative paths are taken from the workspace folder.
 */
export function exportPathProblem(typed: string, workspaceDir: string): string | undefined {
  const trimmed = typed.trim();
  if (trimmed === '') return 'Type the folder for the task (a new folder is fine).';
  const target = path.resolve(workspaceDir, trimmed);
  if (target === path.resolve(workspaceDir))
    return 'That is the workspace itself: the task goes to a folder of its own.';
  // The nearest existing ancestor must be a folder: "a/b.txt/task" cannot be created under a file.
  for (let at = target; ; at = path.dirname(at)) {
    const stat = fs.statSync(at, { throwIfNoEntry: false });
    if (stat !== undefined) {
      if (stat.isDirectory()) return undefined;
      return at === target
        ? `${target} is a file, not a folder.`
        : `${at} is a file, so ${target} cannot be created.`;
    }
    if (path.dirname(at) === at) return undefined;
  }
}
