// What kind of change each changed file is for selection: Weave's own run state (ignored), a change whose
// impact cannot be traced (a manifest, lockfile or tool config, a deleted file, a git submodule, a file without
// a grammar, the spec file: it selects every spec), or a traceable change of an indexed source file.
import path from 'node:path';
import type { IndexView } from '../anchors/resolve';
import type { ChangedFile } from '../git/changes';

/** Manifests, lockfiles and tool configs: they change how everything builds or runs, so their impact is unknown. */
const CONFIG_FILE_NAMES = new Set([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'bun.lockb',
  '.npmrc',
  '.nvmrc',
  '.node-version',
  '.mocharc.json',
  '.mocharc.yml',
  '.babelrc',
  'tsconfig.json',
  'jsconfig.json',
  'setup.py',
  'setup.cfg',
  'pyproject.toml',
  'pytest.ini',
  'tox.ini',
  'noxfile.py',
  'requirements.txt',
  'Pipfile',
  'Pipfile.lock',
  'poetry.lock',
  'go.mod',
  'go.sum',
  'Cargo.toml',
  'Cargo.lock',
  'build.rs',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'settings.gradle',
  'Makefile',
  '.env',
]);

/** Loaded by tools, not imported: `vitest.config.ts`, `.mocharc.js`, `tsconfig.base.json`, `.env.test`. */
export function isConfigFile(file: string): boolean {
  const name = path.posix.basename(file);
  return (
    CONFIG_FILE_NAMES.has(name) ||
    /\.config\.(m|c)?(j|t)s$/.test(name) ||
    /^\.[\w-]+rc(\.(m|c)?js|\.json|\.ya?ml)?$/.test(name) ||
    /^tsconfig\..*\.json$/.test(name) ||
    /^requirements[-.].*\.txt$/.test(name) ||
    name.startsWith('.env.')
  );
}

export interface ClassifiedChanges {
  /** Why every spec is selected (one line per change with unknown impact). */
  allReasons: string[];
  ignored: string[];
  traceable: ChangedFile[];
}

/** Which changes can be traced through the index, which select every spec, and which are Weave's own state. */
export function classifyChanges(
  changes: readonly ChangedFile[],
  index: IndexView,
  specFilePath: string,
  listed: ReadonlySet<string> | undefined,
  /** The workspace's git submodules: Weave does not look inside one, so what changed in it is unknown. */
  submodules: readonly string[] = [],
): ClassifiedChanges {
  const skipped = new Map(index.skipped.map((s) => [s.path, s.reason]));
  const allReasons: string[] = [];
  const ignored: string[] = [];
  const traceable: ChangedFile[] = [];
  for (const change of changes) {
    const file = change.path;
    const submodule = submodules.find((s) => file === s || file.startsWith(`${s}/`));
    if (file.startsWith('.weave/runs/') || file === '.weave/.gitignore' || file.startsWith('.weave/cache/')) {
      ignored.push(file);
    } else if (file === specFilePath || file.startsWith('.weave/')) {
      allReasons.push(`${file} changed: the specs themselves may have changed`);
    } else if (change.status === 'deleted') {
      allReasons.push(`${file} was deleted: whatever loaded it can no longer be traced`);
    } else if (change.status === 'type-changed') {
      allReasons.push(`${file} changed type (file ↔ symlink): its impact is unknown`);
    } else if (submodule !== undefined) {
      const what = file === submodule ? 'a git submodule' : `inside the git submodule ${submodule}`;
      allReasons.push(
        `${file} is ${what}: Weave cannot trace into it, so a test may load anything that changed in it`,
      );
    } else if (isConfigFile(file)) {
      allReasons.push(
        `${file} is a manifest, lockfile or tool configuration: it can change how every test runs`,
      );
    } else if (!index.files.has(file) || (listed !== undefined && !listed.has(file))) {
      const why = skipped.get(file);
      const detail =
        why === 'too-large'
          ? 'it is too large to index'
          : why === 'binary'
            ? 'it is a binary file'
            : why === 'ignored'
              ? 'it is ignored by the index'
              : 'Weave has no grammar for it';
      allReasons.push(`${file} cannot be traced (${detail}): a test may read it`);
    } else {
      traceable.push(change);
    }
  }
  return { allReasons, ignored, traceable };
}
