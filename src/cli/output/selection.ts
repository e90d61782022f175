// What `weave check --affected` selects, printed the same way wherever the selection is shown.
import type { SelectedAffected } from '../../core/selection/selectAffected';

/** On stderr (stdout may be --json): what --affected runs and why, and why the rest is safe to skip. */
export function printSelection(selection: SelectedAffected): void {
  const lines = [
    `weave check --affected: ${selection.affected.length} of ${selection.specCount} specs selected (${selection.source})`,
  ];
  if (selection.all) {
    lines.push('  every spec is selected, because:');
    for (const reason of selection.allReasons) lines.push(`    - ${reason}`);
  } else {
    for (const spec of selection.affected) lines.push(`  run  ${spec.id}: ${spec.reasons.join('; ')}`);
    for (const spec of selection.notSelected) lines.push(`  skip ${spec.id}: ${spec.reason}`);
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}
