// Rust module resolution: `mod x;` → x.rs / x/mod.rs next to the declaring module; `use crate::a::b`,
// `super::`, `self::` → the module files along the path that exist (from the crate root's lib.rs / main.rs
// folder for `crate::`). External crates resolve to nothing.
import path from 'node:path/posix';
import type { WorkspaceFileSet } from './moduleResolution';

export function createRustResolver(workspace: WorkspaceFileSet): (file: string, spec: string) => string[] {
  const has = (f: string): boolean => workspace.has(f);

  function rustModuleFiles(dir: string, segments: string[]): string[] {
    const found: string[] = [];
    let current = dir;
    for (const segment of segments) {
      const asFile = path.join(current, `${segment}.rs`);
      const asDir = path.join(current, segment, 'mod.rs');
      if (has(asFile)) found.push(asFile);
      else if (has(asDir)) found.push(asDir);
      else break;
      current = path.join(current, segment);
    }
    return found;
  }

  function rustModuleDir(file: string): string {
    const base = path.basename(file);
    if (base === 'lib.rs' || base === 'main.rs' || base === 'mod.rs') return path.dirname(file);
    return file.slice(0, -'.rs'.length);
  }

  function rustCrateRoot(file: string): string | undefined {
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      if (has(path.join(dir, 'lib.rs')) || has(path.join(dir, 'main.rs'))) return dir;
      if (dir === '.' || dir === '/') return undefined;
    }
  }

  return (file, spec) => {
    if (spec.startsWith('mod ')) return rustModuleFiles(rustModuleDir(file), [spec.slice(4)]);
    const segments = spec
      .replace(/[{}].*$/, '')
      .split('::')
      .filter((s) => s !== '');
    const head = segments.shift();
    if (head === 'crate') {
      const root = rustCrateRoot(file);
      return root === undefined ? [] : rustModuleFiles(root, segments);
    }
    if (head === 'self') return rustModuleFiles(rustModuleDir(file), segments);
    if (head === 'super') {
      let dir = path.dirname(rustModuleDir(file));
      while (segments[0] === 'super') {
        segments.shift();
        dir = path.dirname(dir);
      }
      return rustModuleFiles(dir, segments);
    }
    return [];
  };
}
