// `weave guard` with any flags but a plain hook call's, for dist/guard-program.js (guardMain.ts): the whole verb,
// run as the CLI runs it, from the on-demand bundle dist/guard-parts.js.
import { guardVerb } from './commands/guard';
import { runVerb } from './verb';

export function runGuardVerb(args: string[]): Promise<number> {
  return runVerb(guardVerb, args);
}
