// Java import resolution: `import a.b.C;` → any file ending in a/b/C.java; `a.b.*` → that package's files; a
// static import drops the member name. Classes of the same package need no import, so resolveImports.ts also
// gives each file its package's (folder's) other files.
import type { WorkspaceFileSet } from './moduleResolution';

export function createJavaResolver(workspace: WorkspaceFileSet): (spec: string) => string[] {
  let javaBySuffix: Map<string, string[]> | undefined;
  const javaFilesEndingWith = (suffix: string): string[] => {
    if (!javaBySuffix) {
      javaBySuffix = new Map();
      for (const f of workspace.files) {
        if (!f.endsWith('.java')) continue;
        const parts = f.split('/');
        for (let i = 0; i < parts.length; i++) {
          const key = parts.slice(i).join('/');
          const list = javaBySuffix.get(key);
          if (list) list.push(f);
          else javaBySuffix.set(key, [f]);
        }
      }
    }
    return javaBySuffix.get(suffix) ?? [];
  };

  return (spec) => {
    const isStatic = spec.startsWith('static ');
    const name = spec.replace(/^static\s+/, '');
    if (name.endsWith('.*')) {
      const pkgPath = name.slice(0, -2).split('.').join('/');
      const asPackage = [...workspace.folders()]
        .filter(([dir]) => dir === pkgPath || dir.endsWith(`/${pkgPath}`))
        .flatMap(([, files]) => files.filter((f) => f.endsWith('.java')));
      // `import static a.b.C.*` names a class, not a package.
      return asPackage.length > 0 || !isStatic ? asPackage : javaFilesEndingWith(`${pkgPath}.java`);
    }
    const parts = name.split('.');
    if (isStatic) parts.pop();
    return javaFilesEndingWith(`${parts.join('/')}.java`);
  };
}
