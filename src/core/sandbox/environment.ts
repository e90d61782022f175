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

/**
 * Inside the sandbox /tmp is the run's private temp folder; the host's TMPDIR may not exist there. The rest turns
 * off what tools do over the network on their own, unasked: in a run without network each is a connection attempt
 * (networkObservation.ts), and an honest `npm test` must not make its spec `tampered` — npm's update check (it
 * looks up registry.npmjs.org when its stamp file, in the run's empty HOME, is missing), the
 * `update-notifier` package (yarn 1 and many CLIs), pip's version check, yarn's and Next's
 * telemetry, and the cross-tool DO_NOT_TRACK convention. A spec's own env may set them otherwise.
 */
const FIXED: Record<string, string> = {
  TMPDIR: '/tmp',
  npm_config_update_notifier: 'false',
  NO_UPDATE_NOTIFIER: '1',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  YARN_ENABLE_TELEMETRY: '0',
  NEXT_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
};

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
