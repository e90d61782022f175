// Finds the files Weave injects into spec test commands (resources/evidence, copied to dist/evidence by the
// build) relative to the running file: a bundle in dist/ (dist/cli.js, dist/extension.js) or a transpiled
// module under out/ (unit tests), whose nearest dist/ is the build's. In the base, below both users: check's
// runner evidence injects them, sandbox's containment keeps their folder visible inside.
import fs from 'node:fs';
import path from 'node:path';

export interface EvidenceResources {
  /** Required into every Node.js process of a spec (NODE_OPTIONS): observes node:test and mocha. */
  nodeHook: string;
  /** Put first on PYTHONPATH: pytest finds Weave's plugin there through its entry point. */
  pythonDir: string;
}

let cached: EvidenceResources | undefined;

export function locateEvidenceResources(fromDir: string = __dirname): EvidenceResources {
  if (cached && fromDir === __dirname) return cached;
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    for (const candidate of [path.join(dir, 'evidence'), path.join(dir, 'dist', 'evidence')]) {
      const nodeHook = path.join(candidate, 'weave-node-hook.cjs');
      if (fs.existsSync(nodeHook)) {
        const found = { nodeHook, pythonDir: path.join(candidate, 'python') };
        if (fromDir === __dirname) cached = found;
        return found;
      }
    }
    if (path.dirname(dir) === dir)
      throw new Error(
        `Weave's runner hooks (evidence/weave-node-hook.cjs) not found above ${fromDir}: run \`npm run build\``,
      );
  }
}
