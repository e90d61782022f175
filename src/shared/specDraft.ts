// Validation of one spec being added or edited in the panel: the zod schema of specs.json plus the rules that
// need the other specs (unique id, known references, no dependency cycle). The webview runs it as the user
// types and the extension runs it again before touching specs.json, so the two can never disagree.
// Plain TypeScript (no 'vscode'): it is bundled into the webview too.
import { specSchema, type Spec } from './specSchema';

export interface SpecFieldIssue {
  /** Form field the issue belongs to: `id`, `title`, `test.command`, `dependsOn`, … */
  field: string;
  message: string;
}

export type SpecDraftResult = { ok: true; spec: Spec } | { ok: false; issues: SpecFieldIssue[] };

/** The other specs, as far as the rules need them. */
export interface SpecNeighbour {
  id: string;
  dependsOn?: readonly string[] | undefined;
}

export function validateSpecDraft(
  draft: unknown,
  others: readonly SpecNeighbour[],
  /** The spec's id before the edit; undefined when adding a new spec. */
  originalId?: string,
): SpecDraftResult {
  const parsed = specSchema.safeParse(draft);
  const draftId =
    typeof draft === 'object' && draft !== null ? (draft as Record<string, unknown>)['id'] : undefined;
  const issues: SpecFieldIssue[] = parsed.success
    ? []
    : parsed.error.issues.map((i) => {
        const field = fieldOf(i.path);
        return { field, message: field === 'id' ? idMessage(draftId, i.message) : i.message };
      });
  const spec = parsed.success ? parsed.data : undefined;
  const rest = others.filter((s) => s.id !== originalId);
  const known = new Set(rest.map((s) => s.id));
  const draftRecord = (typeof draft === 'object' && draft !== null ? draft : {}) as Record<string, unknown>;
  const id = typeof draftRecord['id'] === 'string' ? draftRecord['id'] : '';

  if (id && known.has(id)) issues.push({ field: 'id', message: `another spec already has the id "${id}"` });
  for (const field of ['dependsOn', 'interactsWith'] as const) {
    const refs = Array.isArray(draftRecord[field]) ? (draftRecord[field] as unknown[]) : [];
    for (const ref of refs) {
      if (typeof ref !== 'string') continue;
      if (ref === id) issues.push({ field, message: `a spec cannot list itself in ${field}` });
      else if (!known.has(ref)) issues.push({ field, message: `unknown spec id "${ref}"` });
    }
    if (new Set(refs).size !== refs.length) issues.push({ field, message: `${field} lists a spec twice` });
  }
  if (spec) {
    const cycle = dependencyCycle(spec, rest);
    if (cycle) issues.push({ field: 'dependsOn', message: `dependency cycle: ${cycle.join(' → ')}` });
  }
  return spec && issues.length === 0 ? { ok: true, spec } : { ok: false, issues };
}

/** The schema's id rule spelled for a person typing into the form, not as the raw pattern. */
function idMessage(id: unknown, schemaMessage: string): string {
  if (typeof id !== 'string' || id.trim() === '')
    return 'Give the spec an id (it is derived from the title until you type one).';
  if (/[^a-z0-9-]/.test(id)) {
    const bad = [...new Set(id.replace(/[a-z0-9-]/g, ''))].map((c) => (c === ' ' ? 'spaces' : `“${c}”`));
    return `Use only lower-case letters, digits and dashes in the id (not ${bad.join(', ')}).`;
  }
  if (!/^[a-z0-9]/.test(id)) return 'Start the id with a lower-case letter or a digit.';
  return schemaMessage;
}

function fieldOf(path: readonly PropertyKey[]): string {
  const names = path.filter((p): p is string => typeof p === 'string');
  return names.slice(0, 2).join('.') || 'spec';
}

/** A path spec → … → spec through dependsOn, or undefined. */
function dependencyCycle(spec: Spec, others: readonly SpecNeighbour[]): string[] | undefined {
  const dependsOn = new Map(others.map((s) => [s.id, s.dependsOn ?? []]));
  dependsOn.set(spec.id, spec.dependsOn);
  const seen = new Set<string>();
  const walk = (id: string, path: string[]): string[] | undefined => {
    for (const next of dependsOn.get(id) ?? []) {
      if (next === spec.id) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = walk(next, [...path, next]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(spec.id, [spec.id]);
}
