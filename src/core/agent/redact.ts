// Keeps secrets out of everything Weave writes (trajectories, results, progress): the configured API key
// verbatim, and anything shaped like a credential, wherever it appears.

const KEY_LIKE: Array<[RegExp, string]> = [
  // OpenAI-style keys (sk-..., sk-proj-...) and similar prefixed tokens.
  [/\b(?:sk|rk|pk)-[A-Za-z0-9_-]{8,}/g, '[REDACTED]'],
  // Authorization header values.
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{4,}/gi, '$1 [REDACTED]'],
  // "authorization": "..." / Authorization: ... in JSON, headers or code.
  [
    /("?\b(?:authorization|x-api-key|api[-_]?key|openai[-_]api[-_]key|weave[-_]api[-_]key)"?\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|[^\s,;}]+)/gi,
    '$1"[REDACTED]"',
  ],
  // Long quoted literals assigned to secret-ish names.
  [
    /(\b(?:secret|password|passwd|token|access[-_]?key)\w*"?\s*[:=]\s*)(["'])[^"'\n]{8,}\2/gi,
    '$1"[REDACTED]"',
  ],
];

export function createRedactor(secrets: Array<string | undefined>): (text: string) => string {
  const exact = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  return (text) => {
    let out = text;
    for (const s of exact) out = out.split(s).join('[REDACTED]');
    for (const [pattern, replacement] of KEY_LIKE) out = out.replace(pattern, replacement);
    return out;
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
