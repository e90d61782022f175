// Progress lines while a task's eval.sh runs, read from the markers it writes to its log: which set-up command is
// running and for how long (every few seconds: `npm install` can take minutes, and a stuck one used to look
// exactly like a busy one), then which spec of how many is running (once per spec, so a person sees the
// verification move). Only markers with the run's nonce count, as everywhere else.
import { promises as fs } from 'node:fs';
import { markerPattern } from './specRunsScript';

export const SETUP_PROGRESS_INTERVAL_MS = 15_000;

export interface SetupWatch {
  logFile: string;
  nonce: string;
  /** Names the run in the line ("base + test.patch", an instance id). */
  label: string;
  report: (message: string) => void;
  intervalMs?: number;
  /** The spec ids in the order eval.sh runs them: turns on "spec N of M" lines. */
  specIds?: readonly string[];
}

/** Starts reporting; the returned function stops it. Nothing is reported before the first marker. */
export function watchSetup(watch: SetupWatch): () => void {
  const started = performance.now();
  let reading = false;
  let lastSpecLine: string | undefined;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    void fs
      .readFile(watch.logFile, 'utf8')
      .catch(() => '')
      .then((log) => {
        const command = runningSetupCommand(log, watch.nonce);
        if (command !== undefined) {
          const seconds = Math.round((performance.now() - started) / 1000);
          watch.report(`${watch.label}: environment set-up running for ${seconds} s: ${command}`);
          return;
        }
        const spec = watch.specIds ? runningSpec(log, watch.nonce, watch.specIds) : undefined;
        if (spec === undefined) return;
        const line = `${watch.label}: spec ${spec.number} of ${spec.of} running (${spec.id})`;
        if (line !== lastSpecLine) watch.report(line);
        lastSpecLine = line;
      })
      .finally(() => {
        reading = false;
      });
  }, watch.intervalMs ?? SETUP_PROGRESS_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The command of the last SETUP marker in `log`, unless a later marker says the set-up moved on. */
export function runningSetupCommand(log: string, nonce: string): string | undefined {
  const last = [...log.matchAll(markerPattern(nonce, '(.*)'))].at(-1)?.[1];
  if (last === undefined || !last.startsWith('SETUP ') || last.startsWith('SETUP FAILED')) return undefined;
  return last.slice('SETUP '.length);
}

/**
 * The spec eval.sh is running: the last SPEC START marker of `log` when no SPEC END followed it, numbered by its
 * place among `specIds` (1-based). Undefined between specs and before the first.
 */
export function runningSpec(
  log: string,
  nonce: string,
  specIds: readonly string[],
): { id: string; number: number; of: number } | undefined {
  const starts = [...log.matchAll(markerPattern(nonce, 'SPEC START (.*)'))];
  const last = starts.at(-1);
  if (last?.[1] === undefined || last.index === undefined) return undefined;
  const ended = markerPattern(nonce, 'SPEC END .*', false);
  ended.lastIndex = last.index;
  if (ended.exec(log) !== null) return undefined;
  const id = last[1];
  const at = specIds.indexOf(id);
  return at < 0 ? undefined : { id, number: at + 1, of: specIds.length };
}
