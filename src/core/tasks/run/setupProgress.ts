// A line every few seconds while a task's environment set-up runs (`npm install` can take minutes, and a stuck
// one used to look exactly like a busy one): which set-up command is running and for how long, read from the
// markers eval.sh writes to its log. Only markers with the run's nonce count, as everywhere else.
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
}

/** Starts reporting; the returned function stops it. Nothing is reported before the first set-up marker. */
export function watchSetup(watch: SetupWatch): () => void {
  const started = performance.now();
  let reading = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    void fs
      .readFile(watch.logFile, 'utf8')
      .catch(() => '')
      .then((log) => {
        const command = runningSetupCommand(log, watch.nonce);
        if (command === undefined) return;
        const seconds = Math.round((performance.now() - started) / 1000);
        watch.report(`${watch.label}: environment set-up running for ${seconds} s: ${command}`);
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
