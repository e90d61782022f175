// The policy scope with what the specs load (commandLoads/): the one protected set the sandbox's hashes and
// read-only binds, the diff policy, the guard and export's protected_files all judge by. Read it from the pristine
// tree; `observed` is what reference runs saw each spec's test process load (observedLoads.ts: the user's
// workspace's, which a copy of it shares). The by-name part alone (diffPolicy/scope.ts's policyScopeOf) is what is left where no tree is at hand.
import {
  specLoads,
  type LoadingDefaults,
  type LoadingSpec,
  type ObservedLoads,
} from './commandLoads/specLoads';
import type { LoadedSet } from './commandLoads/loadedSet';
import { policyScopeOf, type PolicyScope } from './diffPolicy/scope';

export type LoadedScope = PolicyScope & { loaded: LoadedSet };

export async function protectionScopeOf(
  workspaceDir: string,
  specs: readonly LoadingSpec[],
  defaults: LoadingDefaults = {},
  observed?: ObservedLoads,
): Promise<LoadedScope> {
  const scope = policyScopeOf(specs, defaults.cwd);
  return { ...scope, loaded: await specLoads(workspaceDir, specs, defaults, scope.importRoots, observed) };
}
