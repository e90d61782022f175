// The authenticated record format the runner hooks write into a spec run's results directory, and its check.
// Each line of a results file is an envelope `{"key": K, "body": "<JSON text>", "mac": "<hex>"}` whose mac is
// HMAC-SHA256 over the body text. K is "run" for a hook that received the run's secret from Weave (the first
// hook process of each chain of the command: npm, node --test, pytest, mocha …), or a nonce for a child the hook
// started itself (a test file's process under `node --test`), whose key is HMAC(secret, "child:" + nonce): a
// child's key, should the code under test ever dig it out of its own process, cannot sign the counts of the run.
// The secret reaches the hooks on an inherited descriptor (session.ts), never through the environment or argv,
// so code under test that writes a results file cannot sign it: such a file is `forged`, never counted.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The key id of records signed with the run's own secret. */
export const RUN_KEY = 'run';

/** What one hook process reported, as the hooks write it (see resources/evidence). */
export interface EvidenceRecord {
  /** A random id per hook process and runner: a `started` record is answered by the `completed` one. */
  instance: string;
  kind: 'started' | 'completed' | 'replaced' | 'intrusion';
  runner?: string;
  /** `completed`: the runner's counts (only honoured under the run key). */
  runs?: unknown[];
  /** `replaced`: the runner or assertion functions found replaced since the hook loaded. */
  functions?: string[];
  /** `intrusion`: what code under test did to reach the runner (a Python audit event, a foreign hook). */
  details?: string[];
  /**
   * `completed`: the absolute paths of the files the process had loaded when its first test started (its test
   * modules and their helpers; dependencies and the installed Python left out). See observedLoads.ts.
   */
  loaded?: string[];
}

export interface VerifiedRecord extends EvidenceRecord {
  /** Signed with the run key (a top-level runner), not a child's key. */
  runKey: boolean;
}

/** The key a child hook process with this nonce signs with (the parent hook derives it the same way). */
export function childKey(secret: string, nonce: string): string {
  return createHmac('sha256', secret).update(`child:${nonce}`).digest('hex');
}

/** HMAC-SHA256 of `body` with `key`, hex. */
export function macOf(key: string, body: string): string {
  return createHmac('sha256', key).update(body).digest('hex');
}

/** The record an envelope line carries, when its mac is right under `secret`; undefined otherwise. */
export function verifyRecord(line: string, secret: string): VerifiedRecord | undefined {
  let envelope: unknown;
  try {
    envelope = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof envelope !== 'object' || envelope === null) return undefined;
  const { key, body, mac } = envelope as Record<string, unknown>;
  if (typeof key !== 'string' || typeof body !== 'string' || typeof mac !== 'string') return undefined;
  if (!/^[0-9a-f]{64}$/.test(mac) || !/^[0-9a-z]{1,64}$/.test(key)) return undefined;
  const runKey = key === RUN_KEY;
  const expected = Buffer.from(macOf(runKey ? secret : childKey(secret, key), body), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(mac, 'hex'))) return undefined;
  const record = parseBody(body);
  return record ? { ...record, runKey } : undefined;
}

function parseBody(body: string): EvidenceRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  if (typeof r.instance !== 'string') return undefined;
  if (r.kind !== 'started' && r.kind !== 'completed' && r.kind !== 'replaced' && r.kind !== 'intrusion')
    return undefined;
  return {
    instance: r.instance,
    kind: r.kind,
    ...(typeof r.runner === 'string' ? { runner: r.runner } : {}),
    ...(Array.isArray(r.runs) ? { runs: r.runs as unknown[] } : {}),
    ...(Array.isArray(r.functions)
      ? { functions: r.functions.filter((f): f is string => typeof f === 'string') }
      : {}),
    ...(Array.isArray(r.details)
      ? { details: r.details.filter((d): d is string => typeof d === 'string') }
      : {}),
    ...(Array.isArray(r.loaded)
      ? { loaded: r.loaded.filter((f): f is string => typeof f === 'string') }
      : {}),
  };
}
