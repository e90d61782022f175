// card.md of a mined dataset: what was looked at and what came out, per repository and per stage, so a reader
// sees the yield and every reason a repository or commit gave nothing. Deterministic: no times (timings.json).
import type { Task } from '../taskFormat';
import type { Funnel, MinedTask, RepositoryResult } from './mineResult';

const STAGES: Array<[keyof Funnel, string]> = [
  ['commits', 'commits looked at'],
  ['candidates', 'candidates (source + tests, within limits)'],
  ['environment_ready', 'environment ready'],
  ['specs_verified', 'specs verified'],
  ['task_verified', 'task verified'],
];

export function renderCard(name: string, repositories: RepositoryResult[], tasks: Task[]): string {
  const total = (key: keyof Funnel): number => repositories.reduce((sum, r) => sum + (r.funnel[key] ?? 0), 0);
  // Mined with a model (--model): the synthesis stage, observed interactions and tokens are shown; without one
  // the card is what it always was.
  const withModel = repositories.some((r) => r.tokens !== undefined);
  const mined = new Map<string, MinedTask>(
    repositories.flatMap((r) => r.tasks.map((t): [string, MinedTask] => [t.instance_id, t])),
  );
  const lines = [
    `# ${name}`,
    '',
    `${tasks.length} verified tasks from ${repositories.length} repositories, mined by \`weave mine\`. Each task is a`,
    "commit's change with specs from its own tests: goal-… specs fail before the change and pass after",
    '(FAIL_TO_PASS), keep-… specs are the rest of the suite, passing before and after (PASS_TO_PASS constraints).',
    '',
    '## Funnel',
    '',
    '| stage | count |',
    '| --- | ---: |',
    ...STAGES.map(([key, label]) => `| ${label} | ${total(key)} |`),
    ...(withModel ? [`| tasks with synthesised constraint specs | ${total('specs_synthesised')} |`] : []),
    '',
    '## Repositories',
    '',
    '| repository | commits | candidates | environment ready | specs verified | tasks | specs | why nothing |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of repositories) {
    const specs = r.tasks.reduce((sum, t) => sum + t.fail_to_pass.length + t.pass_to_pass.length, 0);
    const why =
      r.tasks.length > 0 ? '' : cell(r.problem ? `${r.problem.stage}: ${r.problem.reason}` : firstReason(r));
    lines.push(
      `| \`${r.line}\` | ${r.funnel.commits} | ${r.funnel.candidates} | ${r.funnel.environment_ready} | ${r.funnel.specs_verified} | ${r.tasks.length} | ${specs} | ${why} |`,
    );
  }
  const kinds = [...new Set(tasks.flatMap((t) => t.specs.map((s) => s.kind)))].sort();
  lines.push(
    '',
    '## Tasks',
    '',
    `| task | FAIL_TO_PASS | PASS_TO_PASS | ${kinds.join(' | ')} | interactions |${withModel ? ' synthesised | observed interactions |' : ''}`,
    `| --- | ---: | ---: | ${kinds.map(() => '---:').join(' | ')} | ---: |${withModel ? ' ---: | --- |' : ''}`,
    ...tasks.map((t) => {
      const row = `| ${t.instance_id} | ${t.FAIL_TO_PASS.length} | ${t.PASS_TO_PASS.length} | ${kinds
        .map((k) => t.specs.filter((s) => s.kind === k).length)
        .join(' | ')} | ${t.declared_interactions.length} |`;
      if (!withModel) return row;
      const m = mined.get(t.instance_id);
      const observed = (m?.observed_interactions ?? []).map(([a, b]) => `${a} ↔ ${b}`).join(', ');
      return `${row} ${m?.synthesised?.length ?? 0} | ${cell(observed || '—')} |`;
    }),
    '',
    '## Rejections',
    '',
    '| repository | commit | stage | reason |',
    '| --- | --- | --- | --- |',
  );
  for (const r of repositories)
    for (const x of r.rejections)
      lines.push(
        `| ${r.key} | ${x.commit.slice(0, 12)} ${cell(x.subject)} | ${x.stage} | ${cell(x.reason)} |`,
      );
  if (withModel)
    lines.push(
      '',
      '## Tokens per stage',
      '',
      '| repository | synthesis |',
      '| --- | ---: |',
      ...repositories.map((r) => `| ${r.key} | ${r.tokens?.synthesis ?? 0} |`),
      `| all | ${repositories.reduce((sum, r) => sum + (r.tokens?.synthesis ?? 0), 0)} |`,
      '',
      'Time per stage (clone, walk, specs, verify, synthesis, audit) is in timings.json beside the dataset: it',
      'varies run to run, so it is not part of the dataset.',
      '',
    );
  else
    lines.push(
      '',
      'Time per stage is in timings.json beside the dataset (it varies run to run, so it is not part of the',
      'dataset); no model was used, so no tokens were spent.',
      '',
    );
  return lines.join('\n');
}

function firstReason(r: RepositoryResult): string {
  const last = [...r.rejections].sort((a, b) => stageRank(b.stage) - stageRank(a.stage))[0];
  return last === undefined ? 'no commit' : `${last.stage}: ${last.reason}`;
}

function stageRank(stage: string): number {
  return ['clone', 'walk', 'candidate', 'environment', 'specs', 'task', 'specs-synthesised'].indexOf(stage);
}

/** A reason in one table cell: one line, no pipes, at most 300 characters. */
function cell(text: string): string {
  const flat = text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}…` : flat;
}
