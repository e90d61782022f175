// The environment of a set-up step (a task's dependency installs: `npm ci`, `npm install`, `pip install`), which
// differs from an agent's or a prediction's (environment.ts) in exactly what reaching a package registry needs:
// - the CA variables: on corporate networks (and this machine) registries are reached through a TLS-intercepting
//   proxy whose CA the environment names; without them npm retries silently until its time-out;
// - the proxy variables, upper and lower case (tools read either);
// - npm's `npm_config_*` and pip's `PIP_*` registry settings (index, find-links, cafile, time-outs), except
//   anything that names a credential (auth tokens, passwords, a user config file that holds them);
// - a writable private HOME and package caches in the run's scratch folder (the sandbox's HOME is read-only,
//   and the user's own ~/.npm or ~/.cache/pip is never written by a task).
// Proxy and index URLs may carry `user:pass@`: they reach the set-up process (an authenticating proxy needs
// them) but nothing printed or written keeps them (redactUrlCredentials). The set-up step also gets the allowlist
// every contained process gets; never model or cloud keys.
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Named exactly: where the intercepting proxy's CA is, and the proxy itself. */
export const SETUP_VARIABLES: readonly string[] = [
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'GIT_SSL_CAINFO',
  'PIP_CERT',
  ...['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'NO_PROXY'].flatMap((name) => [name, name.toLowerCase()]),
];

/** Matched by prefix, case-insensitively (npm reads its settings from the environment in either case). */
const SETUP_PREFIXES = ['npm_config_', 'pip_'];

/** Settings that hold or point at credentials, or at the user's own cache (the run has its own). */
const WITHHELD_SETTING =
  /auth|token|password|passwd|otp|userconfig|globalconfig|^npm_config_(cache|key|cert)$|^pip_(cache_dir|config_file)$/i;

export function isSetupVariable(name: string): boolean {
  if (SETUP_VARIABLES.includes(name)) return true;
  const lower = name.toLowerCase();
  return SETUP_PREFIXES.some((prefix) => lower.startsWith(prefix)) && !WITHHELD_SETTING.test(name);
}

/** A set-up run's private HOME with its caches, made inside `scratchDir` (which the run may write). */
export async function makeSetupHome(scratchDir: string): Promise<string> {
  const home = path.join(scratchDir, 'setup-home');
  await fs.mkdir(path.join(home, '.cache'), { recursive: true });
  return home;
}

/**
 * What a set-up step gets on top of the contained allowlist (containedEnvironment): the passed-through
 * variables of `source`, then HOME and the package caches pointed into `home`, and npm's chatter turned off.
 */
export function setupVariables(
  home: string,
  source: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && isSetupVariable(name)) env[name] = value;
  }
  const cache = path.join(home, '.cache');
  return {
    ...env,
    HOME: home,
    XDG_CACHE_HOME: cache,
    npm_config_cache: path.join(cache, 'npm'),
    PIP_CACHE_DIR: path.join(cache, 'pip'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

/** `scheme://user:pass@host` → `scheme://***@host`: proxy and index credentials never reach a log or a task. */
export function redactUrlCredentials(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@'"]+@/gi, '$1***@');
}
