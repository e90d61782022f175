// The one bounded pool of the project (the agent matrix, `weave eval` and `weave bench` share it; eval had its
// own runPool before, which let a failure escape while other jobs were still running).
/** Like Promise.all with a limit, but waits for every started job before rethrowing the first failure, so no
 * job (and its worktree or process tree) outlives the call. */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  const failures: unknown[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && failures.length === 0) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  if (failures.length > 0) throw failures[0];
  return results;
}
