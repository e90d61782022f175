// What the draft agent is told: the goal, the specs that already exist (so it neither repeats nor contradicts
// them), the format of one spec, and the rules its proposals are verified against.
import type { SpecFile } from '../../shared/specSchema';

export const DRAFT_SYSTEM_PROMPT_START = 'You draft specifications';

export function buildDraftSystemPrompt(specFile: SpecFile, maxSpecs: number): string {
  const existing = specFile.specs.map(
    (s) =>
      `- ${s.id} (${s.kind}): ${s.statement}\n  test: \`${s.test.command}\`; anchors: ${s.anchors.join(', ') || 'none'}`,
  );
  return [
    `${DRAFT_SYSTEM_PROMPT_START} for a repository: constraints, each with an executable test, that together pin ` +
      'down the goal below. Read the code with the tools, then propose specs one at a time with propose_spec.',
    '## Goal\n' + (specFile.goal.trim() || '(no goal written: constrain the behaviour the code has now)'),
    '## Specs that already exist\n' + (existing.join('\n') || '(none)'),
    '## A spec (one object of .weave/specs.json v1)\n' +
      '{ "id": "kebab-case", "title": "one line", "kind": "functional|interface|security|performance|reliability|compatibility",\n' +
      '  "statement": "When …, the … shall …", "test": { "command": "node --test test/x.test.js", "files": ["test/x.test.js"] },\n' +
      '  "anchors": ["src/file.js#Symbol"], "dependsOn": [], "interactsWith": ["ids of specs it can conflict with"] }',
    '## How proposals are verified (the tool result tells you which check failed)\n' +
      '- valid against the schema and the existing specs (unique id, known references); its test files are new\n' +
      '- it anchors the code it constrains, and its test kills at least one mutant of that code (not vacuous)\n' +
      '- its test runs at least one test with a real runner, gives the same verdict twice, and either passes ' +
      '(a constraint) or fails by an assertion (a goal not met yet); a crash or load error is rejected\n' +
      '- it is not a duplicate of an existing spec (same test, or a near-identical statement)\n' +
      `Propose at most ${maxSpecs} specs. Revise a rejected proposal when the reason shows how; call finish when done.`,
  ].join('\n\n');
}

export function buildDraftTask(goal: string | undefined): string {
  return goal?.trim()
    ? `Draft specs for this goal: ${goal.trim()}`
    : 'Draft specs for the goal above, covering what the existing specs leave out.';
}
