// The settings a spec's test runs with: its own `test.cwd` / `test.env` / `test.timeoutSeconds` over the spec
// file's `defaults`. One rule for every runner (weave check, blame's probes, the tasks export writes), so a
// spec means the same thing wherever it runs.
import type { Spec, SpecFile } from '../../shared/specSchema';

export interface TestSettings {
  /** Workspace-relative working directory, as declared. */
  cwd: string;
  env: Record<string, string>;
  timeoutSeconds: number;
}

export function effectiveTestSettings(spec: Spec, defaults: SpecFile['defaults']): TestSettings {
  return {
    cwd: spec.test.cwd ?? defaults.cwd,
    env: { ...defaults.env, ...spec.test.env },
    timeoutSeconds: spec.test.timeoutSeconds ?? defaults.timeoutSeconds,
  };
}
