// The lines of a failing test's output that say what went wrong, for a diagnostic, the panel's failure line and
// the MCP check tool's answer: reading runners' output is the check engine's business, shared by every face.

// Lines that name what went wrong in the usual runners' output (node:test, mocha, jest, vitest, pytest, go).
const FAILURE_LINE =
  /(not ok\b|AssertionError|Error:|✖|✗|\bFAIL\b|\bFAILED\b|expected|assert|Traceback|panic:|--- FAIL)/i;
// Noise that carries no information about the failure: blank lines, stack frames, TAP comments and the
// bookkeeping keys of node:test's YAML diagnostics.
const NOISE_LINE =
  /^\s*(#|ℹ|at\s|test at\s|\d+\s*\||\.\.\.\s*$|(duration_ms|location|failureType|type|code|stack|name|operator):)|^\s*$|^\s*[-=]{3,}\s*$/;
// The properties Node prints after an AssertionError's stack (`generatedMessage: false,`, `actual: 1,`, `diff:
// 'simple'`, the closing brace): the message and its "1 !== 0" line above them say it already.
const INSPECTED_ERROR_LINE = /^\s*((generatedMessage|actual|expected|diff):\s.*,|diff:\s'\w+'|[{}])\s*$/;
// Node's class and code in front of an assertion's message, which a narrow row cut to "AssertionError [ERR_ASSERTI…":
// the message is what the reader needs first.
const ASSERTION_PREFIX = /^AssertionError \[ERR_ASSERTION\]:\s+(?=\S)/;

/**
 * The first `maxLines` informative lines of a failing test's output: from the first line that looks like a
 * failure, or else the tail (where runners print their summary), trimmed and without stack frames.
 */
export function failureExcerpt(output: string, maxLines: number): string {
  const lines = output
    // Colour escapes (ESC [ … m) from runners that colour even when not on a terminal.
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
    .split(/\r?\n/)
    .map((l) => l.trimEnd());
  // node:test's spec reporter (the default from Node 23 on) lists each failure with its error only in the closing
  // "failing tests" section; the progress lines above it carry just the test's name.
  const failingSection = lines.findIndex((l) => /^✖ failing tests:$/.test(l.trim()));
  if (failingSection >= 0) {
    lines.splice(0, failingSection + 1);
    // Each entry there opens with the test's name and time (`✖ name (3.1ms)`): the error below it is the news.
    for (let i = lines.length - 1; i >= 0; i--)
      if (/^\s*✖ .*\([\d.]+m?s\)$/.test(lines[i] ?? '')) lines.splice(i, 1);
  }
  const firstFailure = lines.findIndex((l) => FAILURE_LINE.test(l) && !/^\s*#\s/.test(l));
  const informative = (from: string[]): string[] =>
    joinYamlBlocks(
      from
        .filter((l) => !NOISE_LINE.test(l) && !INSPECTED_ERROR_LINE.test(l))
        .map((l) => l.trim().replace(ASSERTION_PREFIX, '')),
    );
  const fromFailure = firstFailure >= 0 ? informative(lines.slice(firstFailure)).slice(0, maxLines) : [];
  // Nothing informative after the first failure-looking line (an output cut to its end, where "expected: 'v2',"
  // of Node's inspected error is all that looks like one): the informative tail instead of nothing.
  const picked = fromFailure.length > 0 ? fromFailure : informative(lines).slice(-maxLines);
  return picked.join('\n');
}

/** node:test prints `error: |-` and the message on the next line: show them as one line. */
function joinYamlBlocks(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const next = lines[i + 1];
    if (/^[\w-]+:\s*[|>][+-]?$/.test(line) && next !== undefined) {
      out.push(`${line.replace(/\s*[|>][+-]?$/, '')} ${next}`);
      i++;
    } else {
      out.push(line);
    }
  }
  return out;
}
