// What "contained" means for one run on behalf of an agent or a prediction: the bubblewrap options for its
// standalone copy (core/workspace makes it; or, when the user explicitly opted out of the sandbox, none), the
// allowlisted environment, and the tamper guard over the copy's protected files. runSpecs takes one of these.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { locateEvidenceResources } from '../evidenceResources';
import type { SpecFile } from '../../shared/specSchema';
import type { NetworkAccess, SandboxOptions } from './bwrap';
import { DEFAULT_SANDBOX_LIMITS } from './resourceLimits';
import { requireSandbox } from './sandboxPolicy';
import { TamperGuard } from './protectedFiles';
import type { ObservedLoads } from './commandLoads/specLoads';
import { observedLoadsOf } from './observedLoads';

export interface Containment {
  /** bubblewrap around every command; undefined only when the user opted out (allowUnsandboxed). */
  sandbox?: SandboxOptions;
  /** Why the run is not sandboxed, shown wherever its results are. */
  unsandboxedReason?: string;
  guard: TamperGuard;
}

export interface ContainmentRequest {
  network?: NetworkAccess;
  /** Run without a sandbox when none is available (the CLI's --no-sandbox, the extension's setting). */
  allowUnsandboxed?: boolean;
  /** Skip the sandbox even where it is available (also an explicit opt-out). */
  forceUnsandboxed?: boolean;
}

export { SandboxUnavailableError } from './sandboxPolicy';

/** A standalone copy of a workspace as the sandbox sees it (core/workspace's standalone kind). */
export interface ContainedTree {
  /** The workspace folder's counterpart inside the copy. */
  workspaceDir: string;
  /** The copy's top folder (its own repository root): the only writable tree inside the sandbox. */
  root: string;
  /** The user's repository root (or the workspace outside git): hidden inside the sandbox. */
  userRoot: string;
  /** The user's dependency folders (DEPENDENCY_DIRS) and their empty mount points in the copy. */
  dependencies: ReadonlyArray<{ source: string; target: string }>;
}

export async function containmentFor(
  checkout: ContainedTree,
  specFile: SpecFile,
  request: ContainmentRequest = {},
): Promise<Containment> {
  // What the user's own checks saw the specs' test processes load (observedLoads.ts): the copy has the same files.
  const userWorkspace = path.join(checkout.userRoot, path.relative(checkout.root, checkout.workspaceDir));
  const observed = await observedLoadsOf(userWorkspace, specFile.specs, specFile.defaults);
  const guard = await TamperGuard.create(checkout.workspaceDir, specFile, observed);
  const decision = await requireSandbox('flags', request);
  if (!decision.sandboxed) {
    await linkDependenciesUnsandboxed(checkout);
    return { guard, unsandboxedReason: decision.reason };
  }
  return {
    guard,
    sandbox: {
      checkout: checkout.root,
      hiddenDirs: [checkout.userRoot],
      readOnlyBinds: [...checkout.dependencies, ...weaveInstallationBinds()],
      protectedPaths: guard.mountablePaths(),
      observeAttempts: true,
      network: request.network ?? 'none',
      ...(specFile.defaults.writeCapMiB !== undefined
        ? {
            limits: {
              ...DEFAULT_SANDBOX_LIMITS,
              checkoutWriteBytes: specFile.defaults.writeCapMiB * 1024 * 1024,
            },
          }
        : {}),
    },
  };
}

/**
 * Adds what a reference run in this containment saw the specs load (the base of an agent run, before the agent
 * worked) to its protected set: the guard hashes and restores those files from now on, and the sandbox mounts
 * them read-only for the commands that follow. Returns the files that joined the set.
 */
export async function protectObservedLoads(
  containment: Containment,
  observed: ObservedLoads,
): Promise<string[]> {
  if (observed.size === 0) return [];
  const joined = await containment.guard.observe(observed);
  if (joined.length > 0 && containment.sandbox)
    containment.sandbox = { ...containment.sandbox, protectedPaths: containment.guard.mountablePaths() };
  return joined;
}

/**
 * The runner hooks every spec command loads (check/evidence) must stay visible inside: Weave's build may live
 * under /tmp (private inside the sandbox) or inside the repository the sandbox hides (Weave run on its own
 * repository, or installed in the project). Only the build folder that holds them is shown, read-only at its own
 * path — never the installation's root, which may be the user's repository itself.
 */
export function weaveInstallationBinds(): Array<{ source: string; target: string }> {
  const evidenceDir = path.dirname(locateEvidenceResources().nodeHook);
  const build = path.basename(path.dirname(evidenceDir)) === 'dist' ? path.dirname(evidenceDir) : evidenceDir;
  return [{ source: build, target: build }];
}

/**
 * For an explicitly unsandboxed run, and a copy nobody contains: the dependency folders as symlinks, since
 * nothing binds them. (In the sandbox the empty mount points stay and bwrap shows the real folders read-only.)
 */
export async function linkDependenciesUnsandboxed(
  checkout: Pick<ContainedTree, 'dependencies'>,
): Promise<void> {
  for (const { source, target } of checkout.dependencies) {
    await fs.rm(target, { recursive: true, force: true });
    await fs.symlink(source, target, 'junction');
  }
}
