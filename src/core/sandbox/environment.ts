// The environment of a process Weave starts on behalf of an agent or a prediction: an allowlist of what tools
// need to find themselves (PATH, HOME, locale, toolchain roots) plus the spec's own `env` — never Weave's or
// the model's credentials, nor anything else the user's shell happens to export (tokens, cloud keys).
// Names are matched exactly or by prefix (`LC_`); values are copied unchanged.

const ALLOWED_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'CI',
  // Toolchains that locate themselves through the environment (paths, not secrets).
  'PYENV_ROOT',
  'PYENV_VERSION',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'NVM_DIR',
  'NVM_BIN',
  'JAVA_HOME',
  'GOROOT',
  'GOPATH',
  'GOFLAGS',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
]);
const ALLOWED_PREFIXES = ['LC_'];

/** Inside the sandbox /tmp is the run's private temp folder; the host's TMPDIR may not exist there. */
const FIXED: Record<string, string> = { TMPDIR: '/tmp' };

export function isAllowedVariable(name: string): boolean {
  return ALLOWED_NAMES.has(name) || ALLOWED_PREFIXES.some((p) => name.startsWith(p));
}

/** The allowlisted part of `source` (default process.env), then `extra` (the spec's env) on top. */
export function containedEnvironment(
  extra: Record<string, string> = {},
  source: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && isAllowedVariable(name)) env[name] = value;
  }
  return { ...env, ...FIXED, ...extra };
}
