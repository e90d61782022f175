// The selection study's oldest yardstick, the naive per-package selection: a spec is selected when the changed
// file is in its import cone, where a cone that enters a package (its __init__.py, or the main of a
// package.json folder) holds every source file of that package (`import pkg` = every module of pkg);
// dependents of selected specs too; a spec with an uncertain cone always.
import fs from 'node:fs';
import path from 'node:path';
import type { AnchoredWorkspace } from '../src/core/anchors/anchoredWorkspace';
import { specCones } from '../src/core/selection/cones';
import type { SpecFile } from '../src/shared/specSchema';

export function naiveSelector(ws: AnchoredWorkspace): (file: string) => Set<string> {
  const dir = ws.workspaceDir;
  const cones = specCones(ws.specFile, ws.index, { workspaceDir: dir, resolved: ws.resolved });
  const sources = [...ws.index.files.keys()].filter((f) => !f.startsWith('test/') && !f.startsWith('tests/'));
  // Package folder → the file that enters it: __init__.py, or package.json's main (default index.js).
  const entries = new Map<string, string>();
  for (const f of ws.index.files.keys()) {
    if (f.endsWith('__init__.py')) entries.set(path.posix.dirname(f), f);
  }
  for (const f of ws.index.skipped.map((s) => s.path)) {
    if (f !== 'package.json' && !f.endsWith('/package.json')) continue;
    const pkgDir = path.posix.dirname(f);
    const main =
      (JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { main?: string }).main ?? 'index.js';
    entries.set(pkgDir, path.posix.normalize(path.posix.join(pkgDir, main)));
  }
  const naiveCones = new Map<string, Set<string>>();
  for (const [id, cone] of cones) {
    const files = new Set(cone.parent.keys());
    for (const [pkg, entry] of entries) {
      if (!files.has(entry)) continue;
      const prefix = pkg === '.' ? '' : `${pkg}/`;
      for (const s of sources) if (s.startsWith(prefix)) files.add(s);
    }
    naiveCones.set(id, files);
  }
  return (file) => {
    const selected = new Set<string>();
    for (const spec of ws.specFile.specs) {
      if (naiveCones.get(spec.id)!.has(file) || cones.get(spec.id)!.uncertain.length > 0)
        selected.add(spec.id);
    }
    return withDependents(ws.specFile, selected);
  };
}

/** `selected` plus every spec that depends on one of them, transitively. */
export function withDependents(specFile: SpecFile, selected: Set<string>): Set<string> {
  let grew = true;
  while (grew) {
    grew = false;
    for (const spec of specFile.specs) {
      if (!selected.has(spec.id) && spec.dependsOn.some((d) => selected.has(d))) {
        selected.add(spec.id);
        grew = true;
      }
    }
  }
  return selected;
}
