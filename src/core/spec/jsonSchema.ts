// JSON Schemas for `.weave/specs.json`, generated from the zod schema at build time. `dist/specs.schema.json` is
// the whole schema (for other editors and tools). VS Code gets `dist/specs.editing.schema.json` through
// `contributes.jsonValidation`: the same properties, descriptions, defaults and values for completion and hovers,
// without the keywords that only validate. Weave itself reports every problem of the file (schema, references,
// cycles) with its field and the CLI's wording, also while the file is closed; had VS Code's JSON features
// validated too, each schema error would be listed twice in Problems (issue #25), once as a vaguer warning
// ("Value is not accepted") the file's refusal to load contradicts.
import { z } from 'zod';
import { specFileSchema } from '../../shared/specSchema';

export function specFileJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(specFileSchema, { target: 'draft-7', io: 'input' }) as Record<
    string,
    unknown
  >;
  return { ...schema, title: 'Weave specs (.weave/specs.json)', allowComments: true };
}

/** The schema VS Code reads for completion and hovers: it names and describes, it never judges. */
export function specFileEditingSchema(): Record<string, unknown> {
  return { ...editingNode(specFileJsonSchema()), allowComments: true };
}

/** Kept as they are: what completion and hovers show. */
const DESCRIBING = new Set(['$schema', 'title', 'description', 'markdownDescription', 'default', 'examples']);

function editingNode(node: unknown): Record<string, unknown> {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return {};
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (DESCRIBING.has(key)) out[key] = value;
    else if (key === 'properties' && typeof value === 'object' && value !== null)
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, editingNode(child)]));
    else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object'))
      out[key] = editingNode(value);
    // The allowed values stay offered as completions; as examples they are not enforced.
    else if (key === 'enum' && Array.isArray(value)) out['examples'] = value;
    else if (key === 'const') out['examples'] = [value];
  }
  // Without `type` a completed string key would get a bare value: a snippet gives it its quotes.
  const plainString =
    source['type'] === 'string' && !('default' in out) && !('examples' in out) && !('enum' in source);
  if (plainString) out['defaultSnippets'] = [{ label: '""', body: '' }];
  return out;
}
