// The diff policy over a prediction (sandbox/diffPolicy): what the patch changes on the task's base, classed
// source, dependency or test infrastructure, before any of its code runs. The patch is applied to a private
// index of the base checkout (the work tree and HEAD are not touched), so the policy sees exactly the files and
// contents eval.sh will lay down. Spec test files and .weave/ are left out: eval.sh puts the task's own back
// before the specs run, and the report already lists them (edits_spec_tests).
import path from 'node:path';
import { git } from '../../git/git';
import {
  classifyChanges,
  infrastructureFindings,
  needsContent,
  type FileChange,
  type InfrastructureFinding,
} from '../../sandbox/diffPolicy/classifyChanges';
import { protectionScopeOf } from '../../sandbox/protectionScope';
import { changesBetweenTrees } from '../../sandbox/diffPolicy/treeChanges';
import { filesTouchedBy } from '../predictions';
import { isSpecTestPath, type TaskSpec } from '../taskFormat';

/** The prediction's test-infrastructure changes on the base at `checkout` (HEAD); empty when there are none. */
export async function predictionInfrastructure(
  checkout: string,
  patch: string,
  specs: readonly TaskSpec[],
): Promise<InfrastructureFinding[]> {
  if (patch.trim() === '') return [];
  const specTestFiles = [...new Set(specs.flatMap((s) => s.test.files))];
  // Read before the patch is laid down: the base is what the specs' commands load (task specs carry cwd and env).
  const scope = await protectionScopeOf(checkout, specs);
  const changes = (await changesOnBase(checkout, patch)).filter(
    (c) => !isSpecTestPath(c.path, specTestFiles),
  );
  return infrastructureFindings(classifyChanges(changes, scope));
}

async function changesOnBase(checkout: string, patch: string): Promise<FileChange[]> {
  const options = {
    isolated: true,
    env: { GIT_INDEX_FILE: path.join(path.dirname(checkout), 'prediction-policy.index') },
  };
  await git(['read-tree', 'HEAD'], checkout, options);
  for (const extra of [[], ['--3way']]) {
    try {
      await git(['apply', '--cached', '--binary', ...extra, '-'], checkout, { ...options, input: patch });
      const after = (await git(['write-tree'], checkout, options)).trim();
      return await changesBetweenTrees(checkout, 'HEAD^{tree}', after, options);
    } catch {
      await git(['read-tree', 'HEAD'], checkout, options);
    }
  }
  return changesByPathOnly(checkout, patch);
}

/**
 * A patch only `patch --fuzz` places (or none at all): its files are known from its headers, their content after
 * it is not. Paths are judged as usual; a keyed manifest among them (package.json, pyproject.toml…) cannot be
 * read key by key, so it counts as test infrastructure — the report says why.
 */
async function changesByPathOnly(checkout: string, patch: string): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  for (const file of filesTouchedBy(patch)) {
    const existedBefore = await git(['cat-file', '-e', `HEAD:${file}`], checkout, { isolated: true })
      .then(() => true)
      .catch(() => false);
    const change: FileChange = { path: file, existedBefore, existsAfter: true };
    if (needsContent(file)) change.unknownContent = 'the patch applies only with fuzz';
    changes.push(change);
  }
  return changes;
}
