// Go import resolution: an import path under a go.mod module of the workspace → every non-test .go file of that
// package's folder; anything else (the standard library, other modules) is external. The files of one package
// see each other without imports, so resolveImports.ts also gives each file its package's other files.
import path from 'node:path/posix';
import type { WorkspaceFileSet } from './moduleResolution';

export function createGoResolver(
  workspace: WorkspaceFileSet,
  readText: (file: string) => string | undefined,
): (spec: string) => string[] {
  let goModules: Array<{ module: string; dir: string }> | undefined;
  const goModulesOf = () =>
    (goModules ??= [...workspace.files]
      .filter((f) => path.basename(f) === 'go.mod')
      .flatMap((f) => {
        const name = /^module\s+(\S+)/m.exec(readText(f) ?? '')?.[1];
        return name === undefined ? [] : [{ module: name, dir: path.dirname(f) }];
      }));
  return (spec) => {
    for (const { module, dir } of goModulesOf()) {
      if (spec !== module && !spec.startsWith(`${module}/`)) continue;
      const pkgDir = path.normalize(path.join(dir, spec.slice(module.length)));
      return workspace.inDir(pkgDir).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
    }
    return [];
  };
}
