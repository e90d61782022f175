// The package manifests JS/TS resolution reads: each workspace package.json (parsed once, by the caller's
// readJson), the workspace packages by name, the package.json nearest a file, whether a dependency is declared
// in one above it, and whether it is installed (node_modules on disk). resolveJs.ts decides what a specifier
// resolves to; this module only answers what the manifests say.
import fs from 'node:fs';
import nodePath from 'node:path';
import { workspaceDirname, workspaceJoin } from './moduleResolution';

export interface PackageJson {
  name?: unknown;
  main?: unknown;
  module?: unknown;
  exports?: unknown;
  imports?: unknown;
  dependencies?: unknown;
  devDependencies?: unknown;
  peerDependencies?: unknown;
  optionalDependencies?: unknown;
}

/** Where the manifests come from: the workspace's file list and a JSON reader over it. */
export interface ManifestSource {
  has(file: string): boolean;
  /** Parsed JSON of a workspace file (package.json), or undefined when missing or invalid. */
  readJson(file: string): unknown;
  /** Every workspace package.json (outside node_modules). */
  packageJsonFiles(): string[];
}

export interface PackageManifests {
  /** The package.json at `file` when it holds an object. */
  manifest(file: string): PackageJson | undefined;
  /** The folders of the workspace packages named `name` ('' for the root). */
  workspacePackageDirs(name: string): string[];
  nearestPackageJson(file: string): string | undefined;
  /** Whether a package.json in the file's folder or above lists `name` among its dependencies of any kind. */
  isDeclared(file: string, name: string): boolean;
}

export function packageManifests(source: ManifestSource): PackageManifests {
  const manifest = (file: string): PackageJson | undefined => {
    const value = source.readJson(file);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as PackageJson)
      : undefined;
  };
  let packagesByName: Map<string, string[]> | undefined;
  const workspacePackageDirs = (name: string): string[] => {
    if (!packagesByName) {
      packagesByName = new Map();
      for (const f of source.packageJsonFiles()) {
        const pkg = manifest(f);
        if (typeof pkg?.name !== 'string') continue;
        const dir = workspaceDirname(f);
        packagesByName.set(pkg.name, [...(packagesByName.get(pkg.name) ?? []), dir]);
      }
    }
    return packagesByName.get(name) ?? [];
  };
  const nearestPackageJson = (file: string): string | undefined => {
    for (let dir = workspaceDirname(file); ; dir = workspaceDirname(dir)) {
      const candidate = workspaceJoin(dir, 'package.json');
      if (source.has(candidate)) return candidate;
      if (dir === '') return undefined;
    }
  };
  const isDeclared = (file: string, name: string): boolean => {
    for (let dir = workspaceDirname(file); ; dir = workspaceDirname(dir)) {
      const candidate = workspaceJoin(dir, 'package.json');
      const pkg = source.has(candidate) ? manifest(candidate) : undefined;
      if (pkg) {
        for (const deps of [
          pkg.dependencies,
          pkg.devDependencies,
          pkg.peerDependencies,
          pkg.optionalDependencies,
        ]) {
          if (deps !== null && typeof deps === 'object' && Object.hasOwn(deps, name)) return true;
        }
      }
      if (dir === '') return false;
    }
  };
  return { manifest, workspacePackageDirs, nearestPackageJson, isDeclared };
}

/** `isInstalled` probing the disk under `workspaceDir` and the folders above it (Node looks there too). */
export function installedPackageProbe(workspaceDir: string): (dir: string, name: string) => boolean {
  const memo = new Map<string, boolean>();
  return (dir, name) => {
    const key = `${dir}\0${name}`;
    let found = memo.get(key);
    if (found === undefined) {
      found = false;
      for (let d = nodePath.join(workspaceDir, dir); ; d = nodePath.dirname(d)) {
        if (fs.existsSync(nodePath.join(d, 'node_modules', name))) {
          found = true;
          break;
        }
        if (nodePath.dirname(d) === d) break;
      }
      memo.set(key, found);
    }
    return found;
  };
}
