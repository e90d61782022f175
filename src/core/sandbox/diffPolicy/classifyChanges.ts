// The diff policy: what an agent or a prediction changed, file by file, as source (it may change), dependency
// (package manifests in their dependency keys only, lock files, requirements) or test infrastructure (it may
// not: whatever decides how the tests run or what they import — runner configuration in every form, files
// Python or the runners load by themselves, modules that shadow the runner or the standard library, the spec
// tests and Weave's state). It classifies by mechanism, not by a list of names, so a new pytest.toml, an
// `addopts` in pyproject.toml or a `*.dist-info` entry point is caught like conftest.py. A change to test
// infrastructure makes an agent run `tampered` (checkoutWork.ts) and a prediction unresolved (evalInstance.ts).
import { infrastructureByPath, isDependencyFile } from './infrastructurePaths';
import { isKeyedManifest, manifestKeyChanges, UnreadableManifest } from './manifestKeys';
import { normalisePath, type PolicyScope } from './scope';

export type ChangeClass = 'source' | 'test-infrastructure' | 'dependency';

/** One changed file. Content is needed only for keyed manifests (needsContent); undefined = absent. */
export interface FileChange {
  path: string;
  existedBefore: boolean;
  existsAfter: boolean;
  before?: string;
  after?: string;
  /** Why the content after the change cannot be known (a keyed manifest is then test infrastructure). */
  unknownContent?: string;
}

/** One reason a change is test infrastructure: the file, the key or section when it is one, and why. */
export interface InfrastructureFinding {
  path: string;
  change: 'changed' | 'created' | 'deleted';
  key?: string;
  why: string;
}

export interface ClassifiedChange {
  path: string;
  class: ChangeClass;
  /** Non-empty exactly when class is test-infrastructure. */
  findings: InfrastructureFinding[];
}

/** Whether the policy must read this file's content before and after (everything else is judged by path). */
export function needsContent(rel: string): boolean {
  return isKeyedManifest(normalisePath(rel));
}

export function classifyChange(change: FileChange, scope: PolicyScope): ClassifiedChange {
  const rel = normalisePath(change.path);
  const how = !change.existedBefore ? 'created' : !change.existsAfter ? 'deleted' : 'changed';
  const byPath = infrastructureByPath(rel, scope);
  if (byPath !== undefined) return infrastructure(rel, [{ path: rel, change: how, why: byPath }]);
  if (isKeyedManifest(rel) && change.unknownContent !== undefined)
    return infrastructure(rel, [
      {
        path: rel,
        change: how,
        why: `${change.unknownContent}, so which of its keys changed cannot be read`,
      },
    ]);
  if (isKeyedManifest(rel)) {
    const keys = manifestKeyChanges(
      rel,
      change.existedBefore ? (change.before ?? '') : undefined,
      change.existsAfter ? (change.after ?? '') : undefined,
      scope.loaded?.keys.get(rel),
    );
    if (keys instanceof UnreadableManifest)
      return infrastructure(rel, [
        { path: rel, change: how, why: `${keys.message}: its test keys cannot be told from the rest` },
      ]);
    const infra = keys.filter((k) => k.kind === 'test-infrastructure');
    if (infra.length > 0)
      return infrastructure(
        rel,
        infra.map((k) => ({ path: rel, change: how, key: k.key, why: k.why ?? 'a test runner reads it' })),
      );
    const onlyDependencies = keys.length > 0 && keys.every((k) => k.kind === 'dependency');
    return { path: rel, class: onlyDependencies ? 'dependency' : 'source', findings: [] };
  }
  return { path: rel, class: isDependencyFile(rel) ? 'dependency' : 'source', findings: [] };
}

export function classifyChanges(changes: readonly FileChange[], scope: PolicyScope): ClassifiedChange[] {
  return changes.map((c) => classifyChange(c, scope));
}

/** Every test-infrastructure finding of a classified diff, in path order. */
export function infrastructureFindings(classified: readonly ClassifiedChange[]): InfrastructureFinding[] {
  return classified
    .flatMap((c) => c.findings)
    .sort((a, b) => a.path.localeCompare(b.path) || (a.key ?? '').localeCompare(b.key ?? ''));
}

/** `pyproject.toml [tool.pytest.ini_options] addopts`, `conftest.py`. */
export function findingLabel(finding: InfrastructureFinding): string {
  return finding.key === undefined ? finding.path : `${finding.path} ${finding.key}`;
}

/** One sentence naming every file and key, for a verdict's reason and a report's error. */
export function describeInfrastructureChange(findings: readonly InfrastructureFinding[]): string {
  const list = findings.map((f) => `${findingLabel(f)} (${f.why})`).join('; ');
  return `the change touches test infrastructure: ${list} — a change to how the tests run cannot pass`;
}

function infrastructure(rel: string, findings: InfrastructureFinding[]): ClassifiedChange {
  return { path: rel, class: 'test-infrastructure', findings };
}
