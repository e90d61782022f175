// The protected set's rules by path (protectedFiles.ts says what the set holds and why): which names and places
// are protected whole, which manifests by key, which folders are never walked. Apart from the tamper guard so that
// `weave guard`, which asks these on every agent tool call, loads none of the readers that compute what the specs
// load (tree-sitter-bash, the manifest parsers).
import path from 'node:path';
import type { SpecFile } from '../../shared/specSchema';
import type { LoadedSet } from './commandLoads/loadedSet';
import { infrastructureByPath, runnerFileReason } from './diffPolicy/infrastructurePaths';
import { normalisePath, policyScopeOf, type PolicyScope } from './diffPolicy/scope';

// Whole files the guard has always protected by name; the diff policy reads setup.cfg and tox.ini by section.
const SUPPORT_FILE_NAMES = new Set(['tox.ini', 'setup.cfg', 'noxfile.py', '.taprc']);
/** Manifests guarded by their test keys only (protectedFiles.ts's header). */
const KEYED_MANIFESTS = new Set(['package.json', 'pyproject.toml']);
/** Never walked (here and by the guard's folder search): dependencies, repositories, runner caches. */
export const SKIPPED_FOLDERS = new Set([
  'node_modules',
  '.git',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '__snapshots__',
  '.tox',
  '.nox',
  'dist',
  'build',
  'coverage',
]);

/** A file that configures or is loaded by a test runner wherever it is (the agent's tools refuse to write it). */
export function isSupportFileName(name: string): boolean {
  return SUPPORT_FILE_NAMES.has(name) || runnerFileReason(name) !== undefined;
}

/**
 * Whether a workspace-relative path is protected whole for these specs (patch checks use this). package.json
 * and pyproject.toml are protected in their test keys only, which a path cannot say: diffPolicy classifies them.
 * `loaded` is what the specs load (specLoadsOf); without it only the by-name part is known.
 */
export function isProtectedPath(relativePath: string, specFile: SpecFile, loaded?: LoadedSet): boolean {
  const scope = policyScopeOf(specFile.specs, specFile.defaults.cwd);
  return isWholeFileProtected(normalisePath(relativePath), loaded ? { ...scope, loaded } : scope);
}

export function isWholeFileProtected(rel: string, scope: PolicyScope): boolean {
  return infrastructureByPath(rel, scope) !== undefined || SUPPORT_FILE_NAMES.has(path.posix.basename(rel));
}

/** package.json and pyproject.toml: protected by their test keys only, never as whole files. */
export function isKeyedManifest(rel: string): boolean {
  return KEYED_MANIFESTS.has(path.posix.basename(rel));
}
