// Keeps secrets out of everything Weave writes (trajectories, results, progress): the configured API key
// verbatim, and whatever the shared secret detector (secretlint's rules + Weave's, src/core/secrets) finds,
// credentials in headers and assignments included.
import { LOG_SECRET_RULES, redactDetected } from '../secrets/secretDetector';

export function createRedactor(secrets: Array<string | undefined>): (text: string) => string {
  const exact = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  return (text) => {
    let out = text;
    for (const s of exact) out = out.split(s).join('[REDACTED]');
    return redactDetected(out, '[REDACTED]', LOG_SECRET_RULES);
  };
}

/** Redacts every string inside a JSON-like value. */
export function redactValue<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactValue(v, redact)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, redact);
    return out as T;
  }
  return value;
}
