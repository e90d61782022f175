// The model half of the review of an agent's work: the model reads the specs, the verdicts after the patch,
// the deterministic findings (deterministicReview.ts) and the patch, and answers with a zod-validated verdict
// per spec with evidence. A failed or malformed answer is a result (ok: false), never an exception: the run's
// own verdicts stand without it.
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import type { SpecResult } from '../check';
import type { SpecFile } from '../../shared/specSchema';
import type { ReviewFinding } from './deterministicReview';
import { ModelError, type ModelClient } from '../model';
import { truncateText } from './trajectory';

const SPEC_REVIEW_VERDICTS = ['satisfied', 'violated', 'unclear'] as const;

const modelReviewSchema = z.object({
  specs: z.array(
    z.object({
      id: z.string(),
      verdict: z.enum(SPEC_REVIEW_VERDICTS),
      evidence: z.string().describe('Where in the patch or the test output the verdict comes from.'),
    }),
  ),
});

export interface SpecReview {
  id: string;
  verdict: (typeof SPEC_REVIEW_VERDICTS)[number];
  evidence: string;
}

export type ModelReview = { ok: true; specs: SpecReview[] } | { ok: false; error: string };

const REVIEW_SYSTEM_PROMPT =
  'You review a patch written by a coding agent against a set of specifications. For EVERY spec, decide ' +
  'whether the patched code satisfies its statement (not merely whether its test passes), violates it, or ' +
  'whether it is unclear, and cite evidence (file:line of the patch, or the test output). Watch for tests ' +
  'that were weakened, expectations hard-coded into the code, and changes outside the task. Answer only ' +
  'with JSON matching the schema.';

export async function reviewWithModel(
  client: ModelClient,
  input: {
    specFile: SpecFile;
    patch: string;
    after: SpecResult[];
    findings: ReviewFinding[];
    /** false: a blind review (the candidates' judgement is measured against the verdicts). Default true. */
    showVerdicts?: boolean;
    signal?: AbortSignal;
  },
): Promise<ModelReview> {
  const verdicts = new Map(input.after.map((r) => [r.id, r.verdict]));
  const shown = input.showVerdicts ?? true;
  const specs = input.specFile.specs
    .map(
      (s) =>
        `- ${s.id} (${s.kind}): ${s.statement}` +
        (shown ? ` [test verdict after the patch: ${verdicts.get(s.id) ?? 'not run'}]` : ''),
    )
    .join('\n');
  const findings = input.findings.map((f) => `- ${f.check}: ${f.message}`).join('\n') || '- none';
  const user =
    `## Specifications\n${specs}\n\n## Automatic findings\n${findings}\n\n## Patch\n` +
    '```diff\n' +
    (truncateText(input.patch, 60_000) || '(empty patch)') +
    '\n```';
  let content: string | null;
  try {
    const turn = await client.complete({
      messages: [
        { role: 'system', content: REVIEW_SYSTEM_PROMPT },
        { role: 'user', content: user },
      ],
      responseFormat: zodResponseFormat(modelReviewSchema, 'spec_review'),
      ...(input.signal ? { signal: input.signal } : {}),
    });
    content = turn.content;
  } catch (error) {
    return { ok: false, error: error instanceof ModelError ? error.message : String(error) };
  }
  let json: unknown;
  try {
    json = JSON.parse(stripFence(content ?? ''));
  } catch {
    return { ok: false, error: 'The model review was not JSON.' };
  }
  const parsed = modelReviewSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      error: `The model review did not match the schema: ${parsed.error.issues[0]?.message ?? ''}`,
    };
  }
  const byId = new Map(parsed.data.specs.map((s) => [s.id, s]));
  // Every spec gets a row: ids the model invented are dropped, ids it skipped are 'unclear'.
  const specsOut = input.specFile.specs.map(
    (s) =>
      byId.get(s.id) ?? {
        id: s.id,
        verdict: 'unclear' as const,
        evidence: 'The model review did not mention this spec.',
      },
  );
  return { ok: true, specs: specsOut };
}

function stripFence(text: string): string {
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```\s*$/.exec(text.trim());
  return fenced ? fenced[1]! : text;
}
