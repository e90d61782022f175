// `dist/guard.js`: what the installed hooks start on every tool call. It turns on V8's compile cache
// (node:module enableCompileCache) and only then loads the guard bundle (`dist/guard-program.js`, from
// guardMain.ts), so each hook process reads the bundle's compiled code instead of compiling about 1.6 MB of
// JavaScript again. The cache is in Weave's state folder (per user), not Node's default in the shared temporary
// folder: a code cache another user could write would be code run here. Node checks each entry against the
// source it was made from, so a rebuilt bundle is compiled afresh.
import nodeModule from 'node:module';
import path from 'node:path';
import { weaveStateDir } from '../core/stateDir';

// Node 22.1 and later (an older Node compiles the bundle as before).
if (typeof nodeModule.enableCompileCache === 'function')
  nodeModule.enableCompileCache(path.join(weaveStateDir(), 'compile-cache'));
// A path computed at run time: the bundler must leave the guard bundle out of this small one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(path.join(__dirname, 'guard-program.js'));
