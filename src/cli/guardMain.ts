// `dist/guard-program.js` (started through `dist/guard.js`, guardLauncher.ts): `weave guard` as its own small
// bundle, because agents start a hook process on every tool call. The full CLI bundle loads every verb (the
// agent's model client, export, the index…) before it can answer; this one loads only the guard, and the spec
// runner only when a Stop event needs it. Same flags as `weave guard`.
import { guardVerb } from './commands/guard';
import { runVerb } from './verb';

runVerb(guardVerb, process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `weave guard: internal error: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
