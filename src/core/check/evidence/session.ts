// Runner evidence: per spec run, a private results directory and the environment that makes the test runners
// inside the command write their own results there (node:test, mocha, jest and vitest through a Node.js hook
// in NODE_OPTIONS, pytest through a plugin found on PYTHONPATH). Because the runner reports from inside its own
// process, this sees through `| cat`, `|| true`, `a; b` and any reporter flag. It does not defeat code under
// test that forges the results file (it runs in the same process): that is what tamper hashing of the test
// files is for. A jest or vitest whose internals the hook does not know reports nothing: their results then
// come from the output (summary.ts).
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addSummaries } from '../summary';
import type { TestSummary } from '../types';
import { locateEvidenceResources, type EvidenceResources } from './resources';

export const EVIDENCE_DIR_VARIABLE = 'WEAVE_EVIDENCE_DIR';

export interface EvidenceSession {
  /** The spec's environment with Weave's hooks added (the user's NODE_OPTIONS / PYTHONPATH kept). */
  env: Record<string, string>;
  /** Directories the command must be able to write (a sandbox binds them writable). */
  writableDirs: string[];
  /** What the runners reported during the run, added up; undefined when no runner reported. */
  collect(): Promise<TestSummary | undefined>;
  /** Removes the results directory. */
  dispose(): Promise<void>;
}

/**
 * `specEnv` is what the spec sets; `inherited` the environment the command would otherwise inherit, whose
 * NODE_OPTIONS / PYTHONPATH are extended when the spec does not set them.
 */
export async function startEvidence(
  specEnv: Record<string, string>,
  inherited: NodeJS.ProcessEnv = process.env,
  resources: EvidenceResources = locateEvidenceResources(),
): Promise<EvidenceSession> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-evidence-'));
  const existing = (name: string): string => specEnv[name] ?? inherited[name] ?? '';
  const nodeOptions = [existing('NODE_OPTIONS'), `--require ${JSON.stringify(resources.nodeHook)}`]
    .filter(Boolean)
    .join(' ');
  const pythonPath = [resources.pythonDir, existing('PYTHONPATH')].filter(Boolean).join(path.delimiter);
  return {
    env: { ...specEnv, NODE_OPTIONS: nodeOptions, PYTHONPATH: pythonPath, [EVIDENCE_DIR_VARIABLE]: dir },
    writableDirs: [dir],
    collect: () => readEvidence(dir),
    dispose: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

const RUNNERS: ReadonlySet<string> = new Set(['node:test', 'mocha', 'pytest', 'jest', 'vitest']);

/** Every results file in `dir`, added up. A file that is not what the hooks write is ignored. */
export async function readEvidence(dir: string): Promise<TestSummary | undefined> {
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
  const runs: TestSummary[] = [];
  for (const name of names) {
    const text = await fs.readFile(path.join(dir, name), 'utf8').catch(() => '');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    const listed = (value as { runs?: unknown }).runs;
    if (Array.isArray(listed)) runs.push(...listed.flatMap(toSummary));
  }
  return addSummaries(runs);
}

function toSummary(run: unknown): TestSummary[] {
  if (typeof run !== 'object' || run === null) return [];
  const r = run as Record<string, unknown>;
  const n = (key: string): number =>
    typeof r[key] === 'number' && Number.isInteger(r[key]) && (r[key] as number) >= 0
      ? (r[key] as number)
      : 0;
  if (typeof r.runner !== 'string' || !RUNNERS.has(r.runner)) return [];
  return [
    {
      runner: r.runner as TestSummary['runner'],
      passed: n('passed'),
      failed: n('failed'),
      skipped: n('skipped'),
      ...(n('collectionErrors') > 0 ? { collectionErrors: n('collectionErrors') } : {}),
      ...(r.listing === true ? { listing: true } : {}),
    },
  ];
}
