// Predictions in SWE-bench's format: JSONL lines (or one JSON array) of
// {instance_id, model_name_or_path, model_patch}. A bad line is a problem with its line number; the rest run.
import { z } from 'zod';

export interface Prediction {
  instance_id: string;
  model_name_or_path: string;
  /** null when the model produced nothing (SWE-bench's patch_is_None). */
  model_patch: string | null;
  line: number;
}

export interface InputProblem {
  message: string;
  line?: number;
  instance_id?: string;
  task_dir?: string;
}

const predictionSchema = z.object({
  instance_id: z.string().min(1, 'instance_id must not be empty'),
  model_name_or_path: z.string().default('unknown'),
  model_patch: z.string().nullable().default(null),
});

export function parsePredictions(
  text: string,
  file: string,
): { predictions: Prediction[]; problems: InputProblem[] } {
  const predictions: Prediction[] = [];
  const problems: InputProblem[] = [];
  const firstLines = new Map<string, number>();
  const accept = (value: unknown, line: number): void => {
    const parsed = predictionSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') ?? '';
      problems.push({
        line,
        message: `${file}:${line}: ${field === '' ? '' : `${field}: `}${issue?.message ?? 'invalid'}`,
      });
      return;
    }
    const first = firstLines.get(parsed.data.instance_id);
    if (first !== undefined) {
      problems.push({
        line,
        instance_id: parsed.data.instance_id,
        message: `${file}:${line}: a second prediction for ${parsed.data.instance_id} (the first, line ${first}, is used)`,
      });
      return;
    }
    firstLines.set(parsed.data.instance_id, line);
    predictions.push({ ...parsed.data, line });
  };

  if (text.trimStart().startsWith('[')) {
    try {
      const list: unknown = JSON.parse(text);
      if (Array.isArray(list)) {
        list.forEach((value, i) => accept(value, i + 1));
        return { predictions, problems };
      }
    } catch {
      // not one JSON array after all: read it as JSONL below
    }
  }
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push({ line, message: `${file}:${line}: not valid JSON (${(error as Error).message})` });
      return;
    }
    accept(value, line);
  });
  return { predictions, problems };
}

/** Files a patch touches (both sides of renames), without a/ b/ prefixes. */
export function filesTouchedBy(patch: string): string[] {
  const files = new Set<string>();
  const strip = (p: string): string => p.replace(/^"|"$/g, '').replace(/^[ab]\//, '');
  const lines = patch.split('\n');
  lines.forEach((line, i) => {
    const git = /^diff --git (\S+) (\S+)$/.exec(line);
    if (git) {
      files.add(strip(git[1] ?? ''));
      files.add(strip(git[2] ?? ''));
      return;
    }
    // A header pair only: a removed line "-- x" also starts with "--- " inside a hunk.
    const next = lines[i + 1] ?? '';
    if (!line.startsWith('--- ') || !next.startsWith('+++ ')) return;
    for (const side of [line.slice(4), next.slice(4)]) {
      const file = side.split('\t')[0]?.trim() ?? '';
      if (file !== '/dev/null') files.add(strip(file));
    }
  });
  files.delete('');
  return [...files].sort();
}
