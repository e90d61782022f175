// problem_statement.md: what an agent is told — the goal, then every spec's statement, grouped so the
// constraints that are easy to break (security, performance, reliability) are as visible as the headline.
import type { TaskSpec } from './taskFormat';

export function renderProblemStatement(
  goal: string,
  specs: readonly TaskSpec[],
  specTestFiles: string[],
): string {
  const lines: string[] = [
    '# Task',
    '',
    goal.trim() === '' ? '(no goal was written for this workspace)' : goal.trim(),
    '',
  ];
  lines.push(
    '## Constraints',
    '',
    'Every constraint below has an executable test, and all of them must hold together: a change that satisfies one',
    'constraint by breaking another is not a solution.',
    '',
  );
  for (const spec of specs) {
    lines.push(`### ${spec.id} (${spec.kind}): ${spec.title}`, '', spec.statement.trim(), '');
    const relations: string[] = [];
    if (spec.dependsOn.length > 0) relations.push(`depends on ${spec.dependsOn.join(', ')}`);
    if (spec.interactsWith.length > 0) relations.push(`interacts with ${spec.interactsWith.join(', ')}`);
    if (relations.length > 0) lines.push(`_${relations.join('; ')}._`, '');
  }
  if (specTestFiles.length > 0) {
    lines.push(
      '## Rules',
      '',
      `Do not edit the constraints' test files (${specTestFiles.join(', ')}) or .weave/: they are reset before scoring.`,
      '',
    );
  }
  return lines.join('\n');
}

/** hints_text: the relations between constraints, in prose, as SWE-bench's hints carry what the issue did not say. */
export function renderHints(
  specs: readonly TaskSpec[],
  declared: Array<[string, string]>,
  potential: Array<{ specs: [string, string]; reason: string }>,
): string {
  const lines: string[] = [];
  for (const [a, b] of declared) lines.push(`The author expects ${a} and ${b} to interact.`);
  for (const p of potential) lines.push(`${p.specs[0]} and ${p.specs[1]} may interact: ${p.reason}.`);
  for (const spec of specs) {
    if (spec.dependsOn.length > 0)
      lines.push(`${spec.id} is only meaningful when ${spec.dependsOn.join(', ')} hold.`);
  }
  return lines.join('\n');
}
