// JSON Schema for `.weave/specs.json`, generated from the zod schema at build time (dist/specs.schema.json)
// and registered with `contributes.jsonValidation`. Refinements (unique ids, known references) are not
// expressible here; the engine reports those with locations.
import { z } from 'zod';
import { specFileSchema } from '../../shared/specSchema';

export function specFileJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(specFileSchema, { target: 'draft-7', io: 'input' }) as Record<
    string,
    unknown
  >;
  return { ...schema, title: 'Weave specs (.weave/specs.json)', allowComments: true };
}
