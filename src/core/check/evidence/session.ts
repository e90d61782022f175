// Runner evidence: per spec run, a private results directory, a secret, and the environment that makes the
// test runners inside the command write their own signed results there (node:test, mocha, jest and vitest
// through a Node.js hook in NODE_OPTIONS, pytest through a plugin found on PYTHONPATH, `python -m unittest`
// through the sitecustomize there). Because the runner reports from inside its own process, this sees through
// `| cat`, `|| true`, `a; b` and any reporter flag.
// The secret reaches the hooks on an inherited descriptor, never in the environment or argv (records.ts says
// how records are signed): a results file written by code under test does not verify, never counts, and is
// reported (`forged`), as are runners that started and never finished and functions the hooks found replaced.
// A jest or vitest whose internals the hook does not know reports nothing: their results then come from the
// output (summary.ts).
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addSummaries } from '../summary';
import type { TestSummary } from '../types';
import { nodeTestDisagreement, nodeTestFileCounts } from './nodeTestFiles';
import { RUN_KEY, verifyRecord, type VerifiedRecord } from './records';
import { locateEvidenceResources, type EvidenceResources } from '../../evidenceResources';

export const EVIDENCE_DIR_VARIABLE = 'WEAVE_EVIDENCE_DIR';
/**
 * What the Node.js hook observes (weave-node-hook.cjs): `full` everything; `counts` only the runners' counts and
 * the files they loaded, for the user's own check, which never reads replaced functions (runSpec.ts).
 */
export const OBSERVE_VARIABLE = 'WEAVE_EVIDENCE_OBSERVE';
export type EvidenceScope = 'full' | 'counts';
/** Names the descriptor (not the secret) on which a hook finds its key. */
export const KEY_FD_VARIABLE = 'WEAVE_EVIDENCE_KEY_FD';
/**
 * Set to `1` in a reference run, whose loads are kept (sandbox/observedLoads.ts): only then do the hooks note
 * every ES module load and read jest's and vitest's module registries (resources/evidence/weave-evidence-loads.cjs).
 */
export const LOADS_VARIABLE = 'WEAVE_EVIDENCE_LOADS';
/**
 * Lines of `run <secret>` on the command's descriptor 3: each hook process started directly by the command's
 * shell takes one (`a; b; c` has three); the hooks hand their own children a descriptor of their own.
 */
const KEY_COPIES = 64;

/** What the runners reported through the hooks, once verified. */
export interface EvidenceReport {
  /** The verified runs, added up; undefined when no runner reported counts. */
  summary?: TestSummary;
  /** Runners that reported they started and never that they finished (the process exited midway). */
  unfinished: string[];
  /** Results files in the directory that did not verify (written by something other than a hook). */
  forged: string[];
  /** Runner and assertion functions the hooks found replaced while the tests ran (`node:assert.equal`). */
  replaced: string[];
  /** What the runner guard saw code under test do to reach the runner (weave_runner_guard.py, the plugin). */
  intrusions: string[];
  /**
   * Absolute paths of the files the test processes had loaded when their first test started, from every
   * verified `completed` record (a test file's own process under node --test included). Only a reference run's
   * list is kept as part of the protected set (sandbox/observedLoads.ts); elsewhere it is not used.
   */
  loaded: string[];
}

export interface EvidenceSession {
  /** The spec's environment with Weave's hooks added (the user's NODE_OPTIONS / PYTHONPATH kept). */
  env: Record<string, string>;
  /** Directories the command must be able to write (a sandbox binds them writable). */
  writableDirs: string[];
  /** What the command reads on descriptor 3 (runCommand's inheritedInputs): the hooks' key. */
  inheritedInputs: string[];
  /** What the runners reported during the run, verified. */
  collect(): Promise<EvidenceReport>;
  /** Removes the results directory. */
  dispose(): Promise<void>;
}

/**
 * `specEnv` is what the spec sets; `inherited` the environment the command would otherwise inherit, whose
 * NODE_OPTIONS / PYTHONPATH are extended when the spec does not set them. `options.scope` (default `full`) is set
 * whatever the spec's env says: a contained run observes everything.
 */
