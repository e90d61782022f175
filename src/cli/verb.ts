// One verb of the `weave` CLI, and the one way every entry point runs it.
import { stopExitCode } from './interrupt';

/** `run` returns the process exit code (0 ok, 1 failures, 2 bad input); it throws an InputError for bad input. */
export interface Verb {
  name: string;
  summary: string;
  help: string;
  run(args: string[]): Promise<number>;
}

/**
 * Runs `verb`. Bad input it throws (flags, spec file, ref, spec id) becomes a located message and exit code 2;
 * a verb stopped by SIGINT / SIGTERM / SIGHUP exits 130 / 143 / 129 once it has cleaned up.
 */
export async function runVerb(verb: Verb, args: string[]): Promise<number> {
  let code: number;
  try {
    code = await verb.run(args);
  } catch (error) {
    const stopped = stopExitCode();
    if (stopped === undefined) {
      // Loaded on demand: the reporter reaches the spec model (zod), which `weave guard`'s hook path must not pay
      // for on every tool call.
      const { reportInputError } = await import('./output/inputErrors.js');
      code = reportInputError(verb.name, error);
    } else {
      // What failed while the verb was being stopped failed because it was: the stop is the outcome.
      process.stderr.write(
        `weave ${verb.name}: stopped (${error instanceof Error ? error.message : String(error)})\n`,
      );
      return stopped;
    }
  }
  return stopExitCode() ?? code;
}
