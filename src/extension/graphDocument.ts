// "Weave: show spec graph" without the side panel: a Markdown document with a Mermaid graph (rendered by the
// Markdown preview or any Mermaid viewer): dependsOn edges, declared interactions, nodes coloured by verdict.
import type { SpecGraph } from '../core/spec/graph';
import type { SpecFile } from '../core/spec/schema';
import type { CheckOutcome } from './checks';

const VERDICT_STYLE: Record<string, string> = {
  pass: 'fill:#2e7d32,color:#fff',
  fail: 'fill:#c62828,color:#fff',
  broken: 'fill:#b71c1c,color:#fff,stroke-width:3px',
  error: 'fill:#ef6c00,color:#fff',
  blocked: 'fill:#757575,color:#fff',
};

export function graphMarkdown(specFile: SpecFile, graph: SpecGraph, last: CheckOutcome | undefined): string {
  const node = (id: string): string => `s_${id.replace(/-/g, '_')}`;
  const lines = ['```mermaid', 'graph LR'];
  for (const spec of specFile.specs) lines.push(`  ${node(spec.id)}["${spec.id}<br/>${spec.kind}"]`);
  for (const spec of specFile.specs) {
    for (const dep of spec.dependsOn) lines.push(`  ${node(spec.id)} -->|depends on| ${node(dep)}`);
  }
  for (const [a, b] of graph.declaredInteractions()) lines.push(`  ${node(a)} -.-|interacts| ${node(b)}`);
  for (const [verdict, style] of Object.entries(VERDICT_STYLE)) lines.push(`  classDef ${verdict} ${style}`);
  for (const result of last?.run.results ?? []) {
    const cls = last?.report.changes[result.id] === 'broken' ? 'broken' : result.verdict;
    if (cls in VERDICT_STYLE) lines.push(`  class ${node(result.id)} ${cls}`);
  }
  lines.push('```');
  const table = specFile.specs.map((s) => {
    const verdict = last?.run.results.find((r) => r.id === s.id)?.verdict ?? '—';
    return `| \`${s.id}\` | ${s.kind} | ${verdict} | ${s.dependsOn.join(', ')} | ${s.interactsWith.join(', ')} |`;
  });
  return [
    '# Weave spec graph',
    '',
    ...lines,
    '',
    '| spec | kind | verdict | depends on | interacts with |',
    '| --- | --- | --- | --- | --- |',
    ...table,
    '',
  ].join('\n');
}
