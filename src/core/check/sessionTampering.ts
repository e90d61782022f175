// Results of a check in the user's tree while an agent session's record says protected files changed since the
// session started (sandbox/sessionRecord.ts): the specs those files concern turn `tampered`, keeping the verdict
// they had, so a session that rewrote a test never reads `pass` or `fixed`.
import type { TamperedFile } from '../sandbox/protectedFiles';
import type { SpecResult } from './types';

/** `concerned`: spec id → the changed protected files that concern it (sessionRecord's specsConcerned). */
export function markSessionTampering(
  results: SpecResult[],
  concerned: ReadonlyMap<string, readonly TamperedFile[]>,
): SpecResult[] {
  return results.map((result) => {
    const files = concerned.get(result.id);
    if (!files || files.length === 0) return result;
    const list = files.map((f) => `${f.path} (${f.change})`).join(', ');
    const why =
      `protected files changed during an agent session: ${list} — ` +
      "put them back with 'weave guard --restore', or accept them yourself with 'weave guard --accept-tests'";
    const already = result.tampered ?? [];
    return {
      ...result,
      verdict: 'tampered',
      verdictBeforeTampering: result.verdictBeforeTampering ?? result.verdict,
      reason: result.verdict === 'tampered' && result.reason ? `${result.reason}; ${why}` : why,
      tampered: [...already, ...files.filter((f) => !already.some((t) => t.path === f.path))],
    };
  });
}
