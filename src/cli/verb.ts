/** One verb of the `weave` CLI. `run` returns the process exit code (0 ok, 1 failures, 2 bad input). */
export interface Verb {
  name: string;
  summary: string;
  help: string;
  run(args: string[]): Promise<number>;
}
