// What an exported task must never carry: secrets (by file name, or by content as secretlint's rules see it)
// and the exporting machine's absolute paths or home directory. Secret files are left out of the task entirely (base and patches alike)
// and listed in the export result; absolute paths are rewritten consistently in every file and field.
import os from 'node:os';
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { detectSecrets, redactDetected, scannableText, SECRET_RULES } from '../../secrets/secretDetector';

export type ExclusionReason =
  'secret file name' | 'secret-like content' | 'not a regular file' | 'export output';

export interface ExcludedFile {
  path: string;
  reason: ExclusionReason;
}

// Matched against the file's base name, case-insensitively.
const SECRET_FILE_NAMES: RegExp[] = [
  /^\.env/i, // .env, .envrc (direnv), .env.local, .env-prod, .env_staging …
  /\.env$/i, // prod.env
  // env.local, env.production; not source files that happen to be called env (env.ts, env.py …).
  /^env\.(?!(?:[cm]?[jt]sx?|d\.ts|py|go|rs|java|kt|rb|php|sh|md)$)/i,
  /\.(pem|key|p12|pfx|jks|keystore|ppk)$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)/i,
  /^credentials/i,
  /^secrets?\.(json|ya?ml|toml|ini|txt)$/i,
  /^\.(netrc|pgpass|htpasswd|git-credentials)$/i,
  /\.tfstate(\.backup)?$/i, // terraform state holds every secret of the infrastructure in plain text
];

export function isSecretFileName(relativePath: string): boolean {
  const name = path.posix.basename(relativePath);
  return SECRET_FILE_NAMES.some((pattern) => pattern.test(name));
}

/** Whether secretlint's rules (secretDetector.ts) find a secret in a file's content (UTF-16 decoded). */
export function containsSecret(content: string | Buffer, filePath?: string): boolean {
  const text = typeof content === 'string' ? content : scannableText(content);
  return detectSecrets(text, SECRET_RULES, filePath).length > 0;
}

/** Replaces secrets in free text (spec statements, outputs) that cannot simply be left out. */
export function redactSecrets(text: string): string {
  return redactDetected(text, '[redacted]');
}

/** `https://user:token@host/owner/name.git` → `owner/name`; `git@host:owner/name.git` → `owner/name`. */
export function repoNameFromRemote(url: string): string | undefined {
  const trimmed = url
    .trim()
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
  const scp = /^[^@/]+@[^:/]+:(.+)$/.exec(trimmed);
  let repoPath = scp?.[1];
  if (repoPath === undefined) {
    try {
      repoPath = new URL(trimmed).pathname;
    } catch {
      return undefined;
    }
  }
  const parts = repoPath.split('/').filter((p) => p.length > 0);
  const name = parts.at(-1);
  const owner = parts.at(-2);
  if (name === undefined) return undefined;
  return owner === undefined ? name : `${owner}/${name}`;
}

/** Rewrites absolute paths of this machine in a text: the named roots to placeholders, then the home dir to ~. */
export class PathScrubber {
  private readonly rules: Array<{ pattern: RegExp; replacement: string }> = [];

  constructor(roots: Array<{ dir: string; replacement: string }>) {
    const home = os.homedir();
    const all = [...roots, { dir: os.tmpdir(), replacement: '$TMPDIR' }, { dir: home, replacement: '~' }];
    const seen = new Set<string>();
    const variants: Array<{ dir: string; replacement: string }> = [];
    for (const { dir, replacement } of all) {
      for (const variant of [dir, safeRealpath(dir)]) {
        const normalized = variant.replace(/[/\\]+$/, '');
        // "/" or a one-letter root would rewrite every path: never a root worth scrubbing.
        if (normalized.length < 2 || seen.has(normalized)) continue;
        seen.add(normalized);
        variants.push({ dir: normalized, replacement });
      }
    }
    // Longest first, so a workspace inside the home directory becomes "." rather than "~/…/ws".
    variants.sort((a, b) => b.dir.length - a.dir.length);
    for (const { dir, replacement } of variants) {
      this.rules.push({
        pattern: new RegExp(`${escapeRegExp(dir)}(?=[/\\\\"'\`\\s:;,)\\]}>]|$)`, 'gm'),
        replacement,
      });
    }
  }

  scrub(text: string): string {
    let out = text;
    for (const { pattern, replacement } of this.rules) out = out.replace(pattern, () => replacement);
    return out;
  }

  /** Deeply scrubs (and redacts secrets in) every string of a JSON-like value. */
  scrubValue<T>(value: T): T {
    if (typeof value === 'string') return redactSecrets(this.scrub(value)) as T;
    if (Array.isArray(value)) return value.map((v: unknown) => this.scrubValue(v)) as T;
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.scrubValue(v);
      return out as T;
    }
    return value;
  }
}

/** A text file we may rewrite: no NUL byte near the start and valid UTF-8. */
export function isText(content: Buffer): boolean {
  if (content.subarray(0, 8000).includes(0)) return false;
  return Buffer.from(content.toString('utf8'), 'utf8').equals(content);
}

function safeRealpath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