export async function startEvidence(
  specEnv: Record<string, string>,
  inherited: NodeJS.ProcessEnv = process.env,
  resources: EvidenceResources = locateEvidenceResources(),
  options: { recordLoads?: boolean; scope?: EvidenceScope } = {},
): Promise<EvidenceSession> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-evidence-'));
  const existing = (name: string): string => specEnv[name] ?? inherited[name] ?? '';
  const nodeOptions = [existing('NODE_OPTIONS'), `--require ${JSON.stringify(resources.nodeHook)}`]
    .filter(Boolean)
    .join(' ');
  const pythonPath = [resources.pythonDir, existing('PYTHONPATH')].filter(Boolean).join(path.delimiter);
  const secret = randomBytes(32).toString('hex');
  return {
    env: {
      ...specEnv,
      NODE_OPTIONS: nodeOptions,
      PYTHONPATH: pythonPath,
      [EVIDENCE_DIR_VARIABLE]: dir,
      [KEY_FD_VARIABLE]: '3',
      [OBSERVE_VARIABLE]: options.scope ?? 'full',
      ...(options.recordLoads ? { [LOADS_VARIABLE]: '1' } : {}),
    },
    writableDirs: [dir],
    inheritedInputs: [`${RUN_KEY} ${secret}\n`.repeat(KEY_COPIES)],
    collect: () => readEvidence(dir, secret),
    dispose: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

const RUNNERS: ReadonlySet<string> = new Set(['node:test', 'mocha', 'pytest', 'unittest', 'jest', 'vitest']);

/**
 * Every results file in `dir`, verified with `secret` and added up. Only records signed with the run's key
 * carry counts; a child's key (a test file's process under node --test) only says it started and finished.
 */
export async function readEvidence(dir: string, secret: string): Promise<EvidenceReport> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const forged: string[] = [];
  const records: VerifiedRecord[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const text = entry.isFile() ? await fs.readFile(path.join(dir, entry.name), 'utf8').catch(() => '') : '';
    const lines = text.split('\n').filter((line) => line !== '');
    const verified = lines.map((line) => verifyRecord(line, secret));
    if (lines.length === 0 || verified.includes(undefined)) forged.push(entry.name);
    for (const record of verified) if (record) records.push(record);
  }
  const byInstance = new Map<string, { runner: string; started: boolean; completed?: VerifiedRecord }>();
  const loaded = new Set<string>();
  const replaced = new Set<string>();
  const intrusions = new Set<string>();
  for (const record of records) {
    if (record.kind === 'replaced') {
      for (const name of record.functions ?? []) replaced.add(name);
      continue;
    }
    if (record.kind === 'intrusion') {
      for (const detail of record.details ?? []) intrusions.add(detail);
      continue;
    }
    const seen = byInstance.get(record.instance) ?? {
      runner: record.runner ?? 'a test runner',
      started: false,
    };
    if (record.kind === 'started') seen.started = true;
    else seen.completed = record;
    for (const file of record.loaded ?? []) loaded.add(file);
    byInstance.set(record.instance, seen);
  }
  const runs: TestSummary[] = [];
  const unfinished: string[] = [];
  for (const { runner, started, completed } of byInstance.values()) {
    if (started && !completed) unfinished.push(runner);
    if (completed?.runKey) runs.push(...(completed.runs ?? []).flatMap(toSummary));
  }
  const files = nodeTestFileCounts(
    [...byInstance.values()].flatMap(({ completed }) => (completed ? [completed] : [])),
  );
  const disagreement = files && nodeTestDisagreement(runs, files);
  if (disagreement) intrusions.add(disagreement);
  const summary = addSummaries(runs);
  return {
    ...(summary ? { summary } : {}),
    unfinished: [...new Set(unfinished)].sort(),
    forged,
    replaced: [...replaced].sort(),
    intrusions: [...intrusions],
    loaded: [...loaded].sort(),
  };
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
