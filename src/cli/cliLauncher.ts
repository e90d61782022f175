// `dist/cli.js`, the `weave` command: turns on V8's compile cache (node:module enableCompileCache) and only then
// loads the CLI bundle (`dist/cli-program.js`, from main.ts), so each run reads the bundle's compiled code
// instead of compiling ~4.6 MB of JavaScript again: about a third of a short verb's CPU (`weave affected` on a
// warm index, measured 2026-12-07 with bench/affected.bench.ts). The cache is in Weave's state folder (per user),
// as the guard's (guardLauncher.ts says why not Node's default in the shared temporary folder).
import nodeModule from 'node:module';
import path from 'node:path';
import { weaveStateDir } from '../core/stateDir';

// Node 22.1 and later: the README's first command runs on Debian's Node 20, which has no compile cache (it then
// compiles the bundle as before).
if (typeof nodeModule.enableCompileCache === 'function')
  nodeModule.enableCompileCache(path.join(weaveStateDir(), 'compile-cache'));
// A path computed at run time: the bundler must leave the CLI bundle out of this small one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(path.join(__dirname, 'cli-program.js'));
