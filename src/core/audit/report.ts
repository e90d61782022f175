// From mutant outcomes to the audit report: per-spec scores and survivors, observed interactions (mutants
// several specs kill), totals; plus the report's home, .weave/cache/audit.json, which `weave graph` reads.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ensureCacheIgnored } from '../index';
import type { ExercisedFile } from './exercised';
import { mutantDiff, type Mutant } from './mutants';
import type { MutantOutcome } from './mutantRun';
import type { AuditReport, ObservedInteraction, SpecAudit } from './types';

export interface MutantRecord {
  mutant: Mutant;
  outcomes: Map<string, MutantOutcome>;
}

const EXAMPLES_PER_PAIR = 5;

export function specAudit(
  id: string,
  records: readonly MutantRecord[],
  texts: ReadonlyMap<string, string>,
  exercised: readonly ExercisedFile[],
  baseline: { verdict: string; reason?: string } | undefined,
  available: number,
): SpecAudit {
  let killed = 0;
  let timedOut = 0;
  const survivors: SpecAudit['survivors'] = [];
  for (const { mutant, outcomes } of records) {
    const outcome = outcomes.get(id);
    if (outcome === 'killed') killed++;
    else if (outcome === 'timed-out') timedOut++;
    else if (outcome === 'survived') {
      survivors.push(mutantShown(mutant, texts));
    }
  }
  survivors.sort(bySourcePosition);
  const mutants = killed + timedOut + survivors.length;
  const note =
    baseline === undefined
      ? 'not run'
      : baseline.verdict !== 'pass'
        ? `not audited: it does not pass on the current code (${baseline.verdict}${baseline.reason ? `: ${baseline.reason}` : ''})`
        : exercised.length === 0
          ? 'not audited: it exercises no JavaScript, TypeScript or Python code Weave can find (add anchors)'
          : available === 0
            ? 'not audited: its code offers no mutant'
            : mutants === 0
              ? 'no mutant of its code ran (budget)'
              : undefined;
  return {
    id,
    mutants,
    killed,
    survived: survivors.length,
    timedOut,
    score: mutants === 0 ? null : round((killed + timedOut) / mutants),
    vacuous: mutants > 0 && killed + timedOut === 0,
    survivors,
    codeSource: exercised[0]?.source ?? 'none',
    ...(note !== undefined ? { note } : {}),
  };
}

/** A mutant as the report shows it: where, which operator, and its one-line diff. */
function mutantShown(
  mutant: MutantRecord['mutant'],
  texts: ReadonlyMap<string, string>,
): SpecAudit['survivors'][number] {
  return {
    file: mutant.file,
    line: mutant.line,
    column: mutant.column,
    operator: mutant.operator,
    diff: mutantDiff(texts.get(mutant.file) ?? '', mutant),
    original: mutant.original,
    replacement: mutant.replacement,
  };
}

function bySourcePosition(a: { file: string; line: number; column: number }, b: typeof a): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column;
}

export function unnoticedMutants(
  records: readonly MutantRecord[],
  texts: ReadonlyMap<string, string>,
): AuditReport['holes'] {
  return records
    .filter(({ outcomes }) => {
      const seen = [...outcomes.values()];
      return seen.includes('survived') && !seen.some((o) => o === 'killed' || o === 'timed-out');
    })
    .map(({ mutant, outcomes }) => ({
      ...mutantShown(mutant, texts),
      specs: [...outcomes].filter(([, o]) => o === 'survived').map(([id]) => id),
    }))
    .sort(bySourcePosition);
}

export function observedInteractions(records: readonly MutantRecord[]): ObservedInteraction[] {
  const pairs = new Map<string, ObservedInteraction>();
  for (const { mutant, outcomes } of records) {
    const killers = [...outcomes]
      .filter(([, o]) => o === 'killed' || o === 'timed-out')
      .map(([id]) => id)
      .sort();
    for (let i = 0; i < killers.length; i++) {
      for (let j = i + 1; j < killers.length; j++) {
        const key = `${killers[i]!}\0${killers[j]!}`;
        const pair = pairs.get(key) ?? { a: killers[i]!, b: killers[j]!, mutants: 0, examples: [] };
        pair.mutants++;
        if (pair.examples.length < EXAMPLES_PER_PAIR)
          pair.examples.push(`${mutant.file}:${mutant.line} ${mutant.original} → ${mutant.replacement}`);
        pairs.set(key, pair);
      }
    }
  }
  return [...pairs.values()].sort((x, y) => y.mutants - x.mutants || x.a.localeCompare(y.a));
}

export function mutantRunSummary(input: {
  generated: number;
  selected: number;
  records: readonly MutantRecord[];
  durationMs: number;
  pruned: boolean;
  stoppedBy: AuditReport['totals']['stoppedBy'];
}): AuditReport['totals'] {
  const testRuns = input.records.reduce(
    (n, r) => n + [...r.outcomes.values()].filter((o) => o !== 'not-run').length,
    0,
  );
  return {
    generated: input.generated,
    selected: input.selected,
    ran: input.records.length,
    testRuns,
    durationMs: input.durationMs,
    mutantsPerSecond: input.durationMs > 0 ? round((input.records.length * 1000) / input.durationMs) : 0,
    pruned: input.pruned,
    stoppedBy: input.stoppedBy,
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export function auditCachePath(workspaceDir: string): string {
  return path.join(workspaceDir, '.weave', 'cache', 'audit.json');
}

/** Stores the report as the workspace's last audit (write then rename: readers never see half a file). */
export async function saveAuditReport(workspaceDir: string, report: AuditReport): Promise<string> {
  const file = auditCachePath(workspaceDir);
  await fs.mkdir(path.dirname(file), { recursive: true });
  ensureCacheIgnored(path.join(path.dirname(file), 'audit'));
  const partial = `${file}.${process.pid}.tmp`;
  await fs.writeFile(partial, JSON.stringify(report, null, 2) + '\n');
  await fs.rename(partial, file);
  return file;
}

/** The last audit, or undefined when there is none or it cannot be read (a stale cache is not an error). */
export async function readAuditReport(workspaceDir: string): Promise<AuditReport | undefined> {
  try {
    const parsed = JSON.parse(
      await fs.readFile(auditCachePath(workspaceDir), 'utf8'),
    ) as Partial<AuditReport>;
    if (parsed.version !== 1 || !Array.isArray(parsed.specs) || !Array.isArray(parsed.observed))
      return undefined;
    return parsed as AuditReport;
  } catch {
    return undefined;
  }
}
