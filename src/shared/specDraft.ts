// Validation of one spec being added or edited in the panel: the zod schema of specs.json plus the rules between
// specs (crossSpecRules.ts, the loader's own: unique id, known references, no dependency cycle), worded per form
// field. The webview runs it as the user types and the extension runs it again before touching specs.json, so the
// two can never disagree. Browser-safe: it is bundled into the webview too.
import { CROSS_SPEC_SEVERITY, crossSpecFindings, type CrossSpecFinding } from './crossSpecRules';
import { specSchema, type Spec } from './specSchema';
import { looksLikeTestFile } from './testFileNames';

export interface SpecFieldIssue {
  /** Form field the issue belongs to: `id`, `title`, `test.command`, `dependsOn`, … */
  field: string;
  message: string;
  /** Set on a warning (shown, but the spec can be saved); an issue without it is an error. */
  severity?: 'warning';
}

/** `issues` holds the errors and the warnings; `warnings` those of a spec that can be saved. */
export type SpecDraftResult =
  { ok: true; spec: Spec; warnings: SpecFieldIssue[] } | { ok: false; issues: SpecFieldIssue[] };

/** The other specs, as far as the rules need them. */
export interface SpecNeighbour {
  id: string;
  dependsOn?: readonly string[] | undefined;
  /** For the warning about a source file listed as a test file (the spec's anchors name it). */
  anchors?: readonly string[] | undefined;
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
        return {
          field,
          message:
            field === 'id' ? idMessage(draftId, i.message) : (emptyFieldMessage(field, i) ?? i.message),
        };
      });
  issues.push(
    ...crossSpecIssues(
      draft,
      others.filter((s) => s.id !== originalId),
    ),
  );
  issues.push(
    ...sourceAsTestIssues(
      draft,
      others.filter((s) => s.id !== originalId),
    ),
  );
  const errors = issues.filter((i) => i.severity === undefined);
  if (!parsed.success || errors.length > 0) return { ok: false, issues };
  return { ok: true, spec: parsed.data, warnings: issues };
}

/**
 * The findings of the rules between specs that concern the draft. It goes first in the list: a cycle through it is
 * then found starting from it, and a duplicate id is reported against the other spec, whichever comes first in
 * the file (the form shows it on the draft's id either way).
 */
function crossSpecIssues(draft: unknown, others: readonly SpecNeighbour[]): SpecFieldIssue[] {
  const issues: SpecFieldIssue[] = [];
  const add = (finding: CrossSpecFinding, field: string, message: string): void => {
    const warning = CROSS_SPEC_SEVERITY[finding.rule] === 'warning';
    if (!issues.some((i) => i.field === field && i.message === message))
      issues.push(warning ? { field, message, severity: 'warning' } : { field, message });
  };
  let cycleShown = false;
  for (const finding of crossSpecFindings([draft, ...others])) {
    switch (finding.rule) {
      case 'duplicate-id':
        if (finding.firstUse === 0) add(finding, 'id', `another spec already has the id "${finding.id}"`);
        break;
      case 'self-reference':
        if (finding.spec === 0)
          add(finding, finding.relation, `a spec cannot list itself in ${finding.relation}`);
        break;
      case 'unknown-reference':
        if (finding.spec === 0) add(finding, finding.relation, `unknown spec id "${finding.target}"`);
        break;
      case 'repeated-reference':
        if (finding.spec === 0) add(finding, finding.relation, `${finding.relation} lists a spec twice`);
        break;
      case 'dependency-cycle':
        if (finding.spec === 0 && !cycleShown) {
          cycleShown = true;
          add(finding, 'dependsOn', `dependency cycle: ${finding.cycle.join(' → ')}`);
        }
        break;
    }
  }
  return issues;
}

/**
 * A spec's test files are protected (agents may never edit them), so listing the code under test there by mistake
 * (the Test files picker lists every file) would lock it: warn when a listed file has no test-like name and a spec
 * (this one or another) anchors it.
 */
function sourceAsTestIssues(draft: unknown, others: readonly SpecNeighbour[]): SpecFieldIssue[] {
  if (typeof draft !== 'object' || draft === null) return [];
  const { id, test, anchors } = draft as { id?: unknown; test?: { files?: unknown }; anchors?: unknown };
  const files = Array.isArray(test?.files)
    ? test.files.filter((f): f is string => typeof f === 'string')
    : [];
  const own = Array.isArray(anchors) ? anchors.filter((a): a is string => typeof a === 'string') : [];
  const specs = [{ id: typeof id === 'string' && id !== '' ? id : 'this spec', anchors: own }, ...others];
  const issues: SpecFieldIssue[] = [];
  for (const file of files) {
    if (file.trim() === '' || looksLikeTestFile(file)) continue;
    const anchoring = specs.filter((s) => (s.anchors ?? []).some((a) => a.split('#')[0] === file));
    if (anchoring.length === 0) continue;
    issues.push({
      field: 'test.files',
      severity: 'warning',
      message: `${file} does not look like a test and ${anchoring.map((s) => s.id).join(', ')} anchor${anchoring.length === 1 ? 's' : ''} it: as a test file it is protected (an agent may never edit it). Is it the code under test?`,
    });
  }
  return issues;
}

/** What an empty form field needs, said like the id's ("Give the spec an id …"), not as zod's "Too small". */
const EMPTY_FIELD: Readonly<Record<string, string>> = {
  title: 'Give the spec a title (one line a person reads in lists).',
  statement: 'Give the spec a statement (the requirement it checks).',
  'test.command': 'Give the test a command (the shell command that runs it).',
  'test.files': 'Remove the empty test file entry.',
  anchors: 'Remove the empty anchor.',
  'test.cwd': 'Give the working directory, or leave it unset.',
};

function emptyFieldMessage(field: string, issue: { code: string; message: string }): string | undefined {
  const empty =
    issue.message === 'must not be empty' || (issue.code === 'too_small' && /string/.test(issue.message));
  return empty ? EMPTY_FIELD[field] : undefined;
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
