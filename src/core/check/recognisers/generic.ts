// Formats any runner may print: TAP and a plain "5 passed, 1 failed" line.
import { addSummaries, count, type Recogniser } from './shared';

/** TAP: a plan `1..N` and top-level `ok` / `not ok` lines (`# SKIP` / `# TODO` directives count as skipped). */
export const tap: Recogniser = (text) => {
  const plan = text.match(/^1\.\.(\d+)\b/m);
  if (!plan) return undefined;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const m of text.matchAll(/^(not ok|ok)\b[^\n#]*(#\s*(SKIP|TODO)\b)?/gim)) {
    if (m[3]) skipped++;
    else if (m[1] === 'ok') passed++;
    else failed++;
  }
  return { runner: 'tap', passed, failed, skipped };
};

/** A plain `5 passed, 1 failed` line, as many home-grown runners print. */
export const plain: Recogniser = (text) => {
  const lines = [...text.matchAll(/^.*\b(\d+) (?:tests? )?passed\b.*$/gim)];
  return addSummaries(
    lines.map((line) => {
      const failed = (line[0] ?? '').match(/\b(\d+) (?:tests? )?failed\b/i);
      const skipped = (line[0] ?? '').match(/\b(\d+) (?:tests? )?skipped\b/i);
      return {
        runner: 'plain' as const,
        passed: count(line),
        failed: count(failed),
        skipped: count(skipped),
      };
    }),
  );
};
